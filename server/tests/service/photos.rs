//! Photos on SQLite and PostgreSQL: every bad upload refused with nothing stored, EXIF gone,
//! limits for free and premium members, main and private choices, review by staff, who may see
//! which file, two-member ownership checks, and files removed on delete and on purge.

use crate::support;

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;

use domain::photo::{Access, GalleryPhoto, PhotoStatus, UploadError};
use image::ImageFormat;
use server::accounts::Member;
use server::media::{LocalStore, Media};
use server::members::photos::Photos;
use server::Db;
use support::world::{world, World, NOW};

const MAX: usize = 1 << 20;

/// A seeded site, and the photo service on the world's media folder.
struct Ctx {
    w: World,
    photos: Photos,
}

impl std::ops::Deref for Ctx {
    type Target = World;
    fn deref(&self) -> &World {
        &self.w
    }
}

async fn ctx(db: Db) -> Ctx {
    let w = world(db).await;
    let media: Media = Arc::new(LocalStore::new(w.media.path()));
    let photos = Photos::new(w.db.clone(), media, server::members::photo_decode::PhotoDecoder::new(MAX, 2));
    Ctx { w, photos }
}

async fn member(c: &Ctx, email: &str) -> Member {
    c.w.member(email, "female").await
}

async fn reload(c: &Ctx, m: &Member) -> Member {
    c.w.reload(m.id).await
}

fn picture(format: ImageFormat, w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x * 3) as u8, (y * 3) as u8, 90]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, format).unwrap();
    out.into_inner()
}

/// A JPEG carrying an EXIF block with a position and a comment, as phones write them.
fn jpeg_with_exif() -> Vec<u8> {
    let plain = picture(ImageFormat::Jpeg, 64, 48);
    let payload = b"Exif\0\0GPS 52.3702N 4.8952E secret-camera-serial";
    let mut out = plain[..2].to_vec();
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&((payload.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(payload);
    let comment = b"hidden comment";
    out.extend_from_slice(&[0xFF, 0xFE]);
    out.extend_from_slice(&((comment.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(comment);
    out.extend_from_slice(&plain[2..]);
    out
}

/// A small JPEG whose header claims 60,000 × 60,000 pixels.
fn pixel_bomb() -> Vec<u8> {
    let mut jpeg = picture(ImageFormat::Jpeg, 16, 16);
    let sof = jpeg.windows(2).position(|w| w == [0xFF, 0xC0]).expect("baseline frame header");
    // FF C0, length (2), precision (1), height (2), width (2).
    jpeg[sof + 5..sof + 7].copy_from_slice(&60_000u16.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&60_000u16.to_be_bytes());
    jpeg
}

fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        if e.path().is_dir() {
            out.extend(files_under(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

async fn photo_rows(c: &Ctx) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM photos").fetch_one(c.db.pool()).await.unwrap();
    n
}

fn refused(result: Result<i64, server::AppError>) -> domain::ErrorCode {
    match result {
        Err(server::AppError::Refused(e)) => e.code,
        other => panic!("expected a refused upload, got {other:?}"),
    }
}

on_both_databases!(bad_uploads_store_nothing, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let png = picture(ImageFormat::Png, 120, 90);
    let jpeg = picture(ImageFormat::Jpeg, 120, 90);
    let cases: Vec<(&str, Vec<u8>, UploadError)> = vec![
        ("text", b"just some text, not a picture".to_vec(), UploadError::NotAnImage),
        ("pdf", b"%PDF-1.7\n1 0 obj".to_vec(), UploadError::NotAnImage),
        ("gif", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec(), UploadError::NotAnImage),
        ("truncated png", png[..png.len() / 2].to_vec(), UploadError::Unreadable),
        ("truncated jpeg", jpeg[..jpeg.len() * 2 / 3].to_vec(), UploadError::Unreadable),
        ("pixel bomb", pixel_bomb(), UploadError::TooManyPixels),
        ("over the size limit", vec![0xFF; MAX + 1], UploadError::TooLarge),
        ("empty", Vec::new(), UploadError::NoFile),
    ];
    for (what, bytes, expected) in cases {
        assert_eq!(refused(c.photos.upload(&anna, bytes, false, NOW).await), expected.code(), "{what}");
    }
    assert_eq!(photo_rows(&c).await, 0);
    assert!(files_under(c.media.path()).is_empty(), "no file stored: {:?}", files_under(c.media.path()));
    assert_eq!(reload(&c, &anna).await.main_photo_id, None);
});

on_both_databases!(uploads_are_re_encoded_without_exif, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let id = c.photos.upload(&anna, jpeg_with_exif(), false, NOW).await.unwrap();
    let stored = c.photos.file(Some(&anna), c.site.id, id, false, false).await.unwrap().unwrap();
    assert_eq!(stored.content_type, "image/jpeg");
    let stored = stored.bytes;
    assert_eq!(&stored[..2], &[0xFF, 0xD8]);
    for secret in [&b"secret-camera-serial"[..], b"Exif", b"hidden comment"] {
        assert!(!stored.windows(secret.len()).any(|w| w == secret), "{:?} survived", String::from_utf8_lossy(secret));
    }
    let decoded = image::load_from_memory(&stored).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (64, 48));
    let thumb = image::load_from_memory(&c.photos.file(Some(&anna), c.site.id, id, true, false).await.unwrap().unwrap().bytes).unwrap();
    assert_eq!((thumb.width(), thumb.height()), (480, 640));
    // Browsers that take WebP get the WebP copies, made from the same re-encoded picture.
    for (thumb, size) in [(false, (64, 48)), (true, (480, 640))] {
        let webp = c.photos.file(Some(&anna), c.site.id, id, thumb, true).await.unwrap().unwrap();
        assert_eq!(webp.content_type, "image/webp");
        assert!(!webp.bytes.windows(20).any(|w| w == b"secret-camera-serial"));
        let decoded = image::load_from_memory_with_format(&webp.bytes, ImageFormat::WebP).unwrap();
        assert_eq!((decoded.width(), decoded.height()), size);
    }
    // PNG and WebP are accepted too.
    c.photos.upload(&anna, picture(ImageFormat::Png, 50, 50), false, NOW).await.unwrap();
    c.photos.upload(&anna, picture(ImageFormat::WebP, 50, 50), true, NOW).await.unwrap();
    assert_eq!(files_under(c.media.path()).len(), 12, "each photo as JPEG and WebP, full and thumbnail");
    // The first public photo is the main photo; it waits for review.
    let anna = reload(&c, &anna).await;
    assert_eq!(anna.main_photo_id, Some(id));
    let own = c.photos.own(&anna).await.unwrap();
    assert_eq!(own.limit, 3);
    assert_eq!(
        own.photos.iter().map(|p| (p.status, p.private, p.is_main)).collect::<Vec<_>>(),
        vec![(PhotoStatus::UnderInspection, false, true), (PhotoStatus::UnderInspection, false, false), (PhotoStatus::UnderInspection, true, false),]
    );
});

on_both_databases!(limits_free_three_premium_twenty_five, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let small = picture(ImageFormat::Png, 20, 20);
    for _ in 0..3 {
        c.photos.upload(&anna, small.clone(), false, NOW).await.unwrap();
    }
    assert_eq!(refused(c.photos.upload(&anna, small.clone(), false, NOW).await), UploadError::LimitReached.code());
    assert_eq!(UploadError::LimitReached.code().locale_key(), "photo.limit_reached");
    assert_eq!(photo_rows(&c).await, 3);
    let anna = c.make_premium(anna.id).await;
    for _ in 3..25 {
        c.photos.upload(&anna, small.clone(), false, NOW).await.unwrap();
    }
    assert_eq!(refused(c.photos.upload(&anna, small, false, NOW).await), UploadError::LimitReached.code());
    assert_eq!(photo_rows(&c).await, 25);
    assert_eq!(c.photos.own(&anna).await.unwrap().limit, 25);
});

on_both_databases!(review_main_and_private_decide_what_others_see, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let bob = member(&c, "bob@example.nl").await;
    let staff_member = member(&c, "staff@example.nl").await;
    assert_eq!(support::grant_staff(&c.db, &c.accounts, "staff@example.nl", domain::staff::StaffRole::Admin).await, 1);
    let staff = reload(&c, &staff_member).await;
    assert!(staff.is_staff());
    let public = c.photos.upload(&anna, picture(ImageFormat::Jpeg, 40, 40), false, NOW).await.unwrap();
    let private = c.photos.upload(&anna, picture(ImageFormat::Jpeg, 40, 40), true, NOW).await.unwrap();
    let other = c.photos.upload(&anna, picture(ImageFormat::Jpeg, 40, 40), false, NOW).await.unwrap();

    // Under inspection: the owner and staff see it, nobody else, and no card shows it yet.
    assert!(c.photos.file(Some(&anna), c.site.id, public, false, false).await.unwrap().is_ok());
    assert!(c.photos.file(Some(&staff), c.site.id, public, false, false).await.unwrap().is_ok());
    assert_eq!(c.photos.file(Some(&bob), c.site.id, public, false, false).await.unwrap().unwrap_err(), Access::Hidden);
    assert_eq!(c.photos.gallery(Some(&bob), anna.id).await.unwrap(), vec![]);
    let queue = c.photos.queue(&staff, c.site.id, 50).await.unwrap();
    assert_eq!(queue.iter().map(|q| q.id).collect::<Vec<_>>(), vec![public, private, other]);

    // Only moderators and admins see the queue and review.
    assert!(c.photos.queue(&bob, c.site.id, 50).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert!(c.photos.review(&bob, c.site.id, public, true, NOW).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    for id in [public, private, other] {
        c.photos.review(&staff, c.site.id, id, true, NOW).await.unwrap();
    }
    assert!(c.photos.queue(&staff, c.site.id, 50).await.unwrap().is_empty());
    let (main, thumb): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT main_photo, main_thumb FROM profiles WHERE user_id = $1").bind(anna.id).fetch_one(c.db.pool()).await.unwrap();
    assert_eq!((main.as_deref(), thumb.as_deref()), (Some(format!("photos/{public}").as_str()), Some(format!("photos/{public}/thumb").as_str())));

    // Free members see the private photo locked; premium members open it; visitors get the main photo only.
    assert_eq!(
        c.photos.gallery(Some(&bob), anna.id).await.unwrap(),
        vec![GalleryPhoto { id: public, locked: false }, GalleryPhoto { id: private, locked: true }, GalleryPhoto { id: other, locked: false },]
    );
    assert_eq!(c.photos.file(Some(&bob), c.site.id, private, false, false).await.unwrap().unwrap_err(), Access::PremiumRequired);
    assert_eq!(c.photos.file(None, c.site.id, other, true, false).await.unwrap().unwrap_err(), Access::LoginRequired);
    assert!(c.photos.file(None, c.site.id, public, true, false).await.unwrap().is_ok());
    let bob = c.make_premium(bob.id).await;
    assert!(c.photos.file(Some(&bob), c.site.id, private, false, false).await.unwrap().is_ok());
    assert!(c.photos.gallery(Some(&bob), anna.id).await.unwrap().iter().all(|p| !p.locked));

    // A private photo cannot be the main photo; making the main photo private moves the choice.
    assert!(c.photos.set_main(anna.id, private).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    c.photos.set_private(anna.id, public, true).await.unwrap();
    assert_eq!(reload(&c, &anna).await.main_photo_id, Some(other));
    c.photos.set_main(anna.id, other).await.unwrap();
    // Rejecting the main photo empties what cards show.
    c.photos.review(&staff, c.site.id, other, false, NOW).await.unwrap();
    let anna = reload(&c, &anna).await;
    assert_eq!(anna.main_photo_id, None);
    // Each review told Anna (and nobody else): three approvals, then the rejection, newest first.
    let notes = server::notifications::Notifications::new(c.members.clone());
    let kinds: Vec<_> = notes.list(anna.id, domain::account::Ymd::from_unix(NOW), 50).await.unwrap().into_iter().map(|n| n.kind).collect();
    use domain::notifications::NotificationKind::{PhotoApproved, PhotoRejected, Welcome};
    assert_eq!(kinds, vec![PhotoRejected, PhotoApproved, PhotoApproved, PhotoApproved, Welcome]);
    assert!(notes.list(bob.id, domain::account::Ymd::from_unix(NOW), 50).await.unwrap().iter().all(|n| n.kind == Welcome));
    let (main,): (Option<String>,) = sqlx::query_as("SELECT main_photo FROM profiles WHERE user_id = $1").bind(anna.id).fetch_one(c.db.pool()).await.unwrap();
    assert_eq!(main, None);
    assert_eq!(c.photos.file(Some(&bob), c.site.id, other, false, false).await.unwrap().unwrap_err(), Access::Hidden);

    // Blocking hides every photo both ways.
    c.members.block(&c.site, anna.id, bob.id, NOW).await.unwrap();
    assert_eq!(c.photos.file(Some(&bob), c.site.id, private, true, false).await.unwrap().unwrap_err(), Access::Hidden);
});

on_both_databases!(members_cannot_touch_each_others_photos, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let bob = member(&c, "bob@example.nl").await;
    let id = c.photos.upload(&anna, picture(ImageFormat::Png, 30, 30), false, NOW).await.unwrap();
    assert!(c.photos.set_main(bob.id, id).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert!(c.photos.set_private(bob.id, id, true).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert!(c.photos.delete(bob.id, id).await.is_err_and(|e| e.code() == domain::ErrorCode::NotFound));
    assert_eq!(c.photos.own(&bob).await.unwrap().photos, vec![]);
    // Anna's photo is untouched.
    let own = c.photos.own(&reload(&c, &anna).await).await.unwrap();
    assert_eq!(own.photos.len(), 1);
    assert!(own.photos[0].is_main && !own.photos[0].private);
    assert_eq!(files_under(c.media.path()).len(), 4);
    // Another site's address never serves it.
    assert_eq!(c.photos.file(Some(&anna), c.site.id + 1000, id, false, false).await.unwrap().unwrap_err(), Access::Hidden);
});

on_both_databases!(delete_and_purge_remove_the_files, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let first = c.photos.upload(&anna, picture(ImageFormat::Png, 30, 30), false, NOW).await.unwrap();
    let second = c.photos.upload(&anna, picture(ImageFormat::Png, 30, 30), false, NOW).await.unwrap();
    assert_eq!(files_under(c.media.path()).len(), 8);
    c.photos.delete(anna.id, first).await.unwrap();
    assert_eq!(files_under(c.media.path()).len(), 4);
    // The remaining photo becomes the main photo.
    assert_eq!(reload(&c, &anna).await.main_photo_id, Some(second));

    c.accounts.delete_account(&c.site, anna.id, "rode kater op het dak", "", "http://x", &Default::default()).await.unwrap();
    // Deleted accounts keep their files during the reactivation period…
    assert_eq!(files_under(c.media.path()).len(), 4);
    sqlx::query("UPDATE users SET deleted_at = $1 WHERE id = $2").bind(NOW - 400 * 86_400).bind(anna.id).execute(c.db.pool()).await.unwrap();
    assert_eq!(c.accounts.purge_deleted().await.unwrap(), 1);
    // …and lose them with the purge.
    assert!(files_under(c.media.path()).is_empty());
    assert_eq!(photo_rows(&c).await, 0);
});

on_both_databases!(older_photos_get_their_webp_copies_from_the_housekeeping, |db: Db| async move {
    let c = ctx(db).await;
    let anna = member(&c, "anna@example.nl").await;
    let id = c.photos.upload(&anna, picture(ImageFormat::Png, 60, 80), false, NOW).await.unwrap();
    let gone = c.photos.upload(&anna, picture(ImageFormat::Png, 60, 80), false, NOW).await.unwrap();
    // As photos stored before there were copies: JPEGs only, and the row says so.
    for file in files_under(c.media.path()).into_iter().filter(|f| f.extension().is_some_and(|e| e == "webp")) {
        std::fs::remove_file(file).unwrap();
    }
    sqlx::query("UPDATE photos SET webp = $1").bind(false).execute(c.db.pool()).await.unwrap();
    c.photos.delete(anna.id, gone).await.unwrap();
    assert_eq!(files_under(c.media.path()).len(), 2);
    let before = c.photos.file(Some(&anna), c.site.id, id, true, true).await.unwrap().unwrap();
    assert_eq!(before.content_type, "image/jpeg", "no copy yet: the JPEG");

    assert_eq!(c.photos.add_webp_copies(100).await.unwrap(), 1);
    assert_eq!(files_under(c.media.path()).len(), 4);
    for (thumb, size) in [(false, (60, 80)), (true, (480, 640))] {
        let webp = c.photos.file(Some(&anna), c.site.id, id, thumb, true).await.unwrap().unwrap();
        assert_eq!(webp.content_type, "image/webp");
        let decoded = image::load_from_memory_with_format(&webp.bytes, ImageFormat::WebP).unwrap();
        assert_eq!((decoded.width(), decoded.height()), size);
    }
    // Done once: the next run has nothing to do, and deleting the photo takes the copies along.
    assert_eq!(c.photos.add_webp_copies(100).await.unwrap(), 0);
    c.photos.delete(anna.id, id).await.unwrap();
    assert!(files_under(c.media.path()).is_empty());
});
