//! The profile-text queue on SQLite and PostgreSQL: a changed text waits while the approved one
//! stays shown; approve, reject (the member told why) and reject-and-block, one or many at once;
//! a decision applies to the very text staff saw, once, with one staff-log line each, so the
//! decisions and the log reconcile; the classifier's order; roles.

use crate::support;

use domain::moderation::{Decision, Reason, TextStatus, Verdict};
use domain::profile::DetailsForm;
use domain::staff::StaffRole;
use domain::ErrorCode;
use server::moderation::TextClassifier;
use server::staff::Staff;
use server::Db;
use support::world::{world, NOW};

fn about(text: &str) -> DetailsForm {
    DetailsForm { attributes: Vec::new(), interests: Vec::new(), about: text.into() }
}

async fn log_count(db: &Db, action: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = $1").bind(action).fetch_one(db.pool()).await.unwrap();
    n
}

on_both_databases!(changed_profile_texts_wait_for_staff_and_decisions_reconcile_with_the_log, |db: Db| async move {
    let w = world(db).await;
    let staff = Staff::new(w.db.clone());
    let members = w.members.clone().with_text_classifier(TextClassifier::Local);
    let site = &w.site;
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let carl = w.member("carl@example.nl", "male").await;
    let dora = w.member("dora@example.nl", "female").await;
    let boss = w.staff("mod@example.nl", StaffRole::Moderator).await;
    let today = domain::account::Ymd::from_unix(NOW);
    let shown = |id: i64| {
        let members = members.clone();
        async move { members.profile(site, None, id, today).await.unwrap().unwrap().about }
    };

    // Anna's first text waits: nobody sees it, her editor keeps it and says so.
    members.save_details(anna.id, &about("Ik hou van <b>wandelen</b>."), NOW).await.unwrap();
    assert_eq!(shown(anna.id).await, None);
    assert_eq!(members.details(anna.id).await.unwrap().about, "Ik hou van <b>wandelen</b>.");
    assert_eq!(members.own_text(anna.id).await.unwrap().status, Some(TextStatus::Waiting));
    assert_eq!(members.own_text(anna.id).await.unwrap().reason, None, "the classifier's guess is not the member's to see");
    members.save_details(bram.id, &about("Bel me: 06-12345678"), NOW + 1).await.unwrap();
    members.save_details(carl.id, &about("Ik ben 16 jaar"), NOW + 2).await.unwrap();
    members.save_details(dora.id, &about("Spam spam spam"), NOW + 3).await.unwrap();

    // The queue: likely refusals first (a minor, then contact details), with the suggestion.
    assert_eq!(staff.text_queue(&anna, site.id).await.unwrap_err().code(), ErrorCode::NotFound, "a member finds nothing");
    let queue = staff.text_queue(&boss, site.id).await.unwrap();
    assert_eq!(queue.iter().map(|q| q.user_id).collect::<Vec<_>>(), [carl.id, bram.id, anna.id, dora.id]);
    assert_eq!(queue[0].verdict.and_then(|v| v.reason), Some(Reason::Minor));
    assert_eq!(queue[1].verdict.and_then(|v| v.reason), Some(Reason::ContactDetails));
    let at = |id: i64| queue.iter().find(|q| q.user_id == id).unwrap().changed_at;

    // Anna changes her text after staff loaded the queue: the approval of what they saw does nothing.
    let seen_anna = at(anna.id);
    members.save_details(anna.id, &about("Ik hou van wandelen en koken."), NOW + 10).await.unwrap();
    assert_eq!(staff.review_texts(&boss, site.id, &[(anna.id, seen_anna)], Decision::Approve, NOW + 20).await.unwrap(), 0);
    assert_eq!(shown(anna.id).await, None);
    let anna_now = staff.text_queue(&boss, site.id).await.unwrap().into_iter().find(|q| q.user_id == anna.id).unwrap();
    assert_eq!(anna_now.text, "Ik hou van wandelen en koken.");

    // Many at once: Anna approved; Bram and Dora rejected; a second click decides nothing more.
    assert_eq!(staff.review_texts(&boss, site.id, &[(anna.id, anna_now.changed_at)], Decision::Approve, NOW + 30).await.unwrap(), 1);
    let reject = Decision::Reject(Reason::ContactDetails);
    assert_eq!(staff.review_texts(&boss, site.id, &[(bram.id, at(bram.id)), (dora.id, at(dora.id))], reject, NOW + 30).await.unwrap(), 2);
    assert_eq!(staff.review_texts(&boss, site.id, &[(bram.id, at(bram.id)), (dora.id, at(dora.id))], reject, NOW + 31).await.unwrap(), 0);
    assert_eq!(shown(anna.id).await.as_deref(), Some("Ik hou van wandelen en koken."));
    assert_eq!(shown(bram.id).await, None, "a rejected text is never shown");
    let told = members.own_text(bram.id).await.unwrap();
    assert_eq!((told.status, told.reason), (Some(TextStatus::Rejected), Some(Reason::ContactDetails)));
    assert_eq!(members.details(bram.id).await.unwrap().about, "Bel me: 06-12345678", "his draft stays his to change");

    // Carl: rejected and blocked; his sessions end and he leaves the search.
    let token = w.accounts.open_session(carl.id).await.unwrap();
    assert_eq!(staff.review_texts(&boss, site.id, &[(carl.id, at(carl.id))], Decision::Block(Reason::Minor), NOW + 40).await.unwrap(), 1);
    assert_eq!(w.reload(carl.id).await.status, domain::account::UserStatus::Blocked);
    assert!(w.accounts.member_for_session(&token).await.unwrap().is_none());
    assert!(members.profile(site, None, carl.id, today).await.unwrap().is_none());

    // Every decision is one log line; the queue is empty.
    assert_eq!((log_count(&w.db, "text_approve").await, log_count(&w.db, "text_reject").await, log_count(&w.db, "text_block").await), (1, 2, 1));
    assert!(staff.text_queue(&boss, site.id).await.unwrap().is_empty());

    // Anna's approved text again: nothing to review. A new one waits while the old one shows.
    members.save_details(anna.id, &about("Ik hou van wandelen en koken."), NOW + 50).await.unwrap();
    assert!(staff.text_queue(&boss, site.id).await.unwrap().is_empty());
    members.save_details(anna.id, &about("Nu ook van fietsen."), NOW + 60).await.unwrap();
    assert_eq!(shown(anna.id).await.as_deref(), Some("Ik hou van wandelen en koken."));
    // Emptying the text needs no review.
    members.save_details(anna.id, &about(""), NOW + 70).await.unwrap();
    assert_eq!(shown(anna.id).await, None);
    assert!(staff.text_queue(&boss, site.id).await.unwrap().is_empty());
});

on_both_databases!(without_a_classifier_the_queue_is_oldest_first_and_support_cannot_decide, |db: Db| async move {
    let w = world(db).await;
    let staff = Staff::new(w.db.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let help = w.staff("help@example.nl", StaffRole::Support).await;
    let admin = w.staff("admin@example.nl", StaffRole::Admin).await;
    // The test double: every text scores the same, so the order is the oldest first.
    let fixed = w.members.clone().with_text_classifier(TextClassifier::Fixed(Verdict { score: 50, reason: Some(Reason::Spam) }));
    fixed.save_details(bram.id, &about("Bram hier, 06 12 34 56 78"), NOW).await.unwrap();
    w.members.save_details(anna.id, &about("Anna hier"), NOW + 5).await.unwrap();
    let queue = staff.text_queue(&admin, w.site.id).await.unwrap();
    assert_eq!(queue.iter().map(|q| (q.user_id, q.verdict.map(|v| v.score))).collect::<Vec<_>>(), [(bram.id, Some(50)), (anna.id, None)]);
    assert_eq!(staff.text_queue(&help, w.site.id).await.unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(staff.review_texts(&help, w.site.id, &[(anna.id, queue[1].changed_at)], Decision::Approve, NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    // An admin cannot block themselves through their own text.
    w.members.save_details(admin.id, &about("admin"), NOW + 6).await.unwrap();
    let mine = staff.text_queue(&admin, w.site.id).await.unwrap().into_iter().find(|q| q.user_id == admin.id).unwrap();
    assert_eq!(staff.review_texts(&admin, w.site.id, &[(admin.id, mine.changed_at)], Decision::Block(Reason::Other), NOW).await.unwrap(), 0);
    assert_eq!(w.reload(admin.id).await.status, domain::account::UserStatus::Active);
});

on_both_databases!(payments_above_the_review_score_wait_until_staff_allow_them, |db: Db| async move {
    use domain::payment::PaymentMethod;
    use support::shop::{pack_id, payments, refused};
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let pack = pack_id(&w, &p, 60).await;
    let anna = w.member("anna@example.nl", "female").await;
    // Bram's address is at a disposable-mail domain: 25 points.
    let bram = w.member("bram@mailinator.com", "male").await;
    let help = w.staff("help@example.nl", StaffRole::Support).await;
    let moderator = w.staff("mod@example.nl", StaffRole::Moderator).await;
    let orders = |id: i64| {
        let db = w.db.clone();
        async move {
            let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM payments WHERE user_id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
            n
        }
    };

    // Off (0): Bram pays as anyone.
    p.start_checkout(&w.site, &bram, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    assert_eq!(orders(bram.id).await, 1);

    // From 25: Bram's checkout and direct debit wait, nothing stored; Anna (score 0) pays.
    let mut site = w.site.clone();
    site.settings.payment_review_score = 25;
    assert_eq!(refused(p.start_checkout(&site, &bram, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await), ErrorCode::PaymentReview);
    assert_eq!(refused(p.start_direct_debit(&site, &bram, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW).await), ErrorCode::PaymentReview);
    assert_eq!(orders(bram.id).await, 1);
    p.start_checkout(&site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    let review = server::fraud::review_of(&w.db, bram.id).await.unwrap().unwrap();
    assert!(review.waiting && review.score == 25 && review.since == NOW);
    assert!(server::fraud::review_of(&w.db, anna.id).await.unwrap().is_none());

    // Support see him in the list; a moderator does not; allowing needs a reason, once.
    let waiting = server::fraud::reviews(&w.db, &help, w.site.id).await.unwrap();
    assert_eq!(waiting.iter().map(|m| (m.id, m.score)).collect::<Vec<_>>(), [(bram.id, 25)]);
    assert_eq!(server::fraud::reviews(&w.db, &moderator, w.site.id).await.unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(server::fraud::allow_payments(&w.db, &moderator, w.site.id, bram.id, "ok", NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(server::fraud::allow_payments(&w.db, &help, w.site.id, bram.id, " ", NOW).await.unwrap_err().code(), ErrorCode::ReasonRequired);
    assert!(server::fraud::allow_payments(&w.db, &help, w.site.id, bram.id, "gebeld, klopt", NOW + 60).await.unwrap());
    assert!(!server::fraud::allow_payments(&w.db, &help, w.site.id, bram.id, "gebeld, klopt", NOW + 61).await.unwrap(), "a second click");
    assert_eq!(log_count(&w.db, "payments_allowed").await, 1);
    assert!(server::fraud::reviews(&w.db, &help, w.site.id).await.unwrap().is_empty());

    // Allowed for good: he pays, whatever his score.
    p.start_checkout(&site, &bram, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW + 120).await.unwrap();
    assert_eq!(orders(bram.id).await, 2);
    assert!(!server::fraud::review_of(&w.db, bram.id).await.unwrap().unwrap().waiting);
});
