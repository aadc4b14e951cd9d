//! Staff's member administration: find, block and unblock with a reason, roles; only staff of
//! the member's site; every change in the staff log, once.

mod support;

use domain::account::Role;
use domain::ErrorCode;
use server::staff::{MemberChange, Staff};
use server::Db;
use support::world::{world, NOW};

fn refused<T>(r: Result<T, server::AppError>) -> Option<ErrorCode> {
    r.err().map(|e| e.code())
}

async fn searchable(db: &Db, id: i64) -> bool {
    let row = sqlx::query("SELECT searchable FROM profiles WHERE user_id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
    server::db::flag(&row, "searchable").unwrap()
}

on_both_databases!(staff_find_block_unblock_and_grant_and_every_change_is_logged_once, |db: Db| async move {
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let staff_admin = Staff::new(db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let boss = w.member("boss@example.nl", "male").await;
    assert_eq!(w.accounts.set_staff("boss@example.nl", true).await.unwrap(), 1);
    let boss = w.reload(boss.id).await;

    // Members cannot use any of it.
    assert_eq!(refused(staff_admin.find(&anna, site, "boss@example.nl").await), Some(ErrorCode::NotFound));
    assert_eq!(refused(staff_admin.change_member(&anna, site, boss.id, MemberChange::Block("x".into()), NOW).await), Some(ErrorCode::NotFound));

    // Found by email (any case), by id and by #id; unknown and other sites' ids are not.
    let found = staff_admin.find(&boss, site, " ANNA@example.nl ").await.unwrap().unwrap();
    assert_eq!((found.id, found.status.as_str(), found.role), (anna.id, "active", Role::Member));
    assert_eq!(staff_admin.find(&boss, site, &anna.id.to_string()).await.unwrap().map(|m| m.id), Some(anna.id));
    assert_eq!(staff_admin.find(&boss, site, &format!("#{}", anna.id)).await.unwrap().map(|m| m.id), Some(anna.id));
    assert!(staff_admin.find(&boss, site, "nobody@example.nl").await.unwrap().is_none());
    let other_site: (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused(staff_admin.find(&boss, other_site.0, "anna@example.nl").await), Some(ErrorCode::NotFound));

    // A block needs a reason; it ends the member's sessions and takes them out of the search.
    assert_eq!(refused(staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("  ".into()), NOW).await), Some(ErrorCode::ReasonRequired));
    assert_eq!(refused(staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("x".repeat(501)), NOW).await), Some(ErrorCode::ReasonRequired));
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ('h-anna', $1, $2, $3)").bind(anna.id).bind(NOW).bind(NOW + 3600).execute(db.pool()).await.unwrap();
    assert!(searchable(&db, anna.id).await);
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("Scam messages, complaint K-ABCDEFGH".into()), NOW + 1).await.unwrap();
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Block("again".into()), NOW + 2).await.unwrap();
    let (sessions,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions WHERE user_id = $1").bind(anna.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(sessions, 0, "logged out everywhere");
    assert!(!searchable(&db, anna.id).await, "out of the search");
    assert_eq!(staff_admin.find(&boss, site, "anna@example.nl").await.unwrap().unwrap().status, "blocked");
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Unblock("Checked: not a scammer".into()), NOW + 3).await.unwrap();
    assert!(searchable(&db, anna.id).await, "findable again");

    // Roles; staff cannot block or demote themselves.
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Operator(true), NOW + 4).await.unwrap();
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Role(Role::Staff), NOW + 5).await.unwrap();
    staff_admin.change_member(&boss, site, anna.id, MemberChange::Role(Role::Staff), NOW + 6).await.unwrap();
    let anna_now = staff_admin.find(&boss, site, "anna@example.nl").await.unwrap().unwrap();
    assert!(anna_now.operator && anna_now.role == Role::Staff);
    assert_eq!(refused(staff_admin.change_member(&boss, site, boss.id, MemberChange::Block("me".into()), NOW).await), Some(ErrorCode::Forbidden));
    assert_eq!(refused(staff_admin.change_member(&boss, site, boss.id, MemberChange::Role(Role::Member), NOW).await), Some(ErrorCode::Forbidden));
    assert_eq!(refused(staff_admin.change_member(&boss, site, 999_999, MemberChange::Operator(true), NOW).await), Some(ErrorCode::NotFound));

    let log = staff_admin.log(&boss, site, 20).await.unwrap();
    let lines: Vec<(&str, &str)> = log.iter().map(|a| (a.action.as_str(), a.detail.as_str())).collect();
    assert_eq!(lines, [("member_role", "staff"), ("member_operator", "on"), ("member_unblock", "Checked: not a scammer"), ("member_block", "Scam messages, complaint K-ABCDEFGH")], "newest first, each change once");
    assert!(log.iter().all(|a| a.target == format!("member #{}", anna.id) && a.staff_name.contains(&format!("#{}", boss.id))));
});

#[test]
fn every_staff_action_has_a_label_in_every_language() {
    let catalog = server::locales::Catalog::embedded();
    let actions = ["photo_approve", "photo_reject", "complaint_handled", "complaint_open", "member_block", "member_unblock", "member_role", "member_operator"];
    for locale in domain::Locale::ALL {
        for a in actions {
            assert!(catalog.texts(locale).contains_key(&format!("staff.action.{a}")), "{locale:?} {a}");
        }
    }
}
