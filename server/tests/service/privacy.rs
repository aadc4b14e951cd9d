//! The member's data download: everything of their own in one zip, nothing of anyone else's
//! beyond an id and a profile name, and no secrets.

use crate::support;

use std::io::{Cursor, Read};
use std::sync::Arc;

use domain::likes::LikeSource;
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::locales::Catalog;
use server::media::{LocalStore, Media};
use server::members::photo_decode::PhotoDecoder;
use server::members::photos::Photos;
use server::Db;
use support::world::{world, NOW};

fn picture() -> Vec<u8> {
    let img = image::RgbImage::from_fn(40, 30, |x, y| image::Rgb([(x * 5) as u8, (y * 7) as u8, 90]));
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// The archive's files by name.
fn unzip(file: std::fs::File) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut archive = zip::ZipArchive::new(file).unwrap();
    let mut out = std::collections::BTreeMap::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        out.insert(entry.name().to_string(), bytes);
    }
    out
}

fn json(files: &std::collections::BTreeMap<String, Vec<u8>>, name: &str) -> serde_json::Value {
    serde_json::from_slice(&files[name]).unwrap()
}

on_both_databases!(the_archive_holds_the_members_own_data_and_no_one_elses, |db: Db| async move {
    let w = world(db.clone()).await;
    let media: Media = Arc::new(LocalStore::new(w.media.path()));
    let photos = Photos::new(w.db.clone(), media.clone(), PhotoDecoder::new(1 << 20, 2));
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused")).with_media(media.clone());
    let likes = server::likes::Likes::new(w.members.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bob = w.member("bob@example.nl", "male").await;
    sqlx::query("UPDATE profiles SET name = 'Bob' WHERE user_id = $1").bind(bob.id).execute(db.pool()).await.unwrap();
    let mut tx = db.begin().await.unwrap();
    for id in [anna.id, bob.id] {
        credits::book(&mut tx, Entry { user_id: id, delta: 500, reason: Reason::Adjustment, reference: &format!("adjustment:export:{id}") }, NOW)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let (anna, bob) = (w.reload(anna.id).await, w.reload(bob.id).await);

    let own_photo = photos.upload(&anna, picture(), true, NOW).await.unwrap();
    photos.upload(&bob, picture(), false, NOW).await.unwrap();
    likes.like(&w.site, &anna, bob.id, LikeSource::Profile, NOW).await.unwrap();
    likes.like(&w.site, &bob, anna.id, LikeSource::Search, NOW).await.unwrap();
    chat.send(&w.site, &anna, To::Member(bob.id), "client-id-export-1", Content::Text("Zin in koffie?".into()), NOW).await.unwrap();
    let sent_photo = chat.send_photo(&w.site, &anna, To::Member(bob.id), "client-id-export-2", picture(), &PhotoDecoder::new(1 << 20, 2), NOW).await.unwrap();
    chat.send(&w.site, &bob, To::Member(anna.id), "client-id-export-3", Content::Text("Graag!".into()), NOW).await.unwrap();
    chat.send_photo(&w.site, &bob, To::Member(anna.id), "client-id-export-4", picture(), &PhotoDecoder::new(1 << 20, 2), NOW).await.unwrap();

    // Anna's own complaint (and one she sent before logging in, with her address) are hers;
    // Bob's complaint about her names Bob and stays out.
    for (reference, reporter, email, member, body) in [
        ("K-ANNA0001", Some(anna.id), "anna@example.nl", Some(bob.id), "Bob stuurt vervelende berichten."),
        ("K-ANNA0002", None, "Anna@Example.nl", None, "Ik kan mijn foto niet wijzigen."),
        ("K-BOB00001", Some(bob.id), "bob@example.nl", Some(anna.id), "Anna is niet wie ze zegt."),
    ] {
        sqlx::query("INSERT INTO complaints (site_id, reference, created_at, language, name, email, category, body, reporter_id, member_id) VALUES ($1, $2, $3, 'nl', 'x', $4, 'other', $5, $6, $7)")
            .bind(w.site.settings.id)
            .bind(reference)
            .bind(NOW)
            .bind(email)
            .bind(body)
            .bind(reporter)
            .bind(member)
            .execute(db.pool())
            .await
            .unwrap();
    }
    let file = server::privacy::export(&db, &media, &Catalog::embedded(), domain::Locale::En, anna.id, NOW).await.unwrap();
    let files = unzip(file);
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        vec![
            "README.txt",
            "account.json",
            "blocks.json",
            &format!("chat-photos/{}.jpg", sent_photo.message.id),
            "complaints.json",
            "credits.json",
            "interests.json",
            "likes.json",
            "messages.json",
            "notifications.json",
            "payments.json",
            &format!("photos/{own_photo}.jpg"),
            "photos.json",
            "profile.json",
            "security-events.json",
        ]
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
    assert!(String::from_utf8_lossy(&files["README.txt"]).starts_with("Your data as we kept it on 2026-"));
    assert_eq!(json(&files, "account.json")["email"], "anna@example.nl");
    assert!(json(&files, "account.json")["credits"].as_i64().is_some());
    assert!(json(&files, "credits.json").as_array().unwrap().iter().any(|e| e["delta"] == 500 && e["reason"] == "adjustment"));
    assert_eq!(json(&files, "profile.json")["city"], "Haarlem");
    let messages = json(&files, "messages.json");
    let bodies: Vec<(&str, &str)> = messages.as_array().unwrap().iter().map(|m| (m["direction"].as_str().unwrap(), m["body"].as_str().unwrap_or(""))).collect();
    assert_eq!(bodies, vec![("sent", "Zin in koffie?"), ("sent", ""), ("received", "Graag!"), ("received", "")]);
    assert!(messages.as_array().unwrap().iter().all(|m| m["other_member"] == "Bob" && m["other_member_id"] == bob.id));
    assert_eq!(messages[1]["photo"], format!("chat-photos/{}.jpg", sent_photo.message.id));
    assert!(messages[3]["photo"].is_null(), "Bob's photo is his, not part of Anna's archive");
    let complaints: Vec<String> = json(&files, "complaints.json").as_array().unwrap().iter().map(|c| c["reference"].as_str().unwrap().to_string()).collect();
    assert_eq!(complaints, vec!["K-ANNA0001", "K-ANNA0002"]);
    let likes = json(&files, "likes.json");
    assert_eq!(likes.as_array().unwrap().len(), 2);
    assert!(files[&format!("photos/{own_photo}.jpg")].starts_with(&[0xFF, 0xD8]));

    // Nothing secret and nothing of Bob's beyond his id and name.
    let all = files.values().map(|b| String::from_utf8_lossy(b).to_string()).collect::<String>();
    for absent in ["password", "argon2", "token", "bob@example.nl", "totp"] {
        assert!(!all.contains(absent), "{absent} in the archive");
    }
    // Bob's own archive has his photo, not Anna's.
    let bobs = unzip(server::privacy::export(&db, &media, &Catalog::embedded(), domain::Locale::Nl, bob.id, NOW).await.unwrap());
    assert_eq!(bobs.keys().filter(|k| k.starts_with("photos/")).count(), 1);
    assert!(!bobs.contains_key(&format!("photos/{own_photo}.jpg")));
    assert!(String::from_utf8_lossy(&bobs["README.txt"]).starts_with("Je gegevens zoals ze op 2026-"));
    db.close().await;
});
