//! The chat-photo queue on SQLite and PostgreSQL: the site's share picks which members' photos
//! wait, shown to the recipient meanwhile or not; a photo the classifier flags always waits,
//! hidden; staff approve, reject (the recipient no longer sees it, its sender is told) or reject
//! and block, one or many, each decision once with one staff-log line; only staff of the site
//! with the role see the queue and a waiting photo's bytes; the photo is paid for once. The
//! same classifier puts known profile photos first in theirs.

use crate::chat::{chat, cid, fund, picture};
use crate::support;

use domain::account::UserStatus;
use domain::moderation::{Decision, PhotoReview, Reason, Verdict};
use domain::staff::StaffRole;
use domain::ErrorCode;
use server::chat::{Chat, To};
use server::members::photo_decode::PhotoDecoder;
use server::moderation::PhotoClassifier;
use server::sites::Site;
use server::Db;
use support::world::{world, World, NOW};

async fn log_count(db: &Db, action: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = $1").bind(action).fetch_one(db.pool()).await.unwrap();
    n
}

async fn spent(db: &Db, user: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT CAST(COALESCE(SUM(-delta), 0) AS BIGINT) FROM credit_ledger WHERE user_id = $1 AND delta < 0")
        .bind(user)
        .fetch_one(db.pool())
        .await
        .unwrap();
    n
}

/// The site with its chat-photo settings changed (as the settings form stores them).
fn site_with(w: &World, percent: i64, hide: bool) -> Site {
    let mut site = w.site.clone();
    site.settings.chat_photo_review_percent = percent;
    site.settings.chat_photo_hide_waiting = hide;
    site
}

/// The message as `viewer` finds it in the conversation.
async fn seen(chat: &Chat, viewer: i64, conversation: i64, id: i64) -> domain::widgets::ChatMessage {
    let (rows, _) = chat.page(viewer, conversation, None).await.unwrap();
    rows.into_iter().find(|m| m.id == id).expect("in the conversation").view(viewer)
}

on_both_databases!(chat_photos_wait_for_staff_as_the_site_says_and_decisions_reconcile, |db: Db| async move {
    let w = world(db).await;
    let chat = chat(&w);
    let decoder = PhotoDecoder::new(5_000_000, 2);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = fund(&w, w.member("bram@example.nl", "male").await.id, 1000).await;
    let carl = fund(&w, w.member("carl@example.nl", "male").await.id, 1000).await;
    let moderator = w.staff("mod@example.nl", StaffRole::Moderator).await;
    let support = w.staff("help@example.nl", StaffRole::Support).await;

    // Off (the default): a photo goes out unreviewed and the queue stays empty.
    let free = chat.send_photo(&w.site, &anna, To::Member(bram.id), &cid(1), picture(), &decoder, NOW).await.unwrap();
    assert_eq!(free.message.photo_review, None);
    assert!(chat.photo_queue(&moderator, w.site.id).await.unwrap().is_empty());
    let conversation = free.message.conversation;

    // All, hidden while waiting: Bram sees that a photo is checked first, not the photo.
    let hidden_site = site_with(&w, 100, true);
    let before = spent(&w.db, anna.id).await;
    let held = chat.send_photo(&hidden_site, &anna, To::Member(bram.id), &cid(2), picture(), &decoder, NOW + 1).await.unwrap();
    assert_eq!(spent(&w.db, anna.id).await - before, w.site.photo_credits, "paid for once, as any photo");
    assert_eq!(held.message.photo_review, Some(PhotoReview::Hidden));
    assert!(held.message.photo.is_some(), "the sender sees her own photo");
    let for_bram = seen(&chat, bram.id, conversation, held.message.id).await;
    assert_eq!((for_bram.photo, for_bram.photo_review), (None, Some(PhotoReview::Hidden)));
    assert_eq!(chat.photo(bram.id, held.message.id).await.unwrap(), None, "nor its bytes");
    let (_, keep) = chat.photo(anna.id, held.message.id).await.unwrap().expect("hers");
    assert!(!keep, "a waiting photo is not kept by the browser");
    // A repeated send is the same message, not a second photo in the queue.
    let again = chat.send_photo(&hidden_site, &anna, To::Member(bram.id), &cid(2), picture(), &decoder, NOW + 2).await.unwrap();
    assert_eq!(again.message.id, held.message.id);

    // All, shown while waiting: Carl sees Bram's photo at once.
    let shown_site = site_with(&w, 100, false);
    let shown = chat.send_photo(&shown_site, &bram, To::Member(carl.id), &cid(3), picture(), &decoder, NOW + 3).await.unwrap();
    assert_eq!(shown.message.photo_review, Some(PhotoReview::Waiting));
    assert!(seen(&chat, carl.id, shown.message.conversation, shown.message.id).await.photo.is_some());
    let third = chat.send_photo(&hidden_site, &carl, To::Member(anna.id), &cid(4), picture(), &decoder, NOW + 4).await.unwrap();

    // The queue, oldest first, for moderators and admins of the site only; the bytes likewise.
    assert_eq!(chat.photo_queue(&anna, w.site.id).await.unwrap_err().code(), ErrorCode::NotFound, "a member finds nothing");
    assert_eq!(chat.photo_queue(&support, w.site.id).await.unwrap_err().code(), ErrorCode::NotFound, "support is not a moderator");
    let queue = chat.photo_queue(&moderator, w.site.id).await.unwrap();
    assert_eq!(
        queue.iter().map(|q| (q.message_id, q.hidden)).collect::<Vec<_>>(),
        [(held.message.id, true), (shown.message.id, false), (third.message.id, true)]
    );
    assert_eq!((queue[0].sender_id, queue[0].recipient_id), (anna.id, bram.id));
    let bytes = chat.queued_photo(&moderator, w.site.id, held.message.id).await.unwrap().expect("staff see a waiting photo");
    assert_eq!(&bytes[..2], &[0xFF, 0xD8]);
    assert_eq!(chat.queued_photo(&moderator, w.site.id, free.message.id).await.unwrap(), None, "a photo that never waited is the members' own");
    assert_eq!(chat.queued_photo(&anna, w.site.id, held.message.id).await.unwrap_err().code(), ErrorCode::NotFound);

    // Approve Anna's: Bram sees it from now on; a second click decides nothing.
    assert_eq!(chat.review_photos(&moderator, w.site.id, &[held.message.id], Decision::Approve, NOW + 10).await.unwrap(), 1);
    assert_eq!(chat.review_photos(&moderator, w.site.id, &[held.message.id], Decision::Reject(Reason::Other), NOW + 11).await.unwrap(), 0);
    let for_bram = seen(&chat, bram.id, conversation, held.message.id).await;
    assert_eq!((for_bram.photo.is_some(), for_bram.photo_review), (true, Some(PhotoReview::Approved)));
    let (_, keep) = chat.photo(bram.id, held.message.id).await.unwrap().expect("now his to see");
    assert!(keep);
    assert_eq!(chat.queued_photo(&moderator, w.site.id, held.message.id).await.unwrap(), None, "decided: out of staff's view");

    // Reject Bram's (shown meanwhile): Carl no longer sees it; Bram sees that it was turned down.
    assert_eq!(chat.review_photos(&moderator, w.site.id, &[shown.message.id], Decision::Reject(Reason::ContactDetails), NOW + 12).await.unwrap(), 1);
    let for_carl = seen(&chat, carl.id, shown.message.conversation, shown.message.id).await;
    assert_eq!((for_carl.photo, for_carl.photo_review), (None, Some(PhotoReview::Rejected)));
    assert_eq!(chat.photo(carl.id, shown.message.id).await.unwrap(), None);
    let for_sender = seen(&chat, bram.id, shown.message.conversation, shown.message.id).await;
    assert_eq!((for_sender.photo.is_some(), for_sender.photo_review), (true, Some(PhotoReview::Rejected)));

    // Reject and block Carl: his sessions end, he leaves the search.
    assert_eq!(chat.review_photos(&moderator, w.site.id, &[third.message.id, third.message.id], Decision::Block(Reason::Illegal), NOW + 13).await.unwrap(), 1);
    assert_eq!(w.reload(carl.id).await.status, UserStatus::Blocked);
    assert!(chat.photo_queue(&moderator, w.site.id).await.unwrap().is_empty());
    assert_eq!(
        (log_count(&w.db, "chat_photo_approve").await, log_count(&w.db, "chat_photo_reject").await, log_count(&w.db, "chat_photo_block").await),
        (1, 1, 1),
        "one log line per decision"
    );
});

on_both_databases!(a_photo_the_classifier_flags_waits_hidden_whatever_the_share, |db: Db| async move {
    let w = world(db).await;
    let flagged = Verdict { score: 100, reason: Some(Reason::Illegal) };
    let chat = chat(&w).with_photo_classifier(PhotoClassifier::Fixed(flagged));
    let decoder = PhotoDecoder::new(5_000_000, 2);
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id, 1000).await;
    let bram = w.member("bram@example.nl", "male").await;
    let admin = w.staff("admin@example.nl", StaffRole::Admin).await;

    // The site reviews no photos, and shows waiting ones: a flagged one waits anyway, hidden.
    let site = site_with(&w, 0, false);
    let sent = chat.send_photo(&site, &anna, To::Member(bram.id), &cid(1), picture(), &decoder, NOW).await.unwrap();
    assert_eq!(sent.message.photo_review, Some(PhotoReview::Hidden));
    assert_eq!(chat.photo(bram.id, sent.message.id).await.unwrap(), None);
    let queue = chat.photo_queue(&admin, w.site.id).await.unwrap();
    assert_eq!(queue.len(), 1);
    assert_eq!(queue[0].verdict, Some(flagged), "with the classifier's reason for staff");

    // A list of known photos finds this one by its hash (and not another picture).
    let hash = server::members::photo_decode::upload_hash(&picture(), 5_000_000).unwrap();
    let known = chat.clone().with_photo_classifier(PhotoClassifier::KnownHashes(vec![hash].into()));
    let again = known.send_photo(&site, &anna, To::Member(bram.id), &cid(2), picture(), &decoder, NOW + 1).await.unwrap();
    assert_eq!(again.message.photo_review, Some(PhotoReview::Hidden));
    let other = {
        let img = image::RgbImage::from_fn(40, 30, |x, _| image::Rgb([255 - (x * 5) as u8, 40, 90]));
        let mut out = std::io::Cursor::new(Vec::new());
        image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    };
    let unknown = known.send_photo(&site, &anna, To::Member(bram.id), &cid(3), other, &decoder, NOW + 2).await.unwrap();
    assert_eq!(unknown.message.photo_review, None, "another picture goes out");
});

on_both_databases!(the_classifier_puts_known_profile_photos_first_in_their_queue, |db: Db| async move {
    let w = world(db).await;
    let media: server::media::Media = std::sync::Arc::new(server::media::LocalStore::new(w.media.path()));
    let known = server::members::photo_decode::upload_hash(&picture(), 5_000_000).unwrap();
    let photos = server::members::photos::Photos::new(w.db.clone(), media, PhotoDecoder::new(5_000_000, 2))
        .with_classifier(PhotoClassifier::KnownHashes(vec![known].into()));
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let moderator = w.staff("mod@example.nl", StaffRole::Moderator).await;
    let other = {
        let img = image::RgbImage::from_fn(40, 30, |x, _| image::Rgb([255 - (x * 5) as u8, 40, 90]));
        let mut out = std::io::Cursor::new(Vec::new());
        image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    };
    let first = photos.upload(&anna, other, false, NOW).await.unwrap();
    let flagged = photos.upload(&bram, picture(), false, NOW + 1).await.unwrap();
    let queue = photos.queue(&moderator, w.site.id, 50).await.unwrap();
    assert_eq!(queue.iter().map(|q| q.id).collect::<Vec<_>>(), [flagged, first], "the known photo first, though newer");
    assert_eq!(queue[0].verdict, Some(Verdict { score: 100, reason: Some(Reason::Illegal) }));
    assert_eq!(queue[1].verdict, Some(Verdict { score: 0, reason: None }), "looked at, nothing found");
});
