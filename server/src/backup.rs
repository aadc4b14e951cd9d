//! Backups, restores and checks of a site's data directory (`vonk backup|restore|check`).
//!
//! A backup is a folder: `vonk.db`, a consistent copy of the SQLite database made while the site
//! serves (`VACUUM INTO`: one read transaction, writers go on), the media files under
//! `media/`, and `manifest.json` (time, schema version, row counts per table, size and SHA-256 of
//! every file), written last. The folder is built beside its final name and renamed into place,
//! so a folder with that name is always whole. On PostgreSQL the database is backed up with
//! the operator's tools (`pg_dump`, point-in-time recovery); the backup then holds the media.
//!
//! A restore checks every file against the manifest and refuses a damaged backup or one made by
//! a newer schema, and only fills an empty data directory.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{ConnectOptions, Connection, Row};

use crate::db::{Backend, Db};
use crate::error::AppError;

pub const MANIFEST: &str = "manifest.json";
/// The database file in a backup and in a data directory.
pub const DATABASE_FILE: &str = "vonk.db";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The manifest's own format.
    pub format: u32,
    /// Unix seconds when the database copy was taken.
    pub created_at: i64,
    /// `sqlite`, or `postgres` (then the backup holds the media only).
    pub backend: String,
    /// The newest migration the database had run (0 without a database copy).
    pub schema_version: i64,
    /// Rows per table in the copy.
    pub tables: BTreeMap<String, i64>,
    /// Every file of the backup but the manifest, by path relative to the backup.
    pub files: Vec<FileEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

fn internal(what: impl std::fmt::Display) -> AppError {
    AppError::Internal(what.to_string())
}

fn sha256_hex(bytes: &[u8]) -> String {
    crate::accounts::tokens::hex(&Sha256::digest(bytes))
}

/// The newest migration this build knows: a backup from a newer schema is refused.
pub fn newest_schema(backend: Backend) -> i64 {
    crate::db::migrator(backend).iter().map(|m| m.version).max().unwrap_or(0)
}

/// Takes a backup into `dest` (which must not exist yet). `media_dir` is the local media
/// folder (`DATA_DIR/media`), or None when photos live in a bucket.
pub async fn backup(db: &Db, media_dir: Option<&Path>, dest: &Path, now: i64) -> Result<Manifest, AppError> {
    if dest.exists() {
        return Err(internal(format!("{} exists already: a backup goes into a new folder", dest.display())));
    }
    let parent = dest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    crate::files::create_private_dir_all(parent).map_err(|e| internal(format!("{}: {e}", parent.display())))?;
    let name = dest.file_name().ok_or_else(|| internal("a backup folder needs a name"))?.to_string_lossy().to_string();
    let staging = parent.join(format!(".{name}.partial"));
    let _ = tokio::fs::remove_dir_all(&staging).await;
    crate::files::create_private_dir_all(&staging).map_err(|e| internal(format!("{}: {e}", staging.display())))?;
    let result = fill(db, media_dir, &staging, now).await;
    match result {
        Ok(manifest) => {
            tokio::fs::rename(&staging, dest).await.map_err(|e| internal(format!("{}: {e}", dest.display())))?;
            Ok(manifest)
        }
        Err(error) => {
            let _ = tokio::fs::remove_dir_all(&staging).await;
            Err(error)
        }
    }
}

async fn fill(db: &Db, media_dir: Option<&Path>, staging: &Path, now: i64) -> Result<Manifest, AppError> {
    let mut manifest = Manifest { format: 1, created_at: now, backend: "postgres".into(), schema_version: 0, tables: BTreeMap::new(), files: Vec::new() };
    if db.backend() == Backend::Sqlite {
        manifest.backend = "sqlite".into();
        let copy = staging.join(DATABASE_FILE);
        let target = copy.to_str().ok_or_else(|| internal("the backup path is not UTF-8"))?.replace('\'', "''");
        // One read transaction on a pool connection: a snapshot, while writers go on (WAL).
        sqlx::query(&format!("VACUUM INTO '{target}'")).execute(db.pool()).await?;
        // SQLite makes the copy with the process's umask; a backup is the owner's alone.
        std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o600)).map_err(|e| internal(format!("{}: {e}", copy.display())))?;
        let (version, tables) = describe_sqlite(&copy).await?;
        manifest.schema_version = version;
        manifest.tables = tables;
    }
    // The media after the database: a photo stored meanwhile is an extra file (harmless, and
    // `vonk check` names it), never a row without its file.
    let media = media_dir.map(Path::to_path_buf);
    let staging_owned = staging.to_path_buf();
    manifest.files = tokio::task::spawn_blocking(move || -> Result<Vec<FileEntry>, AppError> {
        let mut files = Vec::new();
        let database = staging_owned.join(DATABASE_FILE);
        if database.is_file() {
            let bytes = std::fs::read(&database).map_err(|e| internal(format!("{}: {e}", database.display())))?;
            files.push(entry(DATABASE_FILE.to_string(), &bytes));
        }
        if let Some(media) = media.filter(|m| m.is_dir()) {
            files.extend(copy_tree(&media, &staging_owned, "media")?);
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    })
    .await
    .map_err(internal)??;
    let json = serde_json::to_vec_pretty(&manifest).map_err(internal)?;
    crate::files::write_private_new(&staging.join(MANIFEST), &json).map_err(|e| internal(format!("manifest: {e}")))?;
    Ok(manifest)
}

/// Schema version and row counts of a SQLite file, opened read-only; fails unless SQLite's
/// integrity check passes.
async fn describe_sqlite(file: &Path) -> Result<(i64, BTreeMap<String, i64>), AppError> {
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new().filename(file).read_only(true).connect().await?;
    let check: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut conn).await?;
    if check != "ok" {
        return Err(internal(format!("the database copy is damaged: {check}")));
    }
    let version: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success").fetch_one(&mut conn).await?;
    let names: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").fetch_all(&mut conn).await?;
    let mut tables = BTreeMap::new();
    for name in names {
        let count: i64 = sqlx::query(&format!("SELECT COUNT(*) FROM \"{}\"", name.replace('"', "\"\""))).fetch_one(&mut conn).await?.try_get(0)?;
        tables.insert(name, count);
    }
    conn.close().await?;
    Ok((version, tables))
}

fn walk(root: &Path) -> Result<Vec<PathBuf>, AppError> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| internal(format!("{}: {e}", dir.display())))? {
            let entry = entry.map_err(internal)?;
            let kind = entry.file_type().map_err(internal)?;
            if kind.is_dir() {
                dirs.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    Ok(out)
}

fn entry(path: String, bytes: &[u8]) -> FileEntry {
    FileEntry { path, bytes: bytes.len() as u64, sha256: sha256_hex(bytes) }
}

/// Copies the files under `from` to `root/prefix/…`, each read once for its copy and its
/// manifest entry (the entry's path is relative to `root`).
fn copy_tree(from: &Path, root: &Path, prefix: &str) -> Result<Vec<FileEntry>, AppError> {
    let mut entries = Vec::new();
    for file in walk(from)? {
        let rel = file.strip_prefix(from).map_err(internal)?;
        // A file being written (`.partial`) is not a stored file yet.
        if rel.extension().is_some_and(|e| e == "partial") {
            continue;
        }
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            // Deleted since the listing: not part of this backup.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(internal(format!("{}: {e}", file.display()))),
        };
        let path = format!("{prefix}/{}", rel.to_string_lossy().replace('\\', "/"));
        let target = root.join(&path);
        if let Some(dir) = target.parent() {
            crate::files::create_private_dir_all(dir).map_err(|e| internal(format!("{}: {e}", dir.display())))?;
        }
        crate::files::write_private_new(&target, &bytes).map_err(|e| internal(format!("{}: {e}", target.display())))?;
        entries.push(entry(path, &bytes));
    }
    Ok(entries)
}

/// Reads a backup's manifest and checks every file against it (present, same size and
/// SHA-256, nothing unlisted) and the schema against `newest_schema`. A backup holds folders
/// and plain files only: a symbolic or hard link, a device or a pipe anywhere in it, or a name
/// in the manifest that leaves the backup, refuses it.
pub fn verify(src: &Path, newest_schema: i64) -> Result<Manifest, AppError> {
    let Listing { src, manifest, ids } = listing(src, newest_schema)?;
    for entry in &manifest.files {
        read_checked(&src, entry, ids[entry.path.as_str()], None)?;
    }
    Ok(manifest)
}

/// A backup whose manifest and files agree on the names.
struct Listing {
    /// The backup's real folder.
    src: PathBuf,
    manifest: Manifest,
    /// Each listed file as the walk found it.
    ids: BTreeMap<String, crate::files::FileId>,
}

/// Reads the manifest and walks the backup; refuses it unless both agree on the names and the
/// backup holds folders and plain files only.
fn listing(src: &Path, newest_schema: i64) -> Result<Listing, AppError> {
    // The folder named on the command line may itself be a link (`latest` → a dated folder);
    // nothing inside it may.
    let src =
        std::fs::canonicalize(src).map_err(|e| internal(format!("{}: no readable manifest ({e}): not a Vonk backup, or an unfinished one", src.display())))?;
    let raw = crate::files::open_plain(&src.join(MANIFEST))
        .and_then(|(mut file, _)| {
            let mut raw = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut raw).map(|_| raw)
        })
        .map_err(|e| internal(format!("{}: no readable manifest ({e}): not a Vonk backup, or an unfinished one", src.display())))?;
    let manifest: Manifest = serde_json::from_slice(&raw).map_err(|e| internal(format!("the manifest is damaged: {e}")))?;
    if manifest.schema_version > newest_schema {
        return Err(internal(format!(
            "the backup comes from a newer version (schema {} > {newest_schema}): restore it with that version or a later one",
            manifest.schema_version
        )));
    }
    let mut listed = std::collections::BTreeSet::new();
    for entry in &manifest.files {
        let rel = Path::new(&entry.path);
        let plain = !entry.path.is_empty() && rel.components().all(|c| matches!(c, std::path::Component::Normal(_)));
        let ours = entry.path == DATABASE_FILE || entry.path.starts_with("media/");
        if !plain || !ours || entry.path.contains('\\') {
            return Err(internal(format!("the manifest names {:?}, outside the backup", entry.path)));
        }
        if !listed.insert(entry.path.as_str()) {
            return Err(internal(format!("the manifest names {} twice: the backup was changed", entry.path)));
        }
    }
    let has_database = listed.contains(DATABASE_FILE);
    match (manifest.backend.as_str(), has_database) {
        ("sqlite", true) | ("postgres", false) => {}
        (backend, _) => {
            return Err(internal(format!(
                "the manifest says {backend:?} but the backup {} a database: the backup was changed",
                if has_database { "holds" } else { "lacks" }
            )))
        }
    }
    let present =
        crate::files::plain_files(&src).map_err(|(path, kind)| internal(format!("{path} is {kind}: a backup holds plain files only, so it is refused")))?;
    let ids: BTreeMap<String, crate::files::FileId> = present.into_iter().filter(|(rel, _)| rel != MANIFEST).collect();
    for path in &listed {
        if !ids.contains_key(*path) {
            return Err(internal(format!("{path} is missing from the backup")));
        }
    }
    if let Some(extra) = ids.keys().find(|rel| !listed.contains(rel.as_str())) {
        return Err(internal(format!("{extra} is not in the manifest: the backup was changed")));
    }
    Ok(Listing { src, manifest, ids })
}

/// Reads one listed file of the backup — the very file the walk found (same device and inode,
/// opened without following a link) — checks its size and SHA-256 against the manifest, and
/// with `copy_to` writes what it read there (mode 0600), so a restore holds exactly the bytes
/// it checked.
fn read_checked(src: &Path, entry: &FileEntry, id: crate::files::FileId, copy_to: Option<&Path>) -> Result<(), AppError> {
    use std::io::{Read, Write};
    use std::os::unix::fs::MetadataExt;
    let changed = || internal(format!("{} changed while it was read: the backup is refused", entry.path));
    let (mut file, meta) = crate::files::open_plain(&src.join(&entry.path)).map_err(|e| internal(format!("{} is refused: {e}", entry.path)))?;
    if (meta.dev(), meta.ino()) != id {
        return Err(changed());
    }
    let mut out = match copy_to {
        Some(root) => {
            let target = root.join(&entry.path);
            if let Some(dir) = target.parent() {
                crate::files::create_private_dir_all(dir).map_err(|e| internal(format!("{}: {e}", dir.display())))?;
            }
            Some(crate::files::create_private_new(&target).map_err(|e| internal(format!("{}: {e}", target.display())))?)
        }
        None => None,
    };
    let mut hash = Sha256::new();
    let mut bytes = 0u64;
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = file.read(&mut buf).map_err(|e| internal(format!("{}: {e}", entry.path)))?;
        if n == 0 {
            break;
        }
        hash.update(&buf[..n]);
        bytes += n as u64;
        if let Some(out) = out.as_mut() {
            out.write_all(&buf[..n]).map_err(|e| internal(format!("{}: {e}", entry.path)))?;
        }
    }
    if bytes != entry.bytes || crate::accounts::tokens::hex(&hash.finalize()) != entry.sha256 {
        return Err(internal(format!("{} does not match the manifest: the backup is damaged", entry.path)));
    }
    if let Some(out) = out {
        out.sync_all().map_err(|e| internal(format!("{}: {e}", entry.path)))?;
    }
    Ok(())
}

/// Restores a verified backup into `data_dir`, which must be empty or missing. The files go
/// into a private folder beside it first (each read once: checked as it is copied), the
/// database copy must pass SQLite's integrity check with the manifest's schema and row counts,
/// and only then is the folder renamed into place: the data directory appears whole or not at
/// all, and a refusal leaves nothing behind.
pub async fn restore(src: &Path, data_dir: &Path, newest_schema: i64) -> Result<Manifest, AppError> {
    if data_dir.exists() && std::fs::read_dir(data_dir).map_err(internal)?.next().is_some() {
        return Err(internal(format!("{} is not empty: a restore goes into an empty data directory", data_dir.display())));
    }
    let Listing { src, manifest, ids } = listing(src, newest_schema)?;
    let parent = data_dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    crate::files::create_private_dir_all(parent).map_err(internal)?;
    let name = data_dir.file_name().ok_or_else(|| internal("the data directory needs a name"))?.to_string_lossy().to_string();
    let staging = parent.join(format!(".{name}.restoring"));
    let _ = std::fs::remove_dir_all(&staging);
    crate::files::create_private_dir_all(&staging).map_err(|e| internal(format!("{}: {e}", staging.display())))?;
    let filled = {
        let (src, staging, files) = (src.clone(), staging.clone(), manifest.files.clone());
        tokio::task::spawn_blocking(move || files.iter().try_for_each(|entry| read_checked(&src, entry, ids[entry.path.as_str()], Some(&staging))))
            .await
            .map_err(internal)
            .and_then(|r| r)
    };
    let checked = match filled {
        Ok(()) if manifest.backend == "sqlite" => check_database(&staging.join(DATABASE_FILE), &manifest).await,
        other => other,
    };
    if let Err(error) = checked {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(error);
    }
    if data_dir.exists() {
        std::fs::remove_dir(data_dir).map_err(internal)?;
    }
    std::fs::rename(&staging, data_dir).map_err(|e| internal(format!("{}: {e}", data_dir.display())))?;
    Ok(manifest)
}

/// The restored database opens, passes SQLite's integrity check, and has the schema and the
/// row counts the manifest recorded (a truncated or swapped copy with a matching checksum
/// fails here).
async fn check_database(file: &Path, manifest: &Manifest) -> Result<(), AppError> {
    let damaged = |why: String| internal(format!("the database in the backup is damaged: {why}"));
    let (version, tables) = describe_sqlite(file).await.map_err(|e| damaged(e.to_string()))?;
    if version != manifest.schema_version || tables != manifest.tables {
        return Err(damaged("its schema or row counts differ from the manifest".into()));
    }
    // The read-only look may leave a journal file: the data directory gets the database only.
    for extra in ["-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{extra}", file.display()));
    }
    Ok(())
}

/// What `vonk check` found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckReport {
    /// Members whose balance the ledger does not explain.
    pub unexplained_balances: Vec<crate::credits::Mismatch>,
    /// Stored-photo keys a row names whose file is missing (local media only).
    pub missing_files: Vec<String>,
    /// Files in the private media folder that no row names (and that are not waiting in the
    /// trash to be deleted).
    pub orphan_files: Vec<String>,
    /// In the data directory: links, devices and pipes (the site serves media from disk: a link
    /// there could hand out a file from elsewhere), and modes that let others in.
    pub data_dir: crate::files::Findings,
}

impl CheckReport {
    pub fn is_clean(&self) -> bool {
        self.unexplained_balances.is_empty() && self.missing_files.is_empty() && self.orphan_files.is_empty() && self.data_dir.is_clean()
    }
}

/// Reconciles the ledger and, with local media (`private_media`, the private photo folder),
/// compares the photo rows with the files.
pub async fn check(db: &Db, private_media: Option<&Path>) -> Result<CheckReport, AppError> {
    let mut report = CheckReport { unexplained_balances: crate::credits::reconcile(db).await?, ..CheckReport::default() };
    let Some(root) = private_media else { return Ok(report) };
    let mut named: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for sql in ["SELECT filename FROM photos", "SELECT thumb_filename FROM photos", "SELECT photo_key FROM messages WHERE photo_key IS NOT NULL"] {
        named.extend(sqlx::query_scalar::<_, String>(sql).fetch_all(db.pool()).await?);
    }
    // A photo's WebP copies belong to it; photos stored before there were copies have none.
    let copies: std::collections::BTreeSet<String> = named.iter().filter_map(|k| crate::members::photos::webp_key(k)).collect();
    let trashed: std::collections::BTreeSet<String> =
        sqlx::query_scalar::<_, String>("SELECT key FROM media_trash").fetch_all(db.pool()).await?.into_iter().collect();
    let root = root.to_path_buf();
    let files: Vec<String> = if root.is_dir() {
        let base = root.clone();
        tokio::task::spawn_blocking(move || -> Result<Vec<String>, AppError> {
            Ok(walk(&base)?
                .into_iter()
                .filter_map(|p| p.strip_prefix(&base).ok().map(|r| r.to_string_lossy().replace('\\', "/")))
                .filter(|r| !r.ends_with(".partial"))
                .collect())
        })
        .await
        .map_err(internal)??
    } else {
        Vec::new()
    };
    let present: std::collections::BTreeSet<&String> = files.iter().collect();
    report.missing_files = named.iter().filter(|k| !present.contains(k)).cloned().collect();
    report.orphan_files = files.iter().filter(|f| !named.contains(*f) && !copies.contains(*f) && !trashed.contains(*f)).cloned().collect();
    report.orphan_files.sort();
    Ok(report)
}

/// The scheduled backups' state on this node, for `/ready`'s details and `/metrics`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScheduleStatus {
    pub last_success_at: Option<i64>,
    /// When the newest attempt failed, and why (cleared by the next success).
    pub last_failure: Option<(i64, String)>,
}

static STATUS: std::sync::Mutex<ScheduleStatus> = std::sync::Mutex::new(ScheduleStatus { last_success_at: None, last_failure: None });

pub fn status() -> ScheduleStatus {
    STATUS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Scheduled backups (`VONK_BACKUP_DIR`, every `VONK_BACKUP_EVERY_SECS`, keeping the newest
/// `VONK_BACKUP_KEEP`).
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub dir: PathBuf,
    pub every: std::time::Duration,
    pub keep: usize,
}

/// A scheduled backup's folder name: `vonk-20261127-120500` (UTC), so names sort by time.
pub fn scheduled_name(now: i64) -> String {
    let d = domain::date::from_unix(now);
    let secs = now.rem_euclid(60);
    format!("vonk-{:04}{:02}{:02}-{:02}{:02}{secs:02}", d.year, d.month, d.day, d.hour, d.minute)
}

/// One scheduled run: a backup into a new folder of `schedule.dir`, then the oldest
/// scheduled backups beyond `keep` are removed (never the one just made, never a folder of
/// another name). A failure is logged, counted, and kept for `/ready`.
pub async fn run_scheduled(db: &Db, media_dir: Option<&Path>, schedule: &Schedule, now: i64) -> Result<PathBuf, AppError> {
    let dest = schedule.dir.join(scheduled_name(now));
    let result = backup(db, media_dir, &dest, now).await;
    let mut status = STATUS.lock().unwrap_or_else(|e| e.into_inner());
    match &result {
        Ok(_) => {
            status.last_success_at = Some(now);
            status.last_failure = None;
            crate::metrics::backup(true, now);
        }
        Err(error) => {
            tracing::error!(%error, dest = %dest.display(), "the scheduled backup failed");
            status.last_failure = Some((now, error.to_string()));
            crate::metrics::backup(false, now);
        }
    }
    drop(status);
    result?;
    prune(&schedule.dir, schedule.keep.max(1))?;
    Ok(dest)
}

fn prune(dir: &Path, keep: usize) -> Result<(), AppError> {
    let mut ours: Vec<String> = std::fs::read_dir(dir)
        .map_err(internal)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with("vonk-") && n.len() == "vonk-20261127-120500".len() && Path::new(dir).join(n).join(MANIFEST).is_file())
        .collect();
    ours.sort();
    let excess = ours.len().saturating_sub(keep);
    for name in ours.into_iter().take(excess) {
        std::fs::remove_dir_all(dir.join(&name)).map_err(|e| internal(format!("{name}: {e}")))?;
    }
    Ok(())
}

/// Starts the schedule: the first backup one interval after the start.
pub fn spawn_schedule(db: Db, media_dir: Option<PathBuf>, schedule: Schedule, clock: crate::clock::Clock) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(schedule.every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        loop {
            tick.tick().await;
            let _ = run_scheduled(&db, media_dir.as_deref(), &schedule, clock.now()).await;
        }
    })
}
