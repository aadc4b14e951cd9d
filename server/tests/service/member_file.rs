//! The member file's parts staff open on purpose, on SQLite and PostgreSQL: complaints by and
//! about a member, conversations read only with a reason (each reading logged, another member's
//! conversation refused), the export's log line, and deletion on the member's request.

use crate::support;

use domain::staff::StaffRole;
use domain::ErrorCode;
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::staff::{MemberChange, Staff};
use server::Db;
use support::world::{world, NOW};

async fn log_lines(db: &Db, action: &str) -> Vec<(String, String)> {
    sqlx::query_as("SELECT target, detail FROM staff_actions WHERE action = $1 ORDER BY id").bind(action).fetch_all(db.pool()).await.unwrap()
}

async fn complaint(db: &Db, reference: &str, reporter: Option<i64>, about: Option<i64>, body: &str) {
    sqlx::query(
        "INSERT INTO complaints (site_id, reference, created_at, language, name, email, category, body, reporter_id, member_id) \
         VALUES (1, $1, $2, 'nl', 'X', 'x@example.nl', 'harassment', $3, $4, $5)",
    )
    .bind(reference)
    .bind(NOW)
    .bind(body)
    .bind(reporter)
    .bind(about)
    .execute(db.pool())
    .await
    .unwrap();
}

on_both_databases!(staff_read_a_members_conversations_only_with_a_logged_reason, |db: Db| async move {
    let w = world(db).await;
    let staff = Staff::new(w.db.clone());
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused"));
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    let dora = w.member("dora@example.nl", "female").await;
    let help = w.staff("help@example.nl", StaffRole::Support).await;
    let moderator = w.staff("mod@example.nl", StaffRole::Moderator).await;
    let site = w.site.settings.id;

    let to_bram = chat.send(&w.site, &anna, To::Member(bram.id), "file-send-000001", Content::Text("<b>hoi</b> Bram".into()), NOW).await.unwrap();
    chat.send(&w.site, &bram, To::Member(anna.id), "file-send-000002", Content::Text("hoi Anna".into()), NOW + 5).await.unwrap();
    let carl_dora = chat.send(&w.site, &carl, To::Member(dora.id), "file-send-000003", Content::Text("niet van Anna".into()), NOW).await.unwrap();
    let conversation = to_bram.message.conversation;

    // Complaints: by her and about her, not Carl's about Dora.
    complaint(&w.db, "K-BY-ANNA", Some(anna.id), Some(bram.id), "Bram stuurt rare dingen").await;
    complaint(&w.db, "K-ABOUT-ANNA", Some(carl.id), Some(anna.id), "Anna is onbeleefd").await;
    complaint(&w.db, "K-OTHER", Some(carl.id), Some(dora.id), "iets anders").await;
    let lines = staff.member_complaints(&help, site, anna.id).await.unwrap();
    assert_eq!(lines.iter().map(|l| (l.reference.as_str(), l.by_member)).collect::<Vec<_>>(), [("K-ABOUT-ANNA", false), ("K-BY-ANNA", true)]);
    assert_eq!(staff.member_complaints(&anna, site, bram.id).await.unwrap_err().code(), ErrorCode::NotFound, "a member finds nothing");
    assert_eq!(staff.member_complaints(&moderator, site, anna.id).await.unwrap_err().code(), ErrorCode::NotFound, "the member file is support's");

    // No reason, or a reason too long: nothing read, nothing logged.
    for why in ["", "   ", &"x".repeat(501)] {
        assert_eq!(staff.member_conversations(&help, site, anna.id, why, NOW).await.unwrap_err().code(), ErrorCode::ReasonRequired);
        assert_eq!(staff.read_conversation(&help, site, anna.id, conversation, why, NOW).await.unwrap_err().code(), ErrorCode::ReasonRequired);
    }
    assert!(log_lines(&w.db, "conversations_listed").await.is_empty() && log_lines(&w.db, "conversation_read").await.is_empty());

    let list = staff.member_conversations(&help, site, anna.id, "klacht K-ABOUT-ANNA", NOW).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!((list[0].id, list[0].peer_id, list[0].messages), (conversation, bram.id, 2));
    let read = staff.read_conversation(&help, site, anna.id, conversation, "klacht K-ABOUT-ANNA", NOW).await.unwrap();
    assert_eq!(read.iter().map(|m| (m.sender_id, m.body.as_str())).collect::<Vec<_>>(), [(anna.id, "<b>hoi</b> Bram"), (bram.id, "hoi Anna")]);
    // Another pair's conversation through Anna's file: not there, and not logged as read.
    assert_eq!(
        staff.read_conversation(&help, site, anna.id, carl_dora.message.conversation, "nieuwsgierig", NOW).await.unwrap_err().code(),
        ErrorCode::NotFound
    );
    assert_eq!(staff.read_conversation(&anna, site, bram.id, conversation, "ik ben staf", NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(log_lines(&w.db, "conversations_listed").await, [(format!("member #{}", anna.id), "klacht K-ABOUT-ANNA".to_string())]);
    assert_eq!(
        log_lines(&w.db, "conversation_read").await,
        [(format!("member #{}, conversation #{conversation}", anna.id), "klacht K-ABOUT-ANNA".to_string())]
    );

    // The export is logged with its reason before the file is made.
    assert_eq!(staff.member_exported(&help, site, anna.id, "", NOW).await.unwrap_err().code(), ErrorCode::ReasonRequired);
    staff.member_exported(&help, site, anna.id, "inzageverzoek per mail", NOW).await.unwrap();
    assert_eq!(log_lines(&w.db, "export").await, [(format!("member #{} data", anna.id), "inzageverzoek per mail".to_string())]);
});

on_both_databases!(staff_delete_a_member_on_request_and_the_account_is_gone_at_once, |db: Db| async move {
    let w = world(db).await;
    let staff = Staff::new(w.db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let help = w.staff("help@example.nl", StaffRole::Support).await;
    let moderator = w.staff("mod@example.nl", StaffRole::Moderator).await;
    let site = w.site.settings.id;
    let token = w.accounts.open_session(anna.id).await.unwrap();
    assert!(w.accounts.member_for_session(&token).await.unwrap().is_some());

    assert_eq!(staff.change_member(&help, site, anna.id, MemberChange::Delete(" ".into()), NOW).await.unwrap_err().code(), ErrorCode::ReasonRequired);
    assert_eq!(staff.change_member(&moderator, site, anna.id, MemberChange::Delete("spam".into()), NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(staff.change_member(&help, site, help.id, MemberChange::Delete("zelf".into()), NOW).await.unwrap_err().code(), ErrorCode::Forbidden);
    assert_ne!(w.reload(anna.id).await.status, domain::account::UserStatus::Deleted);

    staff.change_member(&help, site, anna.id, MemberChange::Delete("AVG-verzoek per mail".into()), NOW).await.unwrap();
    assert!(w.reload(anna.id).await.status == domain::account::UserStatus::Deleted);
    assert!(w.accounts.member_for_session(&token).await.unwrap().is_none(), "her sessions ended");
    assert!(staff.search(&help, site, "anna@example.nl", NOW).await.unwrap().is_empty(), "found no more");
    // A second request (a double click) finds nothing to delete, and logs once.
    assert_eq!(
        staff.change_member(&help, site, anna.id, MemberChange::Delete("AVG-verzoek per mail".into()), NOW).await.unwrap_err().code(),
        ErrorCode::NotFound
    );
    assert_eq!(log_lines(&w.db, "member_delete").await, [(format!("member #{}", anna.id), "AVG-verzoek per mail".to_string())]);
    let (reason,): (Option<String>,) = sqlx::query_as("SELECT delete_reason FROM users WHERE id = $1").bind(anna.id).fetch_one(w.db.pool()).await.unwrap();
    assert_eq!(reason.as_deref(), Some("staff: AVG-verzoek per mail"));
});
