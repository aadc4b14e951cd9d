//! Upgrades: a site on the last released schema, holding realistic rows in every table
//! (members, photos, likes, chats, payments, the ledger, staff work), is upgraded by starting
//! this build on it, on SQLite and on PostgreSQL. Every row is still there, `vonk check` finds
//! nothing wrong, and the upgraded site takes new writes.
//!
//! The rows live in `tests/fixtures/released-schema.json`, taken at the schema of the last
//! release. When a release ships, refresh it from that release's code:
//! `UPDATE_UPGRADE_FIXTURE=1 cargo test -p server --test upgrade` (it is written from a site
//! the services filled, plus direct rows for tables no service here writes).

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;

use domain::checkout::PaymentStatus;
use domain::likes::LikeSource;
use domain::payment::PaymentMethod;
use serde::{Deserialize, Serialize};
use server::backup;
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::db::Backend;
use server::likes::Likes;
use server::payments::provider::Provider;
use server::payments::{sms::SmsOutbox, Payments};
use server::Db;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, Migrator};
use support::world::{world, NOW};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/released-schema.json");

/// Rows of every table, as SQLite literals (`quote()`), tables in an order where every
/// referenced row comes first.
#[derive(Debug, Serialize, Deserialize)]
struct Fixture {
    schema_version: i64,
    tables: Vec<Table>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Table {
    name: String,
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn fixture() -> Fixture {
    serde_json::from_str(&std::fs::read_to_string(FIXTURE).expect("the released-schema fixture")).expect("fixture json")
}

/// The shipped migrations up to a version.
#[derive(Debug)]
struct Through(Vec<Migration>);

impl MigrationSource<'static> for Through {
    fn resolve(self) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send>> {
        Box::pin(async move { Ok(self.0) })
    }
}

async fn migrator_through(backend: Backend, version: i64) -> Migrator {
    let migrations = server::db::migrator(backend).iter().filter(|m| m.version <= version).cloned().collect();
    Migrator::new(Through(migrations)).await.unwrap()
}

/// A literal of the fixture in the backend's dialect: PostgreSQL wants TRUE/FALSE for its
/// booleans and `'\x…'` for bytes.
fn literal(backend: Backend, column_type: &str, value: &str) -> String {
    match (backend, column_type) {
        (Backend::Postgres, "boolean") if value != "NULL" => (if value == "0" { "FALSE" } else { "TRUE" }).to_string(),
        (Backend::Postgres, "bytea") if value.starts_with("X'") => format!("'\\x{}'::bytea", &value[2..value.len() - 1]),
        _ => value.to_string(),
    }
}

async fn column_types(db: &Db, backend: Backend, table: &str) -> BTreeMap<String, String> {
    let sql = match backend {
        Backend::Postgres => {
            "SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1"
        }
        Backend::Sqlite => "SELECT name, LOWER(type) FROM pragma_table_info($1)",
    };
    sqlx::query_as::<_, (String, String)>(sql).bind(table).fetch_all(db.pool()).await.unwrap().into_iter().collect()
}

async fn tables(db: &Db, backend: Backend) -> BTreeSet<String> {
    let sql = match backend {
        Backend::Postgres => "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    };
    sqlx::query_scalar::<_, String>(sql).fetch_all(db.pool()).await.unwrap().into_iter().filter(|t| t != "_sqlx_migrations").collect()
}

/// Builds a site at the fixture's schema, fills it with the fixture, and upgrades it the way a
/// site owner does: by starting the new build on it (`Db::connect` runs the new migrations).
async fn upgrade(backend: Backend, url: &str, media: &std::path::Path) -> Db {
    let fx = fixture();
    let old = Db::open(url, 2).await.unwrap();
    migrator_through(backend, fx.schema_version).await.run(old.pool()).await.unwrap();
    let present = tables(&old, backend).await;
    let listed: BTreeSet<String> = fx.tables.iter().map(|t| t.name.clone()).collect();
    assert_eq!(listed, present, "the fixture holds every table of the released schema");
    for table in &fx.tables {
        assert!(!table.rows.is_empty(), "the fixture has rows for {}", table.name);
        let types = column_types(&old, backend, &table.name).await;
        let columns: Vec<String> = table.columns.iter().map(|c| format!("\"{c}\"")).collect();
        for row in &table.rows {
            let values: Vec<String> = table.columns.iter().zip(row).map(|(c, v)| literal(backend, &types[c], v)).collect();
            // The ids are the fixture's: PostgreSQL's identity columns take them when told.
            let overriding = if backend == Backend::Postgres { " OVERRIDING SYSTEM VALUE" } else { "" };
            let sql = format!("INSERT INTO \"{}\" ({}){overriding} VALUES ({})", table.name, columns.join(", "), values.join(", "));
            sqlx::query(&sql).execute(old.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
        if backend == Backend::Postgres && types.get("id").is_some_and(|t| t == "integer" || t == "bigint") {
            let sql = format!("SELECT setval(pg_get_serial_sequence('\"{0}\"', 'id'), (SELECT MAX(id) FROM \"{0}\")) WHERE pg_get_serial_sequence('\"{0}\"', 'id') IS NOT NULL", table.name);
            sqlx::query(&sql).execute(old.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
    }
    // The private files the rows name (the fixture holds rows, not photo bytes).
    for sql in ["SELECT filename FROM photos", "SELECT thumb_filename FROM photos", "SELECT photo_key FROM messages WHERE photo_key IS NOT NULL"] {
        for key in sqlx::query_scalar::<_, String>(sql).fetch_all(old.pool()).await.unwrap() {
            let path = media.join(&key);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"photo").unwrap();
        }
    }
    old.close().await;

    let db = Db::connect(url, 2).await.expect("the new build starts on the released schema");
    assert_eq!(sqlx::query_scalar::<_, i64>("SELECT MAX(version) FROM _sqlx_migrations").fetch_one(db.pool()).await.unwrap(), backup::newest_schema(backend));
    for table in &fx.tables {
        let types = column_types(&db, backend, &table.name).await;
        assert!(!types.is_empty(), "table {} was dropped by an upgrade: say where its rows went here", table.name);
        for row in &table.rows {
            // Columns a later migration dropped are left out; a renamed one fails here.
            let same = if backend == Backend::Postgres { "IS NOT DISTINCT FROM" } else { "IS" };
            let conditions: Vec<String> = table
                .columns
                .iter()
                .zip(row)
                .filter(|(c, _)| types.contains_key(*c))
                .map(|(c, v)| format!("\"{c}\" {same} {}", literal(backend, &types[c], v)))
                .collect();
            let sql = format!("SELECT COUNT(*) FROM \"{}\" WHERE {}", table.name, conditions.join(" AND "));
            let found: i64 = sqlx::query_scalar(&sql).fetch_one(db.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
            assert_eq!(found, 1, "a row of {} is still there after the upgrade: {row:?}", table.name);
        }
    }
    db
}

/// After the upgrade: `vonk check` passes and the site takes a member's message and a payment.
async fn upgraded_site_works(db: &Db, media: &std::path::Path) {
    let report = backup::check(db, Some(media)).await.unwrap();
    assert!(report.is_clean(), "vonk check after the upgrade: {report:?}");
    server::reference_data::sync(db).await.unwrap();
    let w = world(db.clone()).await;
    let anna = w.member("na-de-upgrade@example.nl", "female").await;
    let (member_id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'ruben@example.nl'").fetch_one(db.pool()).await.unwrap();
    let ruben = w.reload(member_id).await;
    assert!(ruben.credits > 0, "the member kept his credits");
    let chat = Chat::new(w.members.clone(), Bus::start(db.clone(), "sqlite://unused"));
    chat.send(&w.site, &ruben, To::Member(anna.id), "client-id-900001", Content::Text("Nog steeds hier".into()), NOW).await.unwrap();
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    paid_checkout(&w, &p, &anna).await;
    assert!(backup::check(db, Some(media)).await.unwrap().unexplained_balances.is_empty());
}

fn payments(w: &support::world::World, sms: &std::path::Path) -> Payments {
    let provider = Provider::Test(server::payments::test_provider::TestProvider::new(w.db.clone(), support::links()));
    Payments::new(w.db.clone(), provider, w.accounts.clone(), support::links(), SmsOutbox::Files(sms.to_path_buf()), "http://127.0.0.1:9".into())
}

async fn paid_checkout(w: &support::world::World, p: &Payments, buyer: &server::accounts::Member) -> i64 {
    let pack = p.packs(w.site.settings.id, "NL").await.unwrap()[0].id;
    let started = p.start_checkout(&w.site, buyer, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    let (tr,): (String,) = sqlx::query_as("SELECT provider_id FROM payments WHERE id = $1").bind(started.payment_id).fetch_one(w.db.pool()).await.unwrap();
    p.test_provider().unwrap().choose(&tr, PaymentStatus::Paid).await.unwrap();
    p.webhook("test", &tr, NOW).await.unwrap();
    started.payment_id
}

#[tokio::test]
async fn a_sqlite_site_on_the_released_schema_upgrades_with_every_row() {
    if std::env::var_os("UPDATE_UPGRADE_FIXTURE").is_some() {
        write_fixture().await;
    }
    let dir = tempfile::tempdir().unwrap();
    let media = dir.path().join("media");
    let db = upgrade(Backend::Sqlite, &format!("sqlite://{}/vonk.db", dir.path().display()), &media).await;
    let broken: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check").fetch_all(db.pool()).await.unwrap();
    assert!(broken.is_empty(), "rows point at rows that are gone: {broken:?}");
    upgraded_site_works(&db, &media).await;
}

#[tokio::test]
async fn a_postgresql_site_on_the_released_schema_upgrades_with_every_row() {
    let cluster = support::PgCluster::start();
    let dir = tempfile::tempdir().unwrap();
    let media = dir.path().join("media");
    let db = upgrade(Backend::Postgres, &cluster.url, &media).await;
    upgraded_site_works(&db, &media).await;
}

/// Fills a site at this build's schema through the services (and direct rows where no service
/// here writes), and writes every table's rows as the fixture.
async fn write_fixture() {
    let (db, _dir) = support::sqlite().await;
    let w = world(db.clone()).await;
    server::members::demo::seed_demo_members(&db, None, 6, NOW).await.unwrap();
    let ruben = w.member("ruben@example.nl", "male").await;
    let sanne = w.member("sanne@example.nl", "female").await;
    let eva = w.member("eva@example.nl", "female").await;
    let mut tx = db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: ruben.id, delta: 40, reason: Reason::Adjustment, reference: "adjustment:welcome" }, NOW).await.unwrap();
    tx.commit().await.unwrap();
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    paid_checkout(&w, &p, &ruben).await;
    let ruben = w.reload(ruben.id).await;

    let likes = Likes::new(w.members.clone());
    likes.like(&w.site, &ruben, sanne.id, LikeSource::Profile, NOW).await.unwrap();
    likes.like(&w.site, &sanne, ruben.id, LikeSource::Search, NOW + 60).await.unwrap();
    likes.pass(eva.id, ruben.id, NOW + 90).await.unwrap();
    w.members.block(&w.site, eva.id, ruben.id, NOW + 120).await.unwrap();

    let chat = Chat::new(w.members.clone(), Bus::start(db.clone(), "sqlite://unused"));
    chat.send(&w.site, &ruben, To::Member(sanne.id), "client-id-000001", Content::Text("Hoi Sanne, zin in koffie?".into()), NOW + 200).await.unwrap();
    chat.send(&w.site, &sanne, To::Member(ruben.id), "client-id-000002", Content::Text("Leuk! Zaterdag?".into()), NOW + 260).await.unwrap();
    chat.send(&w.site, &ruben, To::Member(sanne.id), "client-id-000003", Content::Photo("chat/1/fixture.jpg".into()), NOW + 300).await.unwrap();

    fill_the_rest(&db, &w, ruben.id, sanne.id, eva.id).await;
    assert!(credits::reconcile(&db).await.unwrap().is_empty());

    let backend = Backend::Sqlite;
    let mut order: Vec<String> = Vec::new();
    let mut left: Vec<String> = tables(&db, backend).await.into_iter().collect();
    while !left.is_empty() {
        let mut progressed = false;
        for table in left.clone() {
            let parents: Vec<String> = sqlx::query_scalar("SELECT \"table\" FROM pragma_foreign_key_list($1)").bind(&table).fetch_all(db.pool()).await.unwrap();
            if parents.iter().all(|p| p == &table || order.contains(p)) {
                order.push(table.clone());
                left.retain(|t| t != &table);
                progressed = true;
            }
        }
        assert!(progressed, "foreign keys in a circle: {left:?}");
    }
    let mut fx = Fixture { schema_version: backup::newest_schema(backend), tables: Vec::new() };
    for name in order {
        let columns: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid").bind(&name).fetch_all(db.pool()).await.unwrap();
        let quoted: Vec<String> = columns.iter().map(|c| format!("quote(\"{c}\")")).collect();
        let sql = format!("SELECT json_array({}) FROM \"{name}\" ORDER BY rowid", quoted.join(", "));
        let rows: Vec<String> = sqlx::query_scalar(&sql).fetch_all(db.pool()).await.unwrap();
        let rows: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                serde_json::from_str::<Vec<serde_json::Value>>(r)
                    .unwrap()
                    .into_iter()
                    .map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()))
                    .collect()
            })
            .collect();
        fx.tables.push(Table { name, columns, rows });
    }
    let empty: Vec<&str> = fx.tables.iter().filter(|t| t.rows.is_empty()).map(|t| t.name.as_str()).collect();
    assert!(empty.is_empty(), "every table needs rows in the fixture: {empty:?}");
    std::fs::create_dir_all(std::path::Path::new(FIXTURE).parent().unwrap()).unwrap();
    std::fs::write(FIXTURE, serde_json::to_string_pretty(&fx).unwrap() + "\n").unwrap();
}

/// Direct rows for the tables the services above leave empty.
async fn fill_the_rest(db: &Db, w: &support::world::World, ruben: i64, sanne: i64, eva: i64) {
    let site = w.site.settings.id;
    let session: String = sqlx::query_scalar("SELECT token_hash FROM sessions WHERE user_id = $1 LIMIT 1").bind(ruben).fetch_one(db.pool()).await.unwrap();
    let pack: i64 = sqlx::query_scalar("SELECT id FROM credit_packs ORDER BY id LIMIT 1").fetch_one(db.pool()).await.unwrap();
    let payment: i64 = sqlx::query_scalar("SELECT id FROM payments ORDER BY id LIMIT 1").fetch_one(db.pool()).await.unwrap();
    let conversation: i64 = sqlx::query_scalar("SELECT id FROM conversations ORDER BY id LIMIT 1").fetch_one(db.pool()).await.unwrap();
    let rows: Vec<String> = vec![
        format!("INSERT INTO photos (user_id, filename, thumb_filename, status, private, created_at, width, height, reviewed_by, reviewed_at) VALUES ({sanne}, 'photos/{sanne}/1-k3v9q2.jpg', 'photos/{sanne}/1-k3v9q2-thumb.jpg', 'active', 0, {NOW}, 1080, 1350, NULL, {})", NOW + 400),
        format!("INSERT INTO photos (user_id, filename, thumb_filename, status, private, created_at, width, height) VALUES ({sanne}, 'photos/{sanne}/2-p8z1m4.jpg', 'photos/{sanne}/2-p8z1m4-thumb.jpg', 'under_inspection', 1, {NOW}, 900, 1200)"),
        format!("INSERT INTO media_trash (key) VALUES ('photos/{eva}/3-gone.jpg')"),
        format!("INSERT INTO rate_counters (name, subject, window_start, hits) VALUES ('login', 'ip:203.0.113.7', {NOW}, 3)"),
        format!("INSERT INTO address_attempts (site_id, address_hash, kind, uses, since, locked_until) VALUES ({site}, '5e1f0c9a2b7d4e38', 'login', 2, {NOW}, NULL)"),
        format!("INSERT INTO alert_dismissals (user_id, alert, dismissed_at) VALUES ({ruben}, 'push', {NOW})"),
        format!("INSERT INTO like_mails (to_user, from_user, mailed_at) VALUES ({sanne}, {ruben}, {NOW})"),
        format!("INSERT INTO notifications_disabled (user_id, reason, created_at) VALUES ({eva}, 'list_unsubscribe', {NOW})"),
        format!("INSERT INTO page_bounces (site_id, lander, slug, network, ref, sub1, sub2, sub3, created_at) VALUES ({site}, 'lb', 'vrouwen-zoeken-mannen', 'tradedoubler', 'nieuwsbrief', 'nov', NULL, NULL, {NOW})"),
        format!("INSERT INTO recovery_codes (user_id, code_hash, used_at) VALUES ({ruben}, 'b94d27b9934d3e08a52e52d7da7dabfa', NULL)"),
        format!("INSERT INTO security_events (user_id, kind, ip, country, user_agent, created_at) VALUES ({ruben}, 'login', '203.0.113.7', 'NL', 'Mozilla/5.0 (iPhone)', {NOW})"),
        format!("INSERT INTO site_logos (site_id, png, width, height) VALUES ({site}, X'89504E470D0A1A0A', 240, 80)"),
        format!("INSERT INTO staff_actions (site_id, staff_id, staff_name, action, target, detail, created_at) VALUES ({site}, NULL, 'Beheer', 'member_blocked', 'member #{eva}', 'nep-profiel', {NOW})"),
        format!("INSERT INTO complaints (site_id, reference, created_at, language, name, email, category, concerning, body, reporter_id, member_id, conversation_id, status, handled_by, handled_at, mailed_at) VALUES ({site}, 'K-7Q2M9XRA', {NOW}, 'nl', 'Sanne', 'sanne@example.nl', 'member', 'Ruben', 'Stuurt te veel berichten.', {sanne}, {ruben}, {conversation}, 'open', NULL, NULL, {NOW})"),
        format!("INSERT INTO direct_debits (user_id, pack_id, iban, phone, code_hash, attempts, discount_code, created_at, expires_at, payment_id) VALUES ({ruben}, {pack}, 'NL91ABNA0417164300', '+31612345678', '2c26b46b68ffc68f', 1, NULL, {NOW}, {}, {payment})", NOW + 900),
        format!("INSERT INTO push_subscriptions (user_id, session_hash, endpoint, p256dh, auth, created_at) VALUES ({ruben}, '{session}', 'https://fcm.googleapis.com/fcm/send/abc123', 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', 'tBHItJI5svbpez7KI4CCXg', {NOW})"),
    ];
    for sql in rows {
        sqlx::query(&sql).execute(db.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}
