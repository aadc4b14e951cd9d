//! A member's own data as one archive (the right of access): account and profile, photos,
//! messages, likes, blocks, notifications, payments and credits, sessions and security events.
//! Only the member's own data: of the people they talked to, a name and an id, never their
//! photos or private details. Secrets (password hash, tokens, two-step secret, session tokens)
//! stay out.
//!
//! The archive is a zip written to a temporary file (photos can add up), which the caller
//! streams and which is gone when dropped.

use std::io::{Seek, Write};

use sqlx::any::AnyRow;
use sqlx::{Column, Row};

use crate::db::Db;
use crate::error::AppError;
use crate::media::Media;

/// What goes into the archive: a file name and the query that fills it (`$1` is the member).
const TABLES: [(&str, &str); 12] = [
    (
        "account.json",
        "SELECT u.id, u.email, u.status, u.language, u.credits, u.paid_user, u.invisible, u.signup_date, u.notify_messages, u.notify_likes, u.notify_news, \
         u.tracking_network, u.tracking_ref, u.tracking_sub1, u.tracking_sub2, u.tracking_sub3, s.name AS site \
         FROM users u JOIN sites s ON s.id = u.site_id WHERE u.id = $1",
    ),
    (
        "profile.json",
        "SELECT name, date_of_birth, gender, sexuality, country, region, city, about, signup_message, hair_colour, eye_colour, body_type, relationship_status, tattoos, reason \
         FROM profiles WHERE user_id = $1",
    ),
    ("interests.json", "SELECT interest FROM profile_interests WHERE user_id = $1 ORDER BY interest"),
    ("photos.json", "SELECT id, status, private, width, height, created_at FROM photos WHERE user_id = $1 ORDER BY id"),
    (
        "messages.json",
        "SELECT m.id, m.conversation_id, CASE WHEN m.sender_id = $1 THEN 'sent' ELSE 'received' END AS direction, \
         CASE WHEN m.sender_id = $1 THEN m.recipient_id ELSE m.sender_id END AS other_member_id, \
         (SELECT p.name FROM profiles p WHERE p.user_id = CASE WHEN m.sender_id = $1 THEN m.recipient_id ELSE m.sender_id END) AS other_member, \
         m.kind, m.body, m.gift, m.cost, m.created_at, \
         CASE WHEN m.sender_id = $1 AND m.photo_key IS NOT NULL THEN 'chat-photos/' || m.id || '.jpg' END AS photo \
         FROM messages m WHERE (m.sender_id = $1 OR m.recipient_id = $1) AND (m.held = FALSE OR m.sender_id = $1) ORDER BY m.id",
    ),
    (
        "likes.json",
        "SELECT CASE WHEN l.liker_id = $1 THEN 'given' ELSE 'received' END AS direction, \
         CASE WHEN l.liker_id = $1 THEN l.liked_id ELSE l.liker_id END AS other_member_id, \
         (SELECT p.name FROM profiles p WHERE p.user_id = CASE WHEN l.liker_id = $1 THEN l.liked_id ELSE l.liker_id END) AS other_member, \
         l.source, l.created_at FROM likes l WHERE l.liker_id = $1 OR l.liked_id = $1 ORDER BY l.created_at",
    ),
    ("blocks.json", "SELECT blocked_id AS member_id, created_at FROM blocks WHERE blocker_id = $1 ORDER BY created_at"),
    ("notifications.json", "SELECT kind, actor_id AS member_id, created_at, read_at FROM notifications WHERE user_id = $1 ORDER BY id"),
    (
        "payments.json",
        "SELECT id, credits, amount, currency, vat_rate, country, method, provider, status, discount_code, discount_percent, created_at, paid_at \
         FROM payments WHERE user_id = $1 ORDER BY id",
    ),
    ("credits.json", "SELECT delta, balance_after, reason, created_at FROM credit_ledger WHERE user_id = $1 ORDER BY id"),
    ("security-events.json", "SELECT kind, ip, country, user_agent, created_at FROM security_events WHERE user_id = $1 ORDER BY id"),
    // Complaints the member filed (logged in, or with their address on their site); never
    // complaints about them, which would name who complained.
    (
        "complaints.json",
        "SELECT c.reference, c.created_at, c.category, c.concerning, c.body, c.status, c.handled_at FROM complaints c JOIN users u ON u.id = $1 \
         WHERE c.reporter_id = $1 OR (c.reporter_id IS NULL AND c.site_id = u.site_id AND LOWER(c.email) = LOWER(u.email)) ORDER BY c.id",
    ),
];

/// One row as a JSON object, whatever the database made of each column.
fn row_json(row: &AnyRow) -> serde_json::Value {
    let mut object = serde_json::Map::new();
    for (i, column) in row.columns().iter().enumerate() {
        let value = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
            v.map(serde_json::Value::from)
        } else if let Ok(v) = row.try_get::<Option<String>, _>(i) {
            v.map(serde_json::Value::from)
        } else if let Ok(v) = row.try_get::<Option<bool>, _>(i) {
            v.map(serde_json::Value::from)
        } else if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
            v.map(serde_json::Value::from)
        } else {
            None
        };
        object.insert(column.name().to_string(), value.unwrap_or(serde_json::Value::Null));
    }
    serde_json::Value::Object(object)
}

fn zip_error(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(format!("data export: {e}"))
}

/// Writes the member's archive into a new temporary file and returns it, rewound.
pub async fn export(
    db: &Db,
    media: &Media,
    catalog: &crate::locales::Catalog,
    locale: domain::Locale,
    user_id: i64,
    now: i64,
) -> Result<std::fs::File, AppError> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, sql) in TABLES {
        let rows = sqlx::query(sql).bind(user_id).fetch_all(db.pool()).await?;
        let values: Vec<serde_json::Value> = rows.iter().map(row_json).collect();
        let json =
            if matches!(name, "account.json" | "profile.json") { values.into_iter().next().unwrap_or_default() } else { serde_json::Value::Array(values) };
        files.push((name.to_string(), serde_json::to_vec_pretty(&json).map_err(zip_error)?));
    }
    let photos: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, filename FROM photos WHERE user_id = $1 ORDER BY id").bind(user_id).fetch_all(db.pool()).await?;
    let chat_photos: Vec<(i64, String)> = sqlx::query_as("SELECT id, photo_key FROM messages WHERE sender_id = $1 AND photo_key IS NOT NULL ORDER BY id")
        .bind(user_id)
        .fetch_all(db.pool())
        .await?;
    let date = domain::date::from_unix(now).to_string();
    let readme = catalog.t(locale, "privacy.export_readme").replace("{date}", &date);
    files.insert(0, ("README.txt".into(), readme.into_bytes()));

    let mut out = tempfile::tempfile().map_err(zip_error)?;
    {
        let mut zip = zip::ZipWriter::new(&mut out);
        let json = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        // Photos are JPEGs already: stored as they are.
        let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        for (name, bytes) in &files {
            zip.start_file(name.as_str(), json).map_err(zip_error)?;
            zip.write_all(bytes).map_err(zip_error)?;
        }
        for (folder, list) in [("photos", &photos), ("chat-photos", &chat_photos)] {
            for (id, key) in list.iter() {
                // A file the store no longer has is left out rather than failing the archive.
                if let Some(bytes) = media.get(key).await? {
                    zip.start_file(format!("{folder}/{id}.jpg"), stored).map_err(zip_error)?;
                    zip.write_all(&bytes).map_err(zip_error)?;
                }
            }
        }
        zip.finish().map_err(zip_error)?;
    }
    out.rewind().map_err(zip_error)?;
    Ok(out)
}
