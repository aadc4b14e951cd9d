//! Backups, restores and checks (`server::backup`, the `vonk backup|restore|check` commands):
//! a backup taken while members chat and buy restores whole; a damaged, changed or newer backup
//! is refused; `check` finds what a restore can lose; the schedule keeps its newest backups.

use crate::support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use server::backup::{self, Manifest};
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::db::Backend;
use server::payments::provider::Provider;
use server::payments::{sms::SmsOutbox, Payments};
use server::Db;
use support::world::{world, World, NOW};

async fn fund(w: &World, id: i64, credits: i64) {
    let mut tx = w.db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: id, delta: credits, reason: Reason::Adjustment, reference: &format!("adjustment:test:{id}") }, NOW).await.unwrap();
    tx.commit().await.unwrap();
}

fn payments(w: &World, sms: &std::path::Path) -> Payments {
    let provider = Provider::Test(server::payments::test_provider::TestProvider::new(w.db.clone(), support::links()));
    Payments::new(w.db.clone(), provider, w.accounts.clone(), support::links(), SmsOutbox::Files(sms.to_path_buf()), "http://127.0.0.1:9".into())
}

async fn count(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sql).fetch_one(db.pool()).await.unwrap()
}

/// Ten members chat and ten buy credits without pause while the backup is taken. Every message
/// whose send had returned before the backup began is in the restored database, every balance
/// is explained by the ledger there, the restored site's files pass `check`, and the row
/// counts match the manifest.
#[tokio::test]
async fn a_backup_taken_while_twenty_clients_write_restores_whole() {
    let (db, dir) = support::sqlite().await;
    let w = Arc::new(world(db.clone()).await);
    let chat = Chat::new(w.members.clone(), Bus::start(db.clone(), "sqlite://unused"));
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let pack = p.packs(w.site.settings.id, "NL").await.unwrap()[0].id;
    // A stored chat photo, so the media travel too.
    std::fs::create_dir_all(w.media.path().join("chat/1")).unwrap();
    std::fs::write(w.media.path().join("chat/1/a.jpg"), b"jpeg bytes").unwrap();

    let mut writers = Vec::new();
    let mut buyers = Vec::new();
    for i in 0..10 {
        let m = w.member(&format!("schrijver{i}@example.nl"), "male").await;
        fund(&w, m.id, 100_000).await;
        writers.push(w.reload(m.id).await);
        buyers.push(w.member(&format!("koper{i}@example.nl"), "female").await);
    }
    let peer = w.member("lezer@example.nl", "female").await;
    let acked: Arc<Mutex<Vec<i64>>> = Arc::default();
    let paid: Arc<Mutex<Vec<i64>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = tokio::task::JoinSet::new();
    for (i, writer) in writers.into_iter().enumerate() {
        let (chat, w, acked, stop, peer) = (chat.clone(), w.clone(), acked.clone(), stop.clone(), peer.id);
        tasks.spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let sent = chat
                    .send(&w.site, &writer, To::Member(peer), &format!("client-id-{i:02}{n:06}"), Content::Text(format!("bericht {n}")), NOW)
                    .await
                    .unwrap();
                acked.lock().unwrap().push(sent.message.id);
                n += 1;
            }
        });
    }
    for buyer in buyers {
        let (p, w, paid, stop, db) = (p.clone(), w.clone(), paid.clone(), stop.clone(), db.clone());
        tasks.spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let started = p.start_checkout(&w.site, &buyer, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
                let (tr,): (String,) =
                    sqlx::query_as("SELECT provider_id FROM payments WHERE id = $1").bind(started.payment_id).fetch_one(db.pool()).await.unwrap();
                p.test_provider().unwrap().choose(&tr, PaymentStatus::Paid).await.unwrap();
                p.webhook("test", &tr, NOW).await.unwrap();
                paid.lock().unwrap().push(started.payment_id);
            }
        });
    }
    // Waits until both kinds of client have written (a loaded debug build can take seconds).
    let started = std::time::Instant::now();
    while acked.lock().unwrap().len() < 10 || paid.lock().unwrap().len() < 2 {
        assert!(started.elapsed() < std::time::Duration::from_secs(120), "the clients never got going");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let before: Vec<i64> = acked.lock().unwrap().clone();
    let paid_before: Vec<i64> = paid.lock().unwrap().clone();
    let dest = dir.path().join("backups/first");
    let manifest = backup::backup(&db, Some(w.media.path()), &dest, NOW).await.unwrap();
    // And goes on until both kinds of client wrote again after the backup finished.
    let (acked_at_end, paid_at_end) = (acked.lock().unwrap().len(), paid.lock().unwrap().len());
    while acked.lock().unwrap().len() <= acked_at_end || paid.lock().unwrap().len() <= paid_at_end {
        assert!(started.elapsed() < std::time::Duration::from_secs(240), "the clients stopped writing");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    stop.store(true, Ordering::Relaxed);
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
    assert!(before.len() >= 10 && paid_before.len() >= 2, "the clients were writing: {} messages, {} payments", before.len(), paid_before.len());
    assert!(acked.lock().unwrap().len() > before.len(), "and went on during the backup");

    // Restored into a new data directory: a database the site opens, whole.
    let data = dir.path().join("restored");
    let restored_manifest = backup::restore(&dest, &data, backup::newest_schema(Backend::Sqlite)).await.unwrap();
    assert_eq!(restored_manifest, manifest);
    let restored = Db::connect(&format!("sqlite://{}/vonk.db", data.display()), 2).await.unwrap();
    for id in &before {
        assert_eq!(count(&restored, &format!("SELECT COUNT(*) FROM messages WHERE id = {id}")).await, 1, "message {id} was acknowledged before the backup");
    }
    for id in &paid_before {
        assert_eq!(
            count(&restored, &format!("SELECT COUNT(*) FROM credit_ledger WHERE reference = 'payment:{id}'")).await,
            1,
            "payment {id} was booked before the backup"
        );
    }
    for (table, rows) in &manifest.tables {
        assert_eq!(count(&restored, &format!("SELECT COUNT(*) FROM \"{table}\"")).await, *rows, "{table}");
    }
    assert!(manifest.schema_version == backup::newest_schema(Backend::Sqlite) && manifest.tables["messages"] >= before.len() as i64);
    assert_eq!(std::fs::read(data.join("media/chat/1/a.jpg")).unwrap(), b"jpeg bytes");
    let report = backup::check(&restored, Some(&data.join("media"))).await.unwrap();
    assert!(report.unexplained_balances.is_empty(), "{report:?}");
    restored.close().await;

    // A restore only fills an empty data directory.
    let again = backup::restore(&dest, &data, backup::newest_schema(Backend::Sqlite)).await.unwrap_err().to_string();
    assert!(again.contains("not empty"), "{again}");
    // The backup folder was new: a second backup into it is refused.
    assert!(backup::backup(&db, None, &dest, NOW).await.is_err());
}

/// Copies a finished backup, lets `damage` change the copy, and answers the restore's refusal
/// (after checking that it left nothing behind: no data directory, no half-restored folder).
async fn refusal(src: &std::path::Path, work: &std::path::Path, name: &str, damage: impl FnOnce(&std::path::Path)) -> String {
    let copy = work.join(name);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in walk(src) {
        let target = copy.join(entry.strip_prefix(src).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &target).unwrap();
    }
    damage(&copy);
    let data = work.join(format!("{name}-data"));
    let error = backup::restore(&copy, &data, backup::newest_schema(Backend::Sqlite)).await.expect_err(name).to_string();
    assert!(!data.exists(), "{name}: nothing restored");
    assert!(!work.join(format!(".{name}-data.restoring")).exists(), "{name}: nothing half-restored left");
    error
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// A backup (`dir/good`) of a SQLite site whose media hold `file`, and a folder to work in
/// (`dir/work`).
async fn sqlite_backup_holding(db: &Db, dir: &std::path::Path, file: &str, bytes: &[u8]) -> (std::path::PathBuf, std::path::PathBuf) {
    let w = world(db.clone()).await;
    let path = w.media.path().join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
    let good = dir.join("good");
    backup::backup(db, Some(w.media.path()), &good, NOW).await.unwrap();
    (good, dir.join("work"))
}

#[tokio::test]
async fn a_damaged_changed_unfinished_or_newer_backup_is_refused() {
    let (db, dir) = support::sqlite().await;
    let (good, work) = sqlite_backup_holding(&db, dir.path(), "photos/1/1-x.jpg", b"a photo").await;

    let flipped = refusal(&good, &work, "flipped", |b| {
        let path = b.join("vonk.db");
        let mut bytes = std::fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x55;
        std::fs::write(path, bytes).unwrap();
    })
    .await;
    assert!(flipped.contains("vonk.db does not match the manifest"), "{flipped}");
    let missing = refusal(&good, &work, "missing", |b| std::fs::remove_file(b.join("media/photos/1/1-x.jpg")).unwrap()).await;
    assert!(missing.contains("media/photos/1/1-x.jpg is missing"), "{missing}");
    let added = refusal(&good, &work, "added", |b| std::fs::write(b.join("media/extra.jpg"), b"?").unwrap()).await;
    assert!(added.contains("media/extra.jpg is not in the manifest"), "{added}");
    let unfinished = refusal(&good, &work, "unfinished", |b| std::fs::remove_file(b.join("manifest.json")).unwrap()).await;
    assert!(unfinished.contains("no readable manifest"), "{unfinished}");
    let newer = refusal(&good, &work, "newer", |b| {
        let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(b.join("manifest.json")).unwrap()).unwrap();
        manifest.schema_version += 1;
        std::fs::write(b.join("manifest.json"), serde_json::to_vec(&manifest).unwrap()).unwrap();
    })
    .await;
    assert!(newer.contains("newer version"), "{newer}");
    let outside = refusal(&good, &work, "outside", |b| {
        let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(b.join("manifest.json")).unwrap()).unwrap();
        manifest.files[0].path = "../../etc/passwd".into();
        std::fs::write(b.join("manifest.json"), serde_json::to_vec(&manifest).unwrap()).unwrap();
    })
    .await;
    assert!(outside.contains("outside the backup"), "{outside}");
    // The untouched backup still restores.
    backup::restore(&good, &work.join("fine"), backup::newest_schema(Backend::Sqlite)).await.unwrap();
}

#[tokio::test]
async fn check_finds_unexplained_balances_missing_photos_and_stray_files() {
    let (db, _dir) = support::sqlite().await;
    let w = world(db.clone()).await;
    let anna = w.member("anna@example.nl", "female").await;
    let media = w.media.path();
    assert!(backup::check(&db, Some(media)).await.unwrap().is_clean());

    sqlx::query("INSERT INTO photos (user_id, filename, thumb_filename, status, private, created_at, width, height) VALUES ($1, 'photos/1/9-a.jpg', 'photos/1/9-a-thumb.jpg', $3, FALSE, $2, 10, 10)").bind(anna.id).bind(NOW).bind(domain::photo::PhotoStatus::Active.code()).execute(db.pool()).await.unwrap();
    std::fs::create_dir_all(media.join("photos/1")).unwrap();
    std::fs::write(media.join("photos/1/9-a.jpg"), b"full").unwrap();
    // A photo's WebP copy belongs to it (and photos stored before copies were made have none).
    std::fs::write(media.join("photos/1/9-a.webp"), b"full").unwrap();
    std::fs::write(media.join("photos/1/stray.jpg"), b"?").unwrap();
    std::fs::write(media.join("photos/1/trashed.jpg"), b"?").unwrap();
    sqlx::query("INSERT INTO media_trash (key) VALUES ('photos/1/trashed.jpg')").execute(db.pool()).await.unwrap();
    sqlx::query("UPDATE users SET credits = credits + 5 WHERE id = $1").bind(anna.id).execute(db.pool()).await.unwrap();

    let report = backup::check(&db, Some(media)).await.unwrap();
    assert_eq!(report.missing_files, vec!["photos/1/9-a-thumb.jpg".to_string()]);
    assert_eq!(report.orphan_files, vec!["photos/1/stray.jpg".to_string()], "a file waiting in the trash is no stray");
    assert_eq!(report.unexplained_balances.iter().map(|m| (m.user_id, m.credits - m.ledger_sum)).collect::<Vec<_>>(), vec![(anna.id, 5)]);
    assert!(!report.is_clean());
}

#[tokio::test]
async fn on_postgresql_a_backup_holds_the_media_only() {
    let cluster = support::PgCluster::start();
    let db = cluster.db().await;
    let media = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(media.path().join("chat/2")).unwrap();
    std::fs::write(media.path().join("chat/2/b.jpg"), b"photo").unwrap();
    let dest = tempfile::tempdir().unwrap();
    let manifest = backup::backup(&db, Some(media.path()), &dest.path().join("b"), NOW).await.unwrap();
    assert_eq!((manifest.backend.as_str(), manifest.schema_version, manifest.tables.len()), ("postgres", 0, 0));
    assert_eq!(manifest.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec!["media/chat/2/b.jpg"]);
    db.close().await;
}

#[tokio::test]
async fn the_schedule_keeps_the_newest_backups_and_reports_a_failure() {
    let (db, dir) = support::sqlite().await;
    let schedule = backup::Schedule { dir: dir.path().join("scheduled"), every: std::time::Duration::from_secs(3600), keep: 2 };
    std::fs::create_dir_all(&schedule.dir).unwrap();
    std::fs::create_dir_all(schedule.dir.join("handmade")).unwrap();
    for hour in 0..4 {
        backup::run_scheduled(&db, None, &schedule, NOW + hour * 3600).await.unwrap();
    }
    let mut names: Vec<String> = std::fs::read_dir(&schedule.dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    names.sort();
    assert_eq!(names, vec!["handmade".to_string(), backup::scheduled_name(NOW + 2 * 3600), backup::scheduled_name(NOW + 3 * 3600)]);
    assert_eq!(backup::status().last_success_at, Some(NOW + 3 * 3600));

    // The same second again: the folder exists, the run fails and says so.
    assert!(backup::run_scheduled(&db, None, &schedule, NOW + 3 * 3600).await.is_err());
    let status = backup::status();
    assert!(status.last_failure.as_ref().is_some_and(|(at, why)| *at == NOW + 3 * 3600 && why.contains("exists already")), "{status:?}");
    backup::run_scheduled(&db, None, &schedule, NOW + 4 * 3600).await.unwrap();
    assert_eq!(backup::status().last_failure, None);
}

/// Lists `path` (relative to the backup `b`) in its manifest with the file's real size and
/// SHA-256, as someone crafting a backup would, so only the restore's own rules can refuse it.
fn relist(b: &std::path::Path, path: &str, content: &[u8]) {
    use sha2::Digest;
    let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(b.join("manifest.json")).unwrap()).unwrap();
    manifest.files.retain(|f| f.path != path);
    let sha256 = sha2::Sha256::digest(content).iter().map(|b| format!("{b:02x}")).collect::<String>();
    manifest.files.push(backup::FileEntry { path: path.into(), bytes: content.len() as u64, sha256 });
    std::fs::write(b.join("manifest.json"), serde_json::to_vec(&manifest).unwrap()).unwrap();
}

/// The attacks on a restore that a backup's own checksums cannot stop, tried on `good` (a
/// backup holding `media/public/p.jpg`): each is refused, names what it found, and leaves no
/// data directory and no half-restored folder behind.
async fn crafted_backups_are_refused(good: &std::path::Path, work: &std::path::Path) {
    let secret = work.join("root-only.txt");
    std::fs::create_dir_all(work).unwrap();
    std::fs::write(&secret, b"password hashes").unwrap();

    let link = refusal(good, work, "file-link", |b| {
        std::os::unix::fs::symlink(&secret, b.join("media/public/leak.txt")).unwrap();
        relist(b, "media/public/leak.txt", b"password hashes");
    })
    .await;
    assert!(link.contains("media/public/leak.txt is a symbolic link"), "{link}");

    let elsewhere = work.join("elsewhere");
    let folder = refusal(good, work, "folder-link", |b| {
        std::fs::rename(b.join("media"), &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, b.join("media")).unwrap();
    })
    .await;
    assert!(folder.contains("media is a symbolic link"), "{folder}");

    let hard = refusal(good, work, "hard-link", |b| {
        std::fs::hard_link(&secret, b.join("media/public/twin.txt")).unwrap();
        relist(b, "media/public/twin.txt", b"password hashes");
    })
    .await;
    assert!(hard.contains("media/public/twin.txt is a hard link"), "{hard}");

    let pipe = refusal(good, work, "pipe", |b| {
        let made = std::process::Command::new("mkfifo").arg(b.join("media/public/pipe")).status().unwrap();
        assert!(made.success());
    })
    .await;
    assert!(pipe.contains("media/public/pipe is a pipe"), "{pipe}");

    let manifest_link = refusal(good, work, "manifest-link", |b| {
        std::fs::rename(b.join("manifest.json"), b.join("../real-manifest.json")).unwrap();
        std::os::unix::fs::symlink(b.join("../real-manifest.json"), b.join("manifest.json")).unwrap();
    })
    .await;
    assert!(manifest_link.contains("no readable manifest"), "{manifest_link}");

    for (name, path) in [("dotdot", "media/../../root-only.txt"), ("absolute", "/etc/passwd"), ("beside", "mail/1.eml")] {
        let outside = refusal(good, work, name, |b| relist(b, path, b"x")).await;
        assert!(outside.contains("outside the backup"), "{name}: {outside}");
    }

    let unfinished = refusal(good, work, "no-manifest", |b| std::fs::remove_file(b.join("manifest.json")).unwrap()).await;
    assert!(unfinished.contains("no readable manifest"), "{unfinished}");

    // A folder given by a link of its own (`latest` → a dated backup) is fine: only what is
    // inside must be plain.
    let latest = work.join("latest");
    std::os::unix::fs::symlink(good, &latest).unwrap();
    let restored = work.join("restored");
    backup::restore(&latest, &restored, backup::newest_schema(Backend::Sqlite)).await.unwrap();
    assert_eq!(std::fs::read(restored.join("media/public/p.jpg")).unwrap(), b"portrait");
    use std::os::unix::fs::PermissionsExt;
    for path in [restored.clone(), restored.join("media"), restored.join("media/public"), restored.join("media/public/p.jpg")] {
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o077, 0, "{} is the site's alone", path.display());
    }
}

#[tokio::test]
async fn crafted_sqlite_backups_are_refused_and_leave_nothing_behind() {
    let (db, dir) = support::sqlite().await;
    let (good, work) = sqlite_backup_holding(&db, dir.path(), "public/p.jpg", b"portrait").await;
    crafted_backups_are_refused(&good, &work).await;

    // A database cut short: refused by its checksum, and — listed anew, as a crafted backup
    // would be — by SQLite's integrity check, its schema and its row counts.
    let cut = |b: &std::path::Path| {
        let bytes = std::fs::read(b.join("vonk.db")).unwrap();
        std::fs::write(b.join("vonk.db"), &bytes[..bytes.len() / 2]).unwrap();
    };
    let truncated = refusal(&good, &work, "truncated", cut).await;
    assert!(truncated.contains("vonk.db does not match the manifest"), "{truncated}");
    let relisted = refusal(&good, &work, "truncated-relisted", |b| {
        cut(b);
        relist(b, "vonk.db", &std::fs::read(b.join("vonk.db")).unwrap());
    })
    .await;
    assert!(relisted.contains("the database in the backup is damaged"), "{relisted}");
    let empty = refusal(&good, &work, "swapped", |b| {
        std::fs::write(b.join("vonk.db"), b"").unwrap();
        relist(b, "vonk.db", b"");
    })
    .await;
    assert!(empty.contains("the database in the backup is damaged"), "{empty}");
    let dropped = refusal(&good, &work, "no-database", |b| {
        std::fs::remove_file(b.join("vonk.db")).unwrap();
        let mut manifest: Manifest = serde_json::from_slice(&std::fs::read(b.join("manifest.json")).unwrap()).unwrap();
        manifest.files.retain(|f| f.path != "vonk.db");
        std::fs::write(b.join("manifest.json"), serde_json::to_vec(&manifest).unwrap()).unwrap();
    })
    .await;
    assert!(dropped.contains("lacks a database"), "{dropped}");

    // The backup itself is the owner's alone: folder, database, media and manifest.
    use std::os::unix::fs::PermissionsExt;
    for path in [good.clone(), good.join("vonk.db"), good.join("manifest.json"), good.join("media/public"), good.join("media/public/p.jpg")] {
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o077, 0, "{} is the site's alone", path.display());
    }
}

#[tokio::test]
async fn crafted_postgresql_backups_are_refused_and_leave_nothing_behind() {
    let cluster = support::PgCluster::start();
    let db = cluster.db().await;
    let dir = tempfile::tempdir().unwrap();
    let media = dir.path().join("media");
    std::fs::create_dir_all(media.join("public")).unwrap();
    std::fs::write(media.join("public/p.jpg"), b"portrait").unwrap();
    let good = dir.path().join("good");
    let manifest = backup::backup(&db, Some(&media), &good, NOW).await.unwrap();
    assert_eq!(manifest.backend, "postgres");
    let work = dir.path().join("work");
    crafted_backups_are_refused(&good, &work).await;
    // A media-only backup that grew a database file is not what was made.
    let grown = refusal(&good, &work, "grown", |b| {
        std::fs::write(b.join("vonk.db"), b"SQLite format 3\0").unwrap();
        relist(b, "vonk.db", b"SQLite format 3\0");
    })
    .await;
    assert!(grown.contains("holds a database"), "{grown}");
    db.close().await;
}
