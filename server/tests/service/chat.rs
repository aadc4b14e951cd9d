//! Chat on SQLite and PostgreSQL: paid sends that are stored and charged exactly once, the
//! conversation rules (free members' starts, blocks, unconfirmed members), read marks and
//! unread counts, ownership of every conversation, the operator console, and the bus.

use crate::support;

use std::time::Duration;

use domain::chat::Gift;
use domain::contact::ContactKind;
use domain::ErrorCode;
use server::accounts::Member;
use server::chat::bus::{Bus, Outgoing};
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::Db;
use support::world::{world, World, NOW};

pub(crate) fn chat(w: &World) -> Chat {
    Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused")).with_media(std::sync::Arc::new(server::media::LocalStore::new(w.media.path())))
}

/// A chat whose bus listens on PostgreSQL when the world runs there.
fn chat_on(w: &World, url: &str) -> Chat {
    Chat::new(w.members.clone(), Bus::start(w.db.clone(), url))
}

/// Sets a member's balance to exactly `credits` through the ledger, and uses up the free messages.
pub(crate) async fn fund(w: &World, id: i64, credits: i64) -> Member {
    let member = w.reload(id).await;
    let mut tx = w.db.begin().await.unwrap();
    let delta = credits - member.credits;
    let reference = format!("adjustment:test:{id}:{credits}");
    credits::book(&mut tx, Entry { user_id: id, delta, reason: Reason::Adjustment, reference: &reference }, NOW).await.unwrap();
    tx.commit().await.unwrap();
    sqlx::query("UPDATE users SET free_messages_used = 1000 WHERE id = $1").bind(id).execute(w.db.pool()).await.unwrap();
    w.reload(id).await
}

/// A small PNG.
pub(crate) fn picture() -> Vec<u8> {
    let img = image::RgbImage::from_fn(40, 30, |x, y| image::Rgb([(x * 5) as u8, (y * 7) as u8, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn text(s: &str) -> Content {
    Content::Text(s.to_string())
}

pub(crate) fn cid(n: usize) -> String {
    format!("client-id-{n:06}")
}

async fn messages_of(db: &Db, sender: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE sender_id = $1").bind(sender).fetch_one(db.pool()).await.unwrap();
    n
}

on_both_databases!(hundred_parallel_sends_with_credits_for_fifty, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let price = w.site.message_credits;
    assert!(price > 0);
    let anna = fund(&w, anna.id, 50 * price).await;
    let mut tasks = Vec::new();
    for i in 0..100 {
        let (chat, site, anna) = (chat.clone(), w.site.clone(), anna.clone());
        tasks.push(tokio::spawn(async move { chat.send(&site, &anna, To::Member(bram.id), &cid(i), text(&format!("bericht {i}")), NOW).await }));
    }
    let (mut sent, mut refused) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            Ok(s) => {
                assert!(s.new);
                sent += 1;
            }
            Err(e) => {
                assert_eq!(e.code(), ErrorCode::InsufficientCredits, "{e:?}");
                refused += 1;
            }
        }
    }
    assert_eq!((sent, refused), (50, 50));
    assert_eq!(messages_of(&db, anna.id).await, 50);
    assert_eq!(credits::balance_and_ledger(&db, anna.id).await.unwrap(), (0, 0));
    let (charged,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE user_id = $1 AND reason = 'spend'").bind(anna.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(charged, 50);
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
    // The recipient's unread count saw every stored message once.
    assert_eq!(w.reload(bram.id).await.counters.unread_messages, 50);
});

on_both_databases!(a_retried_send_is_stored_and_charged_once, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let anna = fund(&w, anna.id, 100).await;
    let first = chat.send(&w.site, &anna, To::Member(bram.id), "retry-me-0001", text("hoi"), NOW).await.unwrap();
    let again = chat.send(&w.site, &anna, To::Member(bram.id), "retry-me-0001", text("hoi"), NOW + 5).await.unwrap();
    assert!(first.new && !again.new);
    assert_eq!(first.message.id, again.message.id);
    // The same id sent in parallel, too.
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (chat, site, anna) = (chat.clone(), w.site.clone(), anna.clone());
        tasks.push(tokio::spawn(async move { chat.send(&site, &anna, To::Member(bram.id), "retry-me-0002", text("nog een"), NOW).await.unwrap() }));
    }
    let mut new = 0;
    for t in tasks {
        new += usize::from(t.await.unwrap().new);
    }
    assert_eq!(new, 1);
    assert_eq!(messages_of(&db, anna.id).await, 2);
    assert_eq!(w.reload(anna.id).await.credits, 100 - 2 * w.site.message_credits);
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
});

on_both_databases!(plain_sends_take_one_call_on_postgres_and_every_other_send_the_statements, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let postgres = db.backend() == server::db::Backend::Postgres;
    let price = w.site.message_credits;
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 3 * price + w.site.gift_credits).await;
    let bram = w.member("bram@example.nl", "male").await;
    let one_calls = |n: u64| if postgres { n } else { 0 };
    // A new conversation: statement by statement.
    let first = chat.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("hoi"), NOW).await.unwrap();
    assert_eq!(chat.sends_in_one_call(), 0);
    // Then plain sends, to the member or the conversation, a gift too.
    let second = chat.send(&w.site, &anna, To::Member(bram.id), &cid(2), text("hoe gaat het?"), NOW + 1).await.unwrap();
    let third = chat.send(&w.site, &anna, To::Conversation(first.message.conversation), &cid(3), text("ben je er?"), NOW + 2).await.unwrap();
    let gift = chat.send(&w.site, &anna, To::Member(bram.id), &cid(4), Content::Gift(Gift::Rose), NOW + 3).await.unwrap();
    assert_eq!(chat.sends_in_one_call(), one_calls(3));
    for (sent, balance) in [(&second, price + w.site.gift_credits), (&third, w.site.gift_credits), (&gift, 0)] {
        assert!(sent.new);
        assert_eq!((sent.balance, sent.message.conversation), (balance, first.message.conversation));
        assert!(sent.message.id > first.message.id);
    }
    // A retry answers the stored message (statement by statement), charged once.
    let again = chat.send(&w.site, &anna, To::Member(bram.id), &cid(2), text("hoe gaat het?"), NOW + 9).await.unwrap();
    assert_eq!((again.new, again.message.id, again.balance), (false, second.message.id, 0));
    // Too few credits, a conversation of someone else's, a block: refused with their own
    // answers, nothing stored or charged.
    let carla = w.member("carla@example.nl", "female").await;
    let bram_carla = chat.send(&w.site, &fund(&w, bram.id, 100).await, To::Member(carla.id), &cid(5), text("hallo"), NOW).await.unwrap();
    let refused = chat.send(&w.site, &anna, To::Conversation(bram_carla.message.conversation), &cid(6), text("ik ook"), NOW).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::NotFound);
    let anna = fund(&w, anna.id, price - 1).await;
    let poor = chat.send(&w.site, &anna, To::Member(bram.id), &cid(7), text("nog eentje"), NOW).await.unwrap_err();
    assert_eq!(poor.code(), ErrorCode::InsufficientCredits);
    let anna = fund(&w, anna.id, 10 * price).await;
    assert_eq!(messages_of(&db, anna.id).await, 4);
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
    assert_eq!(w.reload(bram.id).await.counters.unread_messages, 4);
    // Bram blocks her (the conversation goes): her next send is refused as blocked.
    w.members.block(&w.site, bram.id, anna.id, NOW).await.unwrap();
    let blocked = chat.send(&w.site, &anna, To::Member(bram.id), &cid(8), text("hallo?"), NOW).await.unwrap_err();
    assert_eq!(blocked.code(), ErrorCode::BlockedByMember);
    assert_eq!(chat.sends_in_one_call(), one_calls(3));
    assert_eq!(w.reload(anna.id).await.credits, 10 * price);
});

on_both_databases!(free_messages_then_credits_and_gifts, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let mut tx = db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: anna.id, delta: 1000, reason: Reason::Purchase, reference: "payment:test" }, NOW).await.unwrap();
    tx.commit().await.unwrap();
    let start = w.reload(anna.id).await.credits;
    let free = w.site.free_messages;
    assert!(free > 0, "the seeded site gives new members free messages");
    for i in 0..free as usize {
        chat.send(&w.site, &anna, To::Member(bram.id), &cid(i), text("gratis"), NOW).await.unwrap();
    }
    assert_eq!(w.reload(anna.id).await.credits, start, "free messages cost nothing");
    let paid = chat.send(&w.site, &anna, To::Member(bram.id), &cid(100), text("betaald"), NOW).await.unwrap();
    assert_eq!(paid.balance, start - w.site.message_credits);
    let gift = chat.send(&w.site, &anna, To::Member(bram.id), &cid(101), Content::Gift(Gift::Rose), NOW).await.unwrap();
    assert_eq!(gift.balance, start - w.site.message_credits - w.site.gift_credits);
    assert_eq!(gift.message.gift, Some(Gift::Rose));
    // Bad input changes nothing.
    let long = "x".repeat(w.site.message_length as usize + 1);
    assert_eq!(chat.send(&w.site, &anna, To::Member(bram.id), &cid(102), text(&long), NOW).await.unwrap_err().code(), ErrorCode::MessageTooLong);
    assert_eq!(chat.send(&w.site, &anna, To::Member(bram.id), &cid(103), text("   "), NOW).await.unwrap_err().code(), ErrorCode::MessageEmpty);
    assert_eq!(chat.send(&w.site, &anna, To::Member(bram.id), "bad id", text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::BadRequest);
    assert_eq!(chat.send(&w.site, &anna, To::Member(anna.id), &cid(104), text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    assert_eq!(chat.send(&w.site, &anna, To::Member(999_999), &cid(105), text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    // A gift the site does not offer (staff chose the gifts) is refused and costs nothing.
    let mut roses_only = w.site.clone();
    roses_only.settings.gifts = vec![Gift::Rose];
    assert_eq!(
        chat.send(&roses_only, &anna, To::Member(bram.id), &cid(106), Content::Gift(Gift::Kiss), NOW).await.unwrap_err().code(),
        ErrorCode::ChoiceInvalid
    );
    chat.send(&roses_only, &anna, To::Member(bram.id), &cid(107), Content::Gift(Gift::Rose), NOW).await.unwrap();
    assert_eq!(messages_of(&db, anna.id).await, free + 3);
    assert_eq!(w.reload(anna.id).await.credits, start - w.site.message_credits - 2 * w.site.gift_credits);
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
});

on_both_databases!(free_members_start_two_conversations, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let anna = fund(&w, anna.id, 1000).await;
    let mut others = Vec::new();
    for i in 0..4 {
        others.push(w.member(&format!("m{i}@example.nl"), "male").await);
    }
    chat.send(&w.site, &anna, To::Member(others[0].id), &cid(1), text("hoi"), NOW).await.unwrap();
    chat.send(&w.site, &anna, To::Member(others[1].id), &cid(2), text("hoi"), NOW).await.unwrap();
    let third = chat.send(&w.site, &anna, To::Member(others[2].id), &cid(3), text("hoi"), NOW).await.unwrap_err();
    assert_eq!(third.code(), ErrorCode::PremiumOnly);
    // Writing on in a started conversation is fine, and so is answering one someone else started.
    chat.send(&w.site, &anna, To::Member(others[0].id), &cid(4), text("nog eens"), NOW).await.unwrap();
    let m3 = fund(&w, others[3].id, 100).await;
    chat.send(&w.site, &m3, To::Member(anna.id), &cid(5), text("hallo anna"), NOW).await.unwrap();
    chat.send(&w.site, &anna, To::Member(m3.id), &cid(6), text("hallo terug"), NOW).await.unwrap();
    // Deleting a conversation does not give the start back.
    let list = chat.conversations(anna.id, NOW).await.unwrap();
    chat.delete(anna.id, list.iter().find(|c| c.peer.id == others[1].id).unwrap().id).await.unwrap();
    assert_eq!(chat.send(&w.site, &anna, To::Member(others[2].id), &cid(7), text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::PremiumOnly);
    let anna = w.make_premium(anna.id).await;
    chat.send(&w.site, &anna, To::Member(others[2].id), &cid(8), text("hoi"), NOW).await.unwrap();
});

on_both_databases!(reading_unread_and_deleting, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    let mut last = 0;
    for i in 0..3 {
        last = chat.send(&w.site, &anna, To::Member(bram.id), &cid(i), text(&format!("{i}")), NOW + i as i64).await.unwrap().message.id;
    }
    let list = chat.conversations(bram.id, NOW).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].unread, 3);
    assert_eq!(list[0].peer.id, anna.id);
    assert_eq!(list[0].last.as_ref().unwrap().body, "2");
    let conversation = list[0].id;
    let thread = chat.thread(bram.id, conversation, NOW).await.unwrap();
    assert_eq!(thread.messages.iter().map(|m| m.body.as_str()).collect::<Vec<_>>(), ["0", "1", "2"]);
    assert_eq!(thread.unread, 3);
    assert_eq!(w.reload(bram.id).await.counters.unread_messages, 3);
    chat.mark_read(bram.id, conversation, last).await.unwrap();
    assert_eq!(w.reload(bram.id).await.counters.unread_messages, 0);
    // Anna sees her messages read.
    let hers = chat.thread(anna.id, conversation, NOW).await.unwrap();
    assert_eq!(hers.read_up_to, last);
    assert!(hers.delivered_up_to >= last);
    // Reading past the end is read up to the end; a mark never goes back.
    chat.mark_read(bram.id, conversation, i64::MAX).await.unwrap();
    chat.mark_read(bram.id, conversation, 1).await.unwrap();
    assert_eq!(chat.thread(anna.id, conversation, NOW).await.unwrap().read_up_to, last);
    // Bram deletes it: gone from his list, not from Anna's; a new message brings it back.
    chat.delete(bram.id, conversation).await.unwrap();
    assert!(chat.conversations(bram.id, NOW).await.unwrap().is_empty());
    assert_eq!(chat.conversations(anna.id, NOW).await.unwrap().len(), 1);
    assert!(chat.thread(bram.id, conversation, NOW).await.unwrap().messages.is_empty(), "deleted messages stay gone for him");
    chat.send(&w.site, &anna, To::Conversation(conversation), &cid(9), text("ben je er nog?"), NOW).await.unwrap();
    let back = chat.conversations(bram.id, NOW).await.unwrap();
    assert_eq!((back.len(), back[0].unread), (1, 1));
    assert_eq!(chat.thread(bram.id, conversation, NOW).await.unwrap().messages.len(), 1);
});

on_both_databases!(older_messages_page_by_page, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 10_000).await;
    let bram = w.member("bram@example.nl", "male").await;
    for i in 0..120 {
        chat.send(&w.site, &anna, To::Member(bram.id), &cid(i), text(&format!("{i}")), NOW).await.unwrap();
    }
    let conversation = chat.conversations(bram.id, NOW).await.unwrap()[0].id;
    let first = chat.thread(bram.id, conversation, NOW).await.unwrap();
    assert_eq!(first.messages.len(), 50);
    assert!(first.has_older);
    assert_eq!(first.messages.last().unwrap().body, "119");
    let (older, more) = chat.page(bram.id, conversation, Some(first.messages[0].id)).await.unwrap();
    assert_eq!((older.len(), more, older[0].body.as_str(), older[49].body.as_str()), (50, true, "20", "69"));
    let (oldest, more) = chat.page(bram.id, conversation, Some(older[0].id)).await.unwrap();
    assert_eq!((oldest.len(), more), (20, false));
});

on_both_databases!(a_third_member_cannot_touch_the_conversation, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    let carl = fund(&w, w.member("carl@example.nl", "male").await.id, 1000).await;
    let sent = chat.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("privé"), NOW).await.unwrap();
    let png = picture();
    let photo =
        chat.send_photo(&w.site, &anna, To::Member(bram.id), &cid(2), png, &server::members::photo_decode::PhotoDecoder::new(5_000_000, 2), NOW).await.unwrap();
    let conversation = sent.message.conversation;
    let not_found = |r: Result<_, server::AppError>| r.err().map(|e| e.code());
    assert_eq!(not_found(chat.thread(carl.id, conversation, NOW).await.map(|_| ())), Some(ErrorCode::NotFound));
    assert_eq!(not_found(chat.page(carl.id, conversation, None).await.map(|_| ())), Some(ErrorCode::NotFound));
    assert_eq!(not_found(chat.send(&w.site, &carl, To::Conversation(conversation), &cid(3), text("ik ook"), NOW).await.map(|_| ())), Some(ErrorCode::NotFound));
    assert_eq!(not_found(chat.mark_read(carl.id, conversation, sent.message.id).await.map(|_| ())), Some(ErrorCode::NotFound));
    assert_eq!(not_found(chat.delete(carl.id, conversation).await), Some(ErrorCode::NotFound));
    assert_eq!(not_found(chat.typing(carl.id, conversation).await), Some(ErrorCode::NotFound));
    assert_eq!(chat.photo(carl.id, photo.message.id).await.unwrap(), None);
    // The two members see the photo; it was re-encoded.
    let (bytes, _) = chat.photo(bram.id, photo.message.id).await.unwrap().expect("the recipient sees it");
    assert_eq!(&bytes[..2], &[0xFF, 0xD8], "stored as JPEG");
    assert!(chat.photo(anna.id, photo.message.id).await.unwrap().is_some());
    // Carl's socket hears nothing of it.
    let bus = chat.bus().clone();
    let mut carls = bus.subscribe(carl.id);
    chat.send(&w.site, &anna, To::Conversation(conversation), &cid(4), text("nog een"), NOW).await.unwrap();
    // (A resync request is all a socket may get: it reads its own member's messages again.)
    while let Ok(Some(out)) = tokio::time::timeout(Duration::from_millis(300), carls.rx.recv()).await {
        assert!(matches!(out, Outgoing::Resync), "Carl got {out:?}");
    }
    assert_eq!(messages_of(&db, carl.id).await, 0);
});

on_both_databases!(blocking_removes_the_conversation_both_ways, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = fund(&w, w.member("bram@example.nl", "male").await.id, 1000).await;
    let sent = chat.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("hoi"), NOW).await.unwrap();
    let removed = w.members.block(&w.site, bram.id, anna.id, NOW).await.unwrap();
    assert_eq!(removed, Some(sent.message.conversation));
    assert!(chat.conversations(anna.id, NOW).await.unwrap().is_empty());
    assert!(chat.conversations(bram.id, NOW).await.unwrap().is_empty());
    assert_eq!(chat.send(&w.site, &anna, To::Member(bram.id), &cid(2), text("hallo?"), NOW).await.unwrap_err().code(), ErrorCode::BlockedByMember);
    assert!(chat.thread_with(anna.id, bram.id, NOW).await.unwrap().unwrap().blocked);
    // The blocker cannot write to the one they blocked either (unblock first).
    assert_eq!(chat.send(&w.site, &bram, To::Member(anna.id), &cid(3), text("hoi"), NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    // The paid message stays explained by the ledger.
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
});

on_both_databases!(messages_wait_for_an_unconfirmed_member, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    sqlx::query("UPDATE users SET status = 'not_confirmed' WHERE id = $1").bind(bram.id).execute(db.pool()).await.unwrap();
    let sent = chat.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("hoi"), NOW).await.unwrap();
    assert!(sent.message.waiting);
    assert!(chat.thread_with(anna.id, bram.id, NOW).await.unwrap().unwrap().peer_unconfirmed);
    assert!(chat.conversations(bram.id, NOW).await.unwrap().is_empty(), "nothing reaches him yet");
    assert_eq!(w.reload(bram.id).await.counters.unread_messages, 0);
    // He confirms: the message arrives.
    sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(bram.id).execute(db.pool()).await.unwrap();
    assert_eq!(chat.release_held(bram.id).await.unwrap(), 1);
    let list = chat.conversations(bram.id, NOW).await.unwrap();
    assert_eq!((list.len(), list[0].unread), (1, 1));
    assert!(!chat.thread(bram.id, list[0].id, NOW).await.unwrap().messages[0].held);
    assert_eq!(chat.release_held(bram.id).await.unwrap(), 0);
});

on_both_databases!(operators_answer_as_fictional_profiles_only, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    server::members::demo::seed_demo_members(&db, None, 3, NOW).await.unwrap();
    let (fictional,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE fictional = $1 ORDER BY id LIMIT 1").bind(true).fetch_one(db.pool()).await.unwrap();
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    let to_profile = chat.send(&w.site, &anna, To::Member(fictional), &cid(1), text("hoi schat"), NOW).await.unwrap();
    chat.send(&w.site, &anna, To::Member(bram.id), &cid(2), text("hoi bram"), NOW).await.unwrap();
    let op = w.member("op@example.nl", "female").await;
    assert_eq!(chat.operator_threads(&op, w.site.id, NOW).await.unwrap_err().code(), ErrorCode::NotFound, "to a member the console does not exist");
    assert_eq!(support::grant_staff(&w.db, &w.accounts, "op@example.nl", domain::staff::StaffRole::Operator).await, 1);
    let op = w.reload(op.id).await;
    let threads = chat.operator_threads(&op, w.site.id, NOW).await.unwrap();
    assert_eq!(threads.len(), 1, "only the conversation with the fictional profile");
    assert_eq!((threads[0].profile.id, threads[0].member.id, threads[0].waiting), (fictional, anna.id, 1));
    let answer = chat.operator_send(&w.site, &op, to_profile.message.conversation, &cid(3), "hoi terug!", NOW).await.unwrap();
    assert_eq!(answer.message.body, "hoi terug!");
    let anna_sees = chat.thread(anna.id, to_profile.message.conversation, NOW).await.unwrap();
    assert_eq!(anna_sees.messages.last().unwrap().body, "hoi terug!");
    assert!(anna_sees.peer.fictional);
    assert_eq!(chat.operator_threads(&op, w.site.id, NOW).await.unwrap()[0].waiting, 0);
    // Not into a real member's conversation.
    let real = chat.conversations(bram.id, NOW).await.unwrap()[0].id;
    assert_eq!(chat.operator_send(&w.site, &op, real, &cid(4), "stiekem", NOW).await.unwrap_err().code(), ErrorCode::NotFound);
});

on_both_databases!(the_bus_pushes_to_both_sides, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    // Only SQLite dispatches in-process; PostgreSQL is covered by the two-bus test below.
    if db.backend() != server::db::Backend::Sqlite {
        return;
    }
    let mut brams = chat.bus().subscribe(bram.id);
    let mut annas = chat.bus().subscribe(anna.id);
    let sent = chat.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("live"), NOW).await.unwrap();
    let got = tokio::time::timeout(Duration::from_secs(2), brams.rx.recv()).await.unwrap().unwrap();
    match got {
        Outgoing::Message(row) => assert_eq!((row.id, row.view(bram.id).mine), (sent.message.id, false)),
        other => panic!("expected the message, got {other:?}"),
    }
    // Anna's own tab hears her message, then "delivered" once Bram's socket took it.
    let mut saw_delivered = false;
    for _ in 0..3 {
        if let Ok(Some(Outgoing::Json(json))) = tokio::time::timeout(Duration::from_secs(2), annas.rx.recv()).await {
            saw_delivered |= json.contains("\"delivered\"");
        }
    }
    assert!(saw_delivered);
});

/// The next JSON push on a socket that contains `what`.
async fn push_with(rx: &mut tokio::sync::mpsc::Receiver<Outgoing>, what: &str) -> String {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(Outgoing::Json(json)) = rx.recv().await {
                if json.contains(what) {
                    return json.to_string();
                }
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {what} push"))
}

#[tokio::test]
async fn postgres_fan_out_reaches_another_node() {
    let cluster = support::PgCluster::start();
    let db_a = cluster.db().await;
    let db_b = cluster.db().await;
    let w = world(db_a.clone()).await;
    let node_a = chat_on(&w, &cluster.url);
    let node_b = Bus::start(db_b.clone(), &cluster.url);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    let mut on_b = node_b.subscribe(bram.id);
    let mut on_a = node_a.bus().subscribe(anna.id);
    // Node B hears the others once its LISTEN is in place.
    tokio::time::timeout(Duration::from_secs(10), async { tokio::join!(node_a.bus().listening(), node_b.listening()) }).await.expect("both nodes listen");
    let sent = node_a.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("over de brug"), NOW).await.unwrap();
    let heard = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match on_b.rx.recv().await {
                Some(Outgoing::Message(row)) => return row.id,
                Some(_) => continue,
                None => return 0,
            }
        }
    })
    .await
    .expect("node B heard it");
    assert_eq!(heard, sent.message.id);
    // Bram's socket took it: Anna's tick on node A turns to delivered, and Bram hears his unread total.
    let delivered = push_with(&mut on_a.rx, "\"delivered\"").await;
    assert!(delivered.contains(&format!("{}", sent.message.id)), "{delivered}");
    let unread = push_with(&mut on_b.rx, "\"unread\"").await;
    assert!(unread.contains('1'), "{unread}");
    // The next one goes in one call; its signal carries the row, whatever its text holds.
    let body = "ja, graag; morgen? M,1,2 <b>om 8</b>\nof later";
    let second = node_a.send(&w.site, &anna, To::Conversation(sent.message.conversation), &cid(3), text(body), NOW + 1).await.unwrap();
    assert_eq!(node_a.sends_in_one_call(), 1);
    let row = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(Outgoing::Message(row)) = on_b.rx.recv().await {
                return row;
            }
        }
    })
    .await
    .expect("node B heard the second");
    assert_eq!(
        (row.id, row.sender_id, row.recipient_id, row.body.as_str(), row.held, row.created_at),
        (second.message.id, anna.id, bram.id, body, false, NOW + 1)
    );
    assert_eq!(row.conversation_id, sent.message.conversation);
    // A message to a fictional profile changes the operators' queue, on every node: the
    // first (statement by statement) and the next (in one call).
    let mut queue_b = node_b.queue_changes();
    let carla = w.member("carla@example.nl", "female").await;
    sqlx::query("UPDATE users SET fictional = $1 WHERE id = $2").bind(true).bind(carla.id).execute(db_a.pool()).await.unwrap();
    for n in [2, 4] {
        node_a.send(&w.site, &anna, To::Member(carla.id), &cid(n), text("ben je er?"), NOW).await.unwrap();
        let site = tokio::time::timeout(Duration::from_secs(5), queue_b.recv()).await.expect("node B heard the queue change").unwrap();
        assert_eq!(site, w.site.id);
    }
    assert_eq!(node_a.sends_in_one_call(), 2);
    db_a.close().await;
    db_b.close().await;
}

/// New-message mails to `email` in the outbox (links to a conversation).
fn message_mails(w: &World, email: &str) -> usize {
    std::fs::read_dir(w.mail.path())
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
        .map(|m| m.replace("=\r\n", "").replace("=3D", "="))
        .filter(|m| m.contains(&format!("To: {email}")) && m.contains("/chats/"))
        .count()
}

async fn wait_for_mails(w: &World, chat: &Chat, email: &str) -> usize {
    chat.background_done().await;
    message_mails(w, email)
}

on_both_databases!(a_new_message_mails_once_until_it_is_read, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w).with_mail(w.accounts.clone(), "http://vonk.test".into());
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    let first = chat.send(&w.site, &anna, To::Member(bram.id), &cid(1), text("hoi"), NOW).await.unwrap();
    assert_eq!(wait_for_mails(&w, &chat, "bram@example.nl").await, 1);
    // More while the first is unread: no more mails.
    chat.send(&w.site, &anna, To::Member(bram.id), &cid(2), text("nog een"), NOW).await.unwrap();
    chat.background_done().await;
    assert_eq!(message_mails(&w, "bram@example.nl"), 1);
    // He reads; the next message mails again.
    chat.mark_read(bram.id, first.message.conversation, i64::MAX).await.unwrap();
    chat.send(&w.site, &anna, To::Member(bram.id), &cid(3), text("en nu?"), NOW).await.unwrap();
    assert_eq!(wait_for_mails(&w, &chat, "bram@example.nl").await, 2);
    // Not when the preference says no.
    sqlx::query("UPDATE users SET notify_messages = $1 WHERE id = $2").bind(false).bind(bram.id).execute(db.pool()).await.unwrap();
    chat.mark_read(bram.id, first.message.conversation, i64::MAX).await.unwrap();
    chat.send(&w.site, &anna, To::Member(bram.id), &cid(4), text("hallo?"), NOW).await.unwrap();
    chat.background_done().await;
    assert_eq!(message_mails(&w, "bram@example.nl"), 2);
});

on_both_databases!(contact_details_are_masked_or_refused_as_staff_set, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let anna = fund(&w, anna.id, 100).await;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "baas@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let load = || async { server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap() };

    // A new site masks every kind: stored and delivered as •••, the sender told, charged once.
    let site = load().await;
    let sent = chat.send(&site, &anna, To::Member(bram.id), &cid(1), text("Bel me: nul zes 12 34 56 78 of anna at gmail dot com"), NOW).await.unwrap();
    assert_eq!(sent.message.body, "Bel me: ••• of •••");
    assert_eq!(sent.masked, [ContactKind::Phone, ContactKind::Email]);
    let (stored,): (String,) = sqlx::query_as("SELECT body FROM messages WHERE id = $1").bind(sent.message.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(stored, "Bel me: ••• of •••", "the recipient never gets the number");
    assert_eq!(sent.balance, 100 - site.message_credits);
    let again = chat.send(&site, &anna, To::Member(bram.id), &cid(1), text("Bel me: nul zes 12 34 56 78 of anna at gmail dot com"), NOW).await.unwrap();
    assert!(!again.new && again.balance == sent.balance);

    // Staff refuse phone numbers and allow web addresses.
    let staff = server::staff::Staff::new(db.clone());
    let rules = |pairs: &[(&str, &str)]| server::staff::SiteChange::ContactRules(pairs.iter().map(|(k, r)| (k.to_string(), r.to_string())).collect());
    staff.change_site(&boss, site.settings.id, rules(&[("phone", "refuse"), ("email", "mask"), ("web", "allow"), ("messenger", "mask")]), NOW).await.unwrap();
    let bad = staff.change_site(&boss, site.settings.id, rules(&[("phone", "shout")]), NOW).await.unwrap_err();
    assert_eq!(bad.code(), ErrorCode::ChoiceInvalid);
    assert_eq!(
        staff
            .change_site(&anna, site.settings.id, rules(&[("phone", "allow"), ("email", "allow"), ("web", "allow"), ("messenger", "allow")]), NOW)
            .await
            .unwrap_err()
            .code(),
        ErrorCode::NotFound
    );
    let site = load().await;
    assert_eq!(site.contact_rules.phone, domain::contact::ContactRule::Refuse);
    let refused = chat.send(&site, &anna, To::Member(bram.id), &cid(2), text("app me 06-1234 5678"), NOW).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::ContactDetailsRefused);
    assert_eq!(messages_of(&db, anna.id).await, 1, "a refused message is not stored");
    assert_eq!(w.reload(anna.id).await.credits, sent.balance, "nor charged");
    let web = chat.send(&site, &anna, To::Member(bram.id), &cid(3), text("kijk op www.example.com"), NOW).await.unwrap();
    assert!(web.masked.is_empty() && web.message.body == "kijk op www.example.com");
    // The change is in the staff log.
    let (action,): (String,) = sqlx::query_as("SELECT action FROM staff_actions ORDER BY id DESC LIMIT 1").fetch_one(db.pool()).await.unwrap();
    assert_eq!(action, "site_contact_rules");
});

on_both_databases!(contact_details_held_for_review_and_a_sender_who_keeps_trying_is_warned_then_held, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let cleo = w.member("cleo@example.nl", "female").await;
    let anna = fund(&w, anna.id, 100).await;
    let cleo = fund(&w, cleo.id, 100).await;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "baas@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let staff = server::staff::Staff::new(db.clone());
    let rules = |pairs: &[(&str, &str)]| server::staff::SiteChange::ContactRules(pairs.iter().map(|(k, r)| (k.to_string(), r.to_string())).collect());
    let site_id = w.site.settings.id;
    staff.change_site(&boss, site_id, rules(&[("phone", "mask"), ("email", "hold"), ("web", "allow"), ("messenger", "refuse")]), NOW).await.unwrap();
    let site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap();

    // An address the site holds: stored as written, not delivered, not charged; staff see it.
    let held = chat.send(&site, &cleo, To::Member(bram.id), &cid(1), text("mail me: cleo.b@gmail.com"), NOW).await.unwrap();
    assert_eq!((held.held.as_slice(), held.warned, held.message.body.as_str()), ([ContactKind::Email].as_slice(), false, "mail me: cleo.b@gmail.com"));
    assert_eq!(held.balance, 100, "paid for only when staff release it");
    let (review,): (i64,) =
        sqlx::query_as("SELECT CASE WHEN review THEN 1 ELSE 0 END FROM messages WHERE id = $1").bind(held.message.id).fetch_one(db.pool()).await.unwrap();
    assert!(review == 1 && w.reload(bram.id).await.counters.unread_messages == 0);
    let queue = chat.held_for_review(&boss, site_id).await.unwrap();
    assert!(queue.iter().any(|h| h.sender == cleo.id && h.sample.contains("cleo.b@gmail.com")), "staff read the held message");

    // Anna keeps trying: masked, refused, then warned (masked with the warning; a refusal says
    // what comes next), then held whatever the rule; ordinary talk goes through all along.
    let first = chat.send(&site, &anna, To::Member(bram.id), &cid(10), text("bel 06 1234 5678"), NOW).await.unwrap();
    assert!(first.masked == [ContactKind::Phone] && !first.warned);
    let refused = chat.send(&site, &anna, To::Member(bram.id), &cid(11), text("snap: anna_1990"), NOW + 1).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::ContactDetailsRefused);
    let warned = chat.send(&site, &anna, To::Member(bram.id), &cid(12), text("nul zes 12 34 56 78"), NOW + 2).await.unwrap();
    assert!(warned.masked == [ContactKind::Phone] && warned.warned && warned.held.is_empty());
    let repeated = chat.send(&site, &anna, To::Member(bram.id), &cid(13), text("insta: anna_1990"), NOW + 3).await.unwrap_err();
    assert_eq!(repeated.code(), ErrorCode::ContactDetailsRepeated);
    let plain = chat.send(&site, &anna, To::Member(bram.id), &cid(14), text("zin in koffie morgen?"), NOW + 4).await.unwrap();
    assert!(plain.masked.is_empty() && plain.held.is_empty() && !plain.warned);
    let now_held = chat.send(&site, &anna, To::Member(cleo.id), &cid(15), text("bel me op 0612345678"), NOW + 5).await.unwrap();
    assert_eq!((now_held.held.as_slice(), now_held.message.body.as_str(), now_held.warned), ([ContactKind::Phone].as_slice(), "bel me op 0612345678", true));
    // A retried send is one try, and its answer the first one's.
    let retried = chat.send(&site, &anna, To::Member(cleo.id), &cid(15), text("bel me op 0612345678"), NOW + 6).await.unwrap();
    assert!(!retried.new && retried.message.id == now_held.message.id);
    // A day later the slate is clean.
    let later = chat.send(&site, &anna, To::Member(bram.id), &cid(16), text("bel 06 1234 5678"), NOW + 86_400 + 10).await.unwrap();
    assert!(later.masked == [ContactKind::Phone] && later.held.is_empty() && !later.warned);

    // Staff's weekly figures: per kind, masked, held and refused messages (tries, not retries).
    assert_eq!(chat.contact_weeks(&anna, site_id, NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    let weeks = chat.contact_weeks(&boss, site_id, NOW + 86_400 + 20).await.unwrap();
    let total = |kind: &str, f: fn(&server::chat::contact::ContactWeek) -> i64| weeks.iter().filter(|w| w.kind == kind).map(f).sum::<i64>();
    assert_eq!((total("phone", |w| w.masked), total("phone", |w| w.held)), (3, 1), "{weeks:?}");
    assert_eq!((total("email", |w| w.held), total("messenger", |w| w.refused)), (1, 2), "{weeks:?}");
    assert!(weeks.iter().all(|w| w.week.len() == 10), "{weeks:?}");
});

on_both_databases!(the_operator_queue_claims_notes_and_figures, |db: Db| async move {
    let w = world(db.clone()).await;
    let chat = chat(&w);
    server::members::demo::seed_demo_members(&db, None, 4, NOW).await.unwrap();
    let profiles: Vec<i64> = sqlx::query_scalar("SELECT id FROM users WHERE fictional = $1 ORDER BY id LIMIT 3").bind(true).fetch_all(db.pool()).await.unwrap();
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = fund(&w, w.member("bram@example.nl", "male").await.id, 1000).await;
    // Three conversations: Bram waits since NOW, Anna since NOW + 60, and one Anna had answered.
    let answered = chat.send(&w.site, &anna, To::Member(profiles[2]), &cid(1), text("eerste"), NOW - 600).await.unwrap().message.conversation;
    let newer = chat.send(&w.site, &anna, To::Member(profiles[0]), &cid(2), text("hoi"), NOW + 60).await.unwrap().message.conversation;
    let older = chat.send(&w.site, &bram, To::Member(profiles[1]), &cid(3), text("hallo"), NOW).await.unwrap().message.conversation;
    chat.send(&w.site, &bram, To::Conversation(older), &cid(4), text("ben je er?"), NOW + 120).await.unwrap();
    let mut ops = Vec::new();
    for i in 0..6 {
        let email = format!("op{i}@example.nl");
        let op = w.member(&email, "female").await;
        support::grant_staff(&w.db, &w.accounts, &email, domain::staff::StaffRole::Operator).await;
        ops.push(w.reload(op.id).await);
    }
    let (olga, piet) = (&ops[0], &ops[1]);
    chat.operator_send(&w.site, olga, answered, &cid(5), "hoi!", NOW - 500).await.unwrap();
    chat.release(olga, answered).await.unwrap();

    // The queue: waiting first, the longest wait first, then the rest.
    let queue = chat.operator_threads(piet, w.site.id, NOW + 130).await.unwrap();
    let order: Vec<(i64, i64, Option<i64>)> = queue.iter().map(|t| (t.id, t.waiting, t.waiting_since)).collect();
    assert_eq!(order, [(older, 2, Some(NOW)), (newer, 1, Some(NOW + 60)), (answered, 0, None)]);
    assert!(queue.iter().all(|t| t.claimed_by.is_none()));

    // Six operators open the oldest at once: one holds it.
    let mut opens = tokio::task::JoinSet::new();
    for op in ops.clone() {
        let chat = chat.clone();
        opens.spawn(async move { (op.id, chat.claim(&op, 1, older, NOW + 130).await.unwrap()) });
    }
    let mut winners = Vec::new();
    while let Some(done) = opens.join_next().await {
        let (id, claim) = done.unwrap();
        match claim {
            server::chat::Claim::Mine { until } => {
                assert_eq!(until, NOW + 130 + domain::chat::OPERATOR_CLAIM_SECS);
                winners.push(id);
            }
            server::chat::Claim::Taken { by, .. } => assert_eq!(by, "Anna", "the holder's name"),
        }
    }
    assert_eq!(winners.len(), 1, "{winners:?}");
    let holder = ops.iter().find(|o| o.id == winners[0]).unwrap().clone();
    let other = ops.iter().find(|o| o.id != holder.id).unwrap().clone();
    assert_eq!(chat.operator_threads(&other, w.site.id, NOW + 131).await.unwrap()[0].claimed_by.as_ref().map(|c| c.0), Some(holder.id));
    // The other cannot send in it; the holder can, which renews the claim.
    let refused = chat.operator_send(&w.site, &other, older, &cid(6), "ik ook", NOW + 140).await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::ClaimedByOther);
    chat.operator_send(&w.site, &holder, older, &cid(7), "hoi Bram!", NOW + 200).await.unwrap();
    assert!(matches!(chat.claim(&other, 1, older, NOW + 200 + domain::chat::OPERATOR_CLAIM_SECS - 1).await.unwrap(), server::chat::Claim::Taken { .. }));
    // Idle past the claim's time: it lapses and another operator takes it.
    assert!(matches!(chat.claim(&other, 1, older, NOW + 200 + domain::chat::OPERATOR_CLAIM_SECS).await.unwrap(), server::chat::Claim::Mine { .. }));
    assert_eq!(chat.operator_send(&w.site, &holder, older, &cid(8), "nog iets", NOW + 330).await.unwrap_err().code(), ErrorCode::ClaimedByOther);
    // A member cannot claim, and a real members' conversation cannot be claimed.
    assert_eq!(chat.claim(&anna, 1, older, NOW).await.unwrap_err().code(), ErrorCode::NotFound);
    let anna = w.make_premium(anna.id).await;
    let real = chat.send(&w.site, &anna, To::Member(bram.id), &cid(9), text("hoi bram"), NOW).await.unwrap().message.conversation;
    assert_eq!(chat.claim(&other, 1, real, NOW).await.unwrap_err().code(), ErrorCode::NotFound);

    // Notes are shared between operators, per member and profile; empty removes.
    assert_eq!(chat.operator_note(&other, 1, older).await.unwrap(), "");
    chat.save_operator_note(&holder, 1, older, "  Verteld: woont in Zwolle, werkt bij een bakker. ", NOW).await.unwrap();
    assert_eq!(chat.operator_note(&other, 1, older).await.unwrap(), "Verteld: woont in Zwolle, werkt bij een bakker.");
    assert_eq!(chat.operator_note(&other, 1, newer).await.unwrap(), "", "another member and profile");
    let long = "x".repeat(domain::chat::OPERATOR_NOTE_CHARS + 1);
    assert_eq!(chat.save_operator_note(&other, 1, older, &long, NOW).await.unwrap_err().code(), ErrorCode::MessageTooLong);
    chat.save_operator_note(&other, 1, older, "", NOW).await.unwrap();
    assert_eq!(chat.operator_note(&holder, 1, older).await.unwrap(), "");

    // What the member bought and spent (fund() booked adjustments, not purchases).
    let figures = chat.member_figures(&holder, 1, older).await.unwrap();
    assert_eq!((figures.bought, figures.payments), (0, 0));
    assert_eq!(figures.spent, 2 * w.site.message_credits);

    // Staff's figures: the two answers, by the two operators, and what still waits.
    assert_eq!(chat.operator_figures(&holder, 1, NOW - 3600).await.unwrap_err().code(), ErrorCode::NotFound, "operators are not staff");
    support::grant_staff(&w.db, &w.accounts, "op0@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(ops[0].id).await;
    let f = chat.operator_figures(&boss, 1, NOW - 3600).await.unwrap();
    assert_eq!(f.days.iter().map(|d| d.answers).sum::<i64>(), 2);
    let held = f.days.iter().find(|d| d.operator == holder.id).unwrap();
    // Bram waited from NOW to NOW + 200; Olga (ops[0]) also answered the first conversation after 100 s.
    assert_eq!(held.p90_secs, Some(200));
    assert_eq!(held.median_secs, Some(if holder.id == ops[0].id { 100 } else { 200 }));
    assert_eq!((f.waiting_now, f.oldest_waiting_since), (1, Some(NOW + 60)), "only Anna's newer conversation waits; the real one does not count");
});
