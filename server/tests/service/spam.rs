//! Spam held back, on SQLite and PostgreSQL: a member's alike first messages to many members
//! are held for review once the site's threshold is reached (not delivered, not charged),
//! short greetings and other texts are not, staff release them (charged exactly once, even
//! when two staff release at the same moment) or block the member.

use crate::support;

use domain::ErrorCode;
use server::accounts::Member;
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::Db;
use support::world::{world, World, NOW};

fn cid(n: usize) -> String {
    format!("client-id-{n:06}")
}

fn text(s: &str) -> Content {
    Content::Text(s.to_string())
}

/// A premium member (they may start many conversations) with exactly `credits` and no free messages.
async fn sender(w: &World, email: &str, credits: i64) -> Member {
    let member = w.member(email, "female").await;
    let mut tx = w.db.begin().await.unwrap();
    let reference = format!("adjustment:test:{}", member.id);
    credits::book(&mut tx, Entry { user_id: member.id, delta: credits - member.credits, reason: Reason::Adjustment, reference: &reference }, NOW)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    sqlx::query("UPDATE users SET free_messages_used = 1000 WHERE id = $1").bind(member.id).execute(w.db.pool()).await.unwrap();
    w.make_premium(member.id).await
}

async fn unread(db: &Db, user: i64) -> i64 {
    let (n,): (i64,) =
        sqlx::query_as("SELECT CAST(COALESCE(SUM(unread), 0) AS BIGINT) FROM chat_members WHERE user_id = $1").bind(user).fetch_one(db.pool()).await.unwrap();
    n
}

fn spam(name: &str) -> String {
    format!("Hoi schat, ik ben {name} en ik zoek een leuke man voor vanavond. Kijk op mijn pagina en stuur me een berichtje!")
}

on_both_databases!(alike_first_messages_are_held_then_released_or_blocked, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused"));
    let sam = sender(&w, "sam@example.nl", 1000).await;
    let mut men = Vec::new();
    for i in 0..9 {
        men.push(w.member(&format!("m{i}@example.nl"), "male").await);
    }
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "baas@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let staff = server::staff::Staff::new(db.clone());
    let load = || async { server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap() };

    // Staff set the threshold: three members may get the same first message within an hour.
    let rules =
        |recipients, window_minutes, similarity| server::staff::SiteChange::SpamRules(domain::spam::SpamRules { recipients, window_minutes, similarity });
    let bad = staff.change_site(&boss, w.site.settings.id, rules(3, 60, 20), NOW).await.unwrap_err();
    assert_eq!(bad.code(), ErrorCode::OutOfRange);
    assert_eq!(staff.change_site(&sam, w.site.settings.id, rules(0, 60, 80), NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    staff.change_site(&boss, w.site.settings.id, rules(3, 60, 80), NOW).await.unwrap();
    let site = load().await;
    assert_eq!(site.spam_rules.recipients, 3);
    let price = site.message_credits;

    // Three alike first messages go out and are paid for.
    for (i, name) in ["Lisa", "Lise", "Lies"].into_iter().enumerate() {
        let sent = chat.send(&site, &sam, To::Member(men[i].id), &cid(i), text(&spam(name)), NOW + i as i64).await.unwrap();
        assert!(!sent.message.waiting);
    }
    assert_eq!(w.reload(sam.id).await.credits, 1000 - 3 * price);
    // The fourth and fifth are held: not delivered, not charged; so is what follows in that conversation.
    let held = chat.send(&site, &sam, To::Member(men[3].id), &cid(3), text(&spam("Liza")), NOW + 10).await.unwrap();
    assert!(held.message.waiting && held.balance == 1000 - 3 * price);
    let retry = chat.send(&site, &sam, To::Member(men[3].id), &cid(3), text(&spam("Liza")), NOW + 11).await.unwrap();
    assert!(!retry.new && retry.message.id == held.message.id);
    chat.send(&site, &sam, To::Member(men[3].id), &cid(4), text("Ben je er nog?"), NOW + 12).await.unwrap();
    chat.send(&site, &sam, To::Member(men[4].id), &cid(5), text(&spam("Lisa")), NOW + 13).await.unwrap();
    assert_eq!((unread(&db, men[3].id).await, unread(&db, men[4].id).await), (0, 0), "nothing held reaches them");
    assert!(chat.conversations(men[3].id, NOW).await.unwrap().is_empty());
    assert_eq!(w.reload(sam.id).await.credits, 1000 - 3 * price, "held messages are not charged");
    // Another text, and a short greeting, still go out.
    let other = chat
        .send(&site, &sam, To::Member(men[5].id), &cid(6), text("Wat een mooie foto bij de zee, is dat in Zeeland? Ik ga daar elk jaar heen."), NOW + 14)
        .await
        .unwrap();
    assert!(!other.message.waiting);
    assert!(!chat.send(&site, &sam, To::Member(men[6].id), &cid(7), text("Hoi, hoe gaat het?"), NOW + 15).await.unwrap().message.waiting);
    // A confirmation does not release a message held for review.
    assert_eq!(chat.release_held(sam.id).await.unwrap(), 0);

    // Staff see who and what; members do not.
    assert_eq!(chat.held_for_review(&sam, site.id).await.unwrap_err().code(), ErrorCode::NotFound);
    let list = chat.held_for_review(&boss, site.id).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!((list[0].sender, list[0].held, list[0].recipients), (sam.id, 3, 2));
    assert_eq!(list[0].sample, spam("Liza"));

    // Two staff release at the same moment: each message delivered and charged once.
    let before = w.reload(sam.id).await.credits;
    let (a, b) = tokio::join!(chat.release_review(&boss, &site, sam.id, NOW + 20), chat.release_review(&boss, &site, sam.id, NOW + 20));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.delivered + b.delivered, 3);
    assert_eq!(a.unpaid + b.unpaid, 0);
    assert_eq!(w.reload(sam.id).await.credits, before - 3 * price);
    assert_eq!((unread(&db, men[3].id).await, unread(&db, men[4].id).await), (2, 1));
    let (charges,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE user_id = $1 AND delta < 0").bind(sam.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(charges, 3 + 1 + 1 + 3, "every delivered message charged exactly once");
    assert!(chat.held_for_review(&boss, site.id).await.unwrap().is_empty());
    let (action,): (String,) = sqlx::query_as("SELECT action FROM staff_actions ORDER BY id DESC LIMIT 1").fetch_one(db.pool()).await.unwrap();
    assert_eq!(action, "chat_release");

    // Outside the window the old first messages no longer count.
    let later = NOW + 2 * 3600;
    assert!(!chat.send(&site, &sam, To::Member(men[7].id), &cid(8), text(&spam("Lisa")), later).await.unwrap().message.waiting);
    for (i, name) in ["Lis", "Lisje"].into_iter().enumerate() {
        let extra = w.member(&format!("x{i}@example.nl"), "male").await;
        assert!(!chat.send(&site, &sam, To::Member(extra.id), &cid(20 + i), text(&spam(name)), later + 1).await.unwrap().message.waiting);
    }
    // Held again, and now the credits run out before staff release: the message stays held.
    let sam_now = w.reload(sam.id).await;
    assert!(chat.send(&site, &sam_now, To::Member(men[8].id), &cid(9), text(&spam("Lisa")), later + 2).await.unwrap().message.waiting);
    let mut tx = db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: sam.id, delta: -sam_now.credits, reason: Reason::Adjustment, reference: "adjustment:test:empty" }, later)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let stuck = chat.release_review(&boss, &site, sam.id, later + 3).await.unwrap();
    assert_eq!((stuck.delivered, stuck.unpaid), (0, 1));
    assert_eq!(w.reload(sam.id).await.credits, 0, "never below zero");
    assert_eq!(chat.held_for_review(&boss, site.id).await.unwrap().len(), 1);
    // Staff block her: she leaves the list and the message is never delivered.
    staff.change_member(&boss, site.id, sam.id, server::staff::MemberChange::Block("spam".into()), later + 4).await.unwrap();
    assert!(chat.held_for_review(&boss, site.id).await.unwrap().is_empty());
    assert_eq!(unread(&db, men[8].id).await, 0);
});

on_both_databases!(switched_off_rules_hold_nothing, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused"));
    let sam = sender(&w, "sam@example.nl", 1000).await;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "baas@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let rules = domain::spam::SpamRules { recipients: 0, ..Default::default() };
    server::staff::Staff::new(db.clone()).change_site(&boss, w.site.settings.id, server::staff::SiteChange::SpamRules(rules), NOW).await.unwrap();
    let site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap();
    for i in 0..12 {
        let man = w.member(&format!("m{i}@example.nl"), "male").await;
        assert!(!chat.send(&site, &sam, To::Member(man.id), &cid(i), text(&spam("Lisa")), NOW).await.unwrap().message.waiting);
    }
});
