//! Photos in S3-compatible storage, against a local S3 server (moto): the store's contract,
//! private photos still behind the access check, deleted photos leaving the bucket, a purged
//! member's photos (profile and chat) leaving it too, and removals that wait in the media trash
//! while the bucket is unreachable.

use crate::support;

use std::io::Cursor;
use std::sync::Arc;

use domain::photo::Access;
use image::ImageFormat;
use server::chat::bus::Bus;
use server::chat::{Chat, To};
use server::credits::{self, Entry, Reason};
use server::media::{Media, MediaStore, S3Config, S3Store};
use server::members::photo_decode::PhotoDecoder;
use server::members::photos::Photos;
use server::Db;
use support::world::{world, NOW};
use support::S3Server;

fn picture(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x * 3) as u8, (y * 3) as u8, 90]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

/// Every key the bucket holds (under any prefix), read with S3's own listing.
async fn keys_in(s3: &S3Server, bucket: &str) -> Vec<String> {
    let xml = reqwest::get(format!("{}/{bucket}?list-type=2", s3.endpoint)).await.unwrap().text().await.unwrap();
    let mut keys: Vec<String> = xml.split("<Key>").skip(1).filter_map(|rest| rest.split("</Key>").next()).map(str::to_string).collect();
    keys.sort();
    keys
}

async fn trash_rows(db: &Db) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM media_trash").fetch_one(db.pool()).await.unwrap();
    n
}

#[tokio::test]
async fn the_store_keeps_its_contract_on_s3() {
    let s3 = S3Server::start().await;
    let plain = S3Store::new(&s3.bucket("vonk-media", "").await).unwrap();
    let prefixed = S3Store::new(&S3Config { prefix: "/site-b/".into(), ..s3.bucket("vonk-media-b", "").await }).unwrap();

    plain.put("photos/1/a.jpg", b"first".to_vec()).await.unwrap();
    assert_eq!(plain.get("photos/1/a.jpg").await.unwrap(), Some(b"first".to_vec()));
    // A second put replaces the object whole.
    plain.put("photos/1/a.jpg", b"second version".to_vec()).await.unwrap();
    assert_eq!(plain.get("photos/1/a.jpg").await.unwrap(), Some(b"second version".to_vec()));
    assert_eq!(plain.get("photos/1/missing.jpg").await.unwrap(), None);
    plain.delete("photos/1/a.jpg").await.unwrap();
    assert_eq!(plain.get("photos/1/a.jpg").await.unwrap(), None);
    // Deleting what is not there succeeds.
    plain.delete("photos/1/a.jpg").await.unwrap();

    // A prefix keeps an installation's keys apart.
    prefixed.put("photos/2/b.jpg", b"b".to_vec()).await.unwrap();
    assert_eq!(keys_in(&s3, "vonk-media-b").await, vec!["site-b/photos/2/b.jpg".to_string()]);
    assert_eq!(prefixed.get("photos/2/b.jpg").await.unwrap(), Some(b"b".to_vec()));

    // Keys that could mean something else are refused before anything is sent.
    for key in ["../x", "/etc/passwd", "a/../../b", "a\\b", "", "a//b", "a/", "a?b", "a b"] {
        assert!(plain.put(key, vec![1]).await.is_err(), "{key}");
        assert!(plain.get(key).await.is_err(), "{key}");
    }
    assert!(keys_in(&s3, "vonk-media").await.is_empty());
}

on_both_databases!(photos_live_in_the_bucket_and_leave_it_with_the_member, |db: Db| async move {
    let s3 = S3Server::start().await;
    let config = s3.bucket("vonk-photos", "vonk").await;
    let media: Media = Arc::new(S3Store::new(&config).unwrap());
    let w = world(db.clone()).await;
    let photos = Photos::new(w.db.clone(), media.clone(), PhotoDecoder::new(1 << 20, 2));
    let accounts = w.accounts.clone().with_media(media.clone());
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused")).with_media(media.clone());

    let anna = w.member("anna@example.nl", "female").await;
    let bob = w.member("bob@example.nl", "male").await;
    let public = photos.upload(&anna, picture(40, 40), false, NOW).await.unwrap();
    let private = photos.upload(&anna, picture(40, 40), true, NOW).await.unwrap();
    let stored = keys_in(&s3, "vonk-photos").await;
    assert_eq!(stored.len(), 8, "JPEG and WebP, full and thumbnail: {stored:?}");
    assert!(stored.iter().all(|k| k.starts_with(&format!("vonk/photos/{}/", anna.id))), "{stored:?}");

    // Staff approve both; the bucket is never linked to: every file goes through the access check.
    sqlx::query("UPDATE photos SET status = 'active'").execute(db.pool()).await.unwrap();
    let own = photos.file(Some(&anna), w.site.id, private, false, false).await.unwrap().unwrap();
    assert!(own.bytes.starts_with(&[0xFF, 0xD8]), "a JPEG from the bucket");
    let webp = photos.file(Some(&anna), w.site.id, private, true, true).await.unwrap().unwrap();
    assert_eq!((webp.content_type, &webp.bytes[..4]), ("image/webp", &b"RIFF"[..]));
    assert_eq!(photos.file(Some(&bob), w.site.id, private, false, false).await.unwrap().unwrap_err(), Access::PremiumRequired);
    assert_eq!(photos.file(None, w.site.id, private, true, false).await.unwrap().unwrap_err(), Access::LoginRequired);
    let bob = w.make_premium(bob.id).await;
    assert_eq!(photos.file(Some(&bob), w.site.id, private, false, false).await.unwrap().unwrap(), own);
    assert!(photos.file(Some(&bob), w.site.id, public, true, false).await.unwrap().is_ok());

    // Deleting a photo removes its four files from the bucket.
    photos.delete(anna.id, public).await.unwrap();
    assert_eq!(keys_in(&s3, "vonk-photos").await.len(), 4);
    assert_eq!(trash_rows(&db).await, 0);

    // A chat photo Anna sends lands in the bucket as well.
    let mut tx = db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: anna.id, delta: 1000, reason: Reason::Adjustment, reference: "adjustment:test:s3" }, NOW).await.unwrap();
    tx.commit().await.unwrap();
    let anna = w.reload(anna.id).await;
    let sent = chat.send_photo(&w.site, &anna, To::Member(bob.id), "client-id-000001", picture(30, 30), &PhotoDecoder::new(1 << 20, 2), NOW).await.unwrap();
    assert!(chat.photo(bob.id, sent.message.id).await.unwrap().is_some());
    assert_eq!(keys_in(&s3, "vonk-photos").await.len(), 5);

    // Deleted, then purged after the reactivation period: nothing of Anna's stays in the bucket.
    accounts.delete_account(&w.site, anna.id, "rode kater op het dak", "", "http://x", &Default::default()).await.unwrap();
    assert_eq!(keys_in(&s3, "vonk-photos").await.len(), 5, "kept while she may come back");
    sqlx::query("UPDATE users SET deleted_at = $1 WHERE id = $2").bind(NOW - 400 * 86_400).bind(anna.id).execute(db.pool()).await.unwrap();
    assert_eq!(accounts.purge_deleted().await.unwrap(), 1);
    assert_eq!(keys_in(&s3, "vonk-photos").await, Vec::<String>::new());
    assert_eq!(trash_rows(&db).await, 0);
    assert_eq!(chat.photo(bob.id, sent.message.id).await.unwrap(), None);
    db.close().await;
});

on_both_databases!(removals_wait_while_the_bucket_is_unreachable, |db: Db| async move {
    let s3 = S3Server::start().await;
    let config = s3.bucket("vonk-trash", "").await;
    let media: Media = Arc::new(S3Store::new(&config).unwrap());
    // The same bucket through an address where nothing answers.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let unreachable: Media = Arc::new(S3Store::new(&S3Config { endpoint: format!("http://127.0.0.1:{closed}"), ..config.clone() }).unwrap());
    let w = world(db.clone()).await;
    let photos = Photos::new(w.db.clone(), media.clone(), PhotoDecoder::new(1 << 20, 2));
    let anna = w.member("anna@example.nl", "female").await;
    photos.upload(&anna, picture(40, 40), false, NOW).await.unwrap();
    assert_eq!(keys_in(&s3, "vonk-trash").await.len(), 4);

    // The purge itself succeeds; the files wait in the trash instead of being forgotten.
    let accounts = w.accounts.clone().with_media(unreachable);
    accounts.delete_account(&w.site, anna.id, "rode kater op het dak", "", "http://x", &Default::default()).await.unwrap();
    sqlx::query("UPDATE users SET deleted_at = $1 WHERE id = $2").bind(NOW - 400 * 86_400).bind(anna.id).execute(db.pool()).await.unwrap();
    assert_eq!(accounts.purge_deleted().await.unwrap(), 1);
    assert_eq!(trash_rows(&db).await, 4);
    assert_eq!(keys_in(&s3, "vonk-trash").await.len(), 4);

    // The next housekeeping run, with the bucket back, finishes the job.
    w.accounts.clone().with_media(media.clone()).housekeeping().await;
    assert_eq!(trash_rows(&db).await, 0);
    assert!(keys_in(&s3, "vonk-trash").await.is_empty());
    db.close().await;
});
