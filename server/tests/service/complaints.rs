//! Complaints and reports: stored with a reference, mailed to support (and again later when the
//! mail failed), report links checked against the site and the reporter, staff-only handling
//! with every change in the staff log.

use crate::support;

use std::sync::Arc;

use domain::complaint::{Category, ComplaintForm};
use domain::Locale;
use server::complaints::{Complaints, Status, Subject};
use server::locales::Catalog;
use server::mail::Outbox;
use server::Db;
use support::world::{world, NOW};

fn complaint(text: &str) -> domain::complaint::Complaint {
    ComplaintForm { name: "Anna de Vries".into(), email: "anna@example.nl".into(), category: "harassment".into(), concerning: "Bram".into(), text: text.into() }
        .validate()
        .unwrap()
}

fn mails(dir: &std::path::Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir).map(|d| d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect()).unwrap_or_default();
    out.sort();
    out
}

async fn conversation(db: &Db, site_id: i64, a: i64, b: i64) -> i64 {
    let (low, high) = (a.min(b), a.max(b));
    let (id,): (i64,) = sqlx::query_as("INSERT INTO conversations (site_id, low_id, high_id, started_by, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id")
        .bind(site_id)
        .bind(low)
        .bind(high)
        .bind(a)
        .bind(NOW)
        .fetch_one(db.pool())
        .await
        .unwrap();
    id
}

on_both_databases!(a_complaint_is_stored_mailed_and_linked_only_to_what_the_reporter_may_name, |db: Db| async move {
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let out = tempfile::tempdir().unwrap();
    let complaints = Complaints::new(db.clone(), Outbox::files(out.path().to_path_buf()), Arc::new(Catalog::embedded()));
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    sqlx::query("UPDATE profiles SET name = 'Bram' WHERE user_id = $1").bind(bram.id).execute(db.pool()).await.unwrap();
    let theirs = conversation(&db, site, bram.id, carl.id).await;
    let ours = conversation(&db, site, anna.id, bram.id).await;

    // A visitor reports a member from the profile; the reference comes back and support is mailed.
    let first = complaints
        .file(site, &complaint("He keeps sending me rude messages."), None, Subject { member_id: Some(bram.id), conversation_id: Some(ours) }, Locale::En, NOW)
        .await
        .unwrap();
    assert!(domain::complaint::is_reference(&first), "{first}");
    let sent = mails(out.path());
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].contains(&first) && sent[0].contains("support@vonk.example") && sent[0].contains("Intimidatie of ongewenste berichten"),
        "to support, in the site's language, with the category"
    );
    assert!(sent[0].contains("Bram") && sent[0].contains(&format!("/members/{}", bram.id)));

    // Anna reports a conversation she is in, and tries one she is not in and another site's member.
    let own = complaints
        .file(site, &complaint("Threats in our conversation."), Some(&anna), Subject { member_id: None, conversation_id: Some(ours) }, Locale::Nl, NOW + 1)
        .await
        .unwrap();
    let foreign = complaints
        .file(
            site,
            &complaint("Someone else's conversation."),
            Some(&anna),
            Subject { member_id: Some(999_999), conversation_id: Some(theirs) },
            Locale::Nl,
            NOW + 2,
        )
        .await
        .unwrap();
    assert_ne!(own, foreign);

    let mut staff = w.reload(carl.id).await;
    support::grant_staff(&db, &w.accounts, "carl@example.nl", domain::staff::StaffRole::Support).await;
    staff = w.reload(staff.id).await;
    let open = complaints.list(&staff, site, Status::Open, 50).await.unwrap();
    assert_eq!(open.iter().map(|c| c.reference.as_str()).collect::<Vec<_>>(), [foreign.as_str(), own.as_str(), first.as_str()], "newest first");
    let by_ref = |r: &str| open.iter().find(|c| c.reference == r).unwrap().clone();
    assert_eq!(
        (by_ref(&first).member, by_ref(&first).conversation_id, by_ref(&first).reporter_id),
        (Some((bram.id, "Bram".to_string())), None, None),
        "a visitor cannot name a conversation"
    );
    assert_eq!((by_ref(&own).conversation_id, by_ref(&own).reporter_id), (Some(ours), Some(anna.id)));
    assert_eq!((by_ref(&foreign).member, by_ref(&foreign).conversation_id), (None, None), "an unknown member and someone else's conversation are not linked");
    assert_eq!(by_ref(&own).category, Category::Harassment);
    assert_eq!(by_ref(&own).email, "anna@example.nl");

    // The form names a member only to someone who could look them up; the link stays either way.
    let names = complaints.describe(site, Some(&anna), Subject { member_id: Some(bram.id), conversation_id: None }).await.unwrap();
    assert!(names.member_visible && names.member.is_some());
    sqlx::query("UPDATE profiles SET searchable = FALSE WHERE user_id = $1").bind(bram.id).execute(db.pool()).await.unwrap();
    let names = complaints.describe(site, None, Subject { member_id: Some(bram.id), conversation_id: None }).await.unwrap();
    assert_eq!((names.member.map(|m| m.0), names.member_visible), (Some(bram.id), false), "hidden: not named, still linked");
    sqlx::query("UPDATE profiles SET searchable = TRUE WHERE user_id = $1").bind(bram.id).execute(db.pool()).await.unwrap();
    sqlx::query("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3)")
        .bind(bram.id)
        .bind(anna.id)
        .bind(NOW)
        .execute(db.pool())
        .await
        .unwrap();
    assert!(
        !complaints.describe(site, Some(&anna), Subject { member_id: Some(bram.id), conversation_id: None }).await.unwrap().member_visible,
        "blocked the asker"
    );
    assert!(complaints.describe(site, Some(&carl), Subject { member_id: Some(bram.id), conversation_id: None }).await.unwrap().member_visible);
});

on_both_databases!(a_failed_mail_is_sent_again_by_housekeeping, |db: Db| async move {
    let w = world(db.clone()).await;
    let blocked = tempfile::NamedTempFile::new().unwrap();
    // A file where the mail folder should be: every send fails.
    let broken = Complaints::new(db.clone(), Outbox::files(blocked.path().join("mail")), Arc::new(Catalog::embedded()));
    let reference = broken.file(w.site.settings.id, &complaint("The payment page showed an error."), None, Subject::default(), Locale::Nl, NOW).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let working = Complaints::new(db.clone(), Outbox::files(out.path().to_path_buf()), Arc::new(Catalog::embedded()));
    assert_eq!(working.send_due(NOW + 30).await.unwrap(), 0, "not within the first minute (the request may still be sending it)");
    assert_eq!(working.send_due(NOW + 120).await.unwrap(), 1);
    assert!(mails(out.path())[0].contains(&reference));
    assert_eq!(working.send_due(NOW + 240).await.unwrap(), 0, "sent once");
});

fn refused<T>(r: Result<T, server::AppError>) -> Option<domain::ErrorCode> {
    r.err().map(|e| e.code())
}

on_both_databases!(only_staff_of_the_site_handle_complaints_and_each_change_is_logged, |db: Db| async move {
    let w = world(db.clone()).await;
    let site = w.site.settings.id;
    let out = tempfile::tempdir().unwrap();
    let complaints = Complaints::new(db.clone(), Outbox::files(out.path().to_path_buf()), Arc::new(Catalog::embedded()));
    let member = w.member("anna@example.nl", "female").await;
    let staff = w.member("staff@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "staff@example.nl", domain::staff::StaffRole::Moderator).await;
    let staff = w.reload(staff.id).await;
    complaints.file(site, &complaint("Something went wrong with my credits."), Some(&member), Subject::default(), Locale::Nl, NOW).await.unwrap();

    assert_eq!(refused(complaints.list(&member, site, Status::Open, 10).await), Some(domain::ErrorCode::NotFound), "a member is told nothing exists");
    assert_eq!(refused(server::staff::Staff::new(db.clone()).log(&member, site, 10).await), Some(domain::ErrorCode::NotFound));
    let id = complaints.list(&staff, site, Status::Open, 10).await.unwrap()[0].id;
    assert_eq!(refused(complaints.set_status(&member, site, id, Status::Handled, NOW).await), Some(domain::ErrorCode::NotFound));
    let other_site: (i64,) = sqlx::query_as("SELECT id FROM sites WHERE id <> $1").bind(site).fetch_one(db.pool()).await.unwrap();
    assert_eq!(refused(complaints.list(&staff, other_site.0, Status::Open, 10).await), Some(domain::ErrorCode::NotFound), "staff of one site only");
    assert_eq!(refused(complaints.set_status(&staff, site, 999_999, Status::Handled, NOW).await), Some(domain::ErrorCode::NotFound));

    complaints.set_status(&staff, site, id, Status::Handled, NOW + 10).await.unwrap();
    complaints.set_status(&staff, site, id, Status::Handled, NOW + 11).await.unwrap();
    assert!(complaints.list(&staff, site, Status::Open, 10).await.unwrap().is_empty());
    let handled = complaints.list(&staff, site, Status::Handled, 10).await.unwrap();
    assert_eq!((handled[0].handled_by.as_deref(), handled[0].handled_at), (Some("Anna"), Some(NOW + 10)), "who and when");
    complaints.set_status(&staff, site, id, Status::Open, NOW + 20).await.unwrap();
    // The staff log is for admins.
    assert!(server::staff::Staff::new(db.clone()).log(&staff, site, 10).await.is_err());
    support::grant_staff(&db, &w.accounts, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let staff = w.reload(staff.id).await;
    let log = server::staff::Staff::new(db.clone()).log(&staff, site, 10).await.unwrap();
    assert_eq!(
        log.iter().map(|a| a.action.as_str()).collect::<Vec<_>>(),
        ["complaint_open", "complaint_handled"],
        "a repeated press changes nothing and is not logged"
    );
    assert!(log.iter().all(|a| a.staff_name.contains(&format!("#{}", staff.id)) && a.target == handled[0].reference));
});

#[test]
fn every_category_has_a_label_in_every_language() {
    let catalog = Catalog::embedded();
    for locale in Locale::ALL {
        let texts = catalog.texts(locale);
        for c in Category::ALL {
            assert!(texts.get(&c.label_key()).is_some_and(|t| !t.is_empty()), "{locale:?} {}", c.label_key());
        }
    }
}
