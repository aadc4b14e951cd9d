//! The `vonk` binary's commands besides serving: staff roles, a reversed direct debit, a
//! returned mail, and backups, restores and checks of the data (see `server::backup`).

use server::{AppError, AppState};

use super::page_context::page_links;

/// The database and the accounts service a command works with (no site cache, no seeding).
async fn accounts(config: &server::Config) -> Result<(server::Db, server::accounts::Accounts), AppError> {
    let db = server::Db::connect(&config.database_url, 2).await?;
    let accounts = server::accounts::Accounts::new(
        db.clone(),
        server::clock::Clock::System,
        server::mail::Outbox::configured(config)?,
        std::sync::Arc::new(server::locales::Catalog::embedded()),
        page_links(),
    );
    Ok((db, accounts))
}

/// Grants or takes back a staff role (the `vonk staff` command).
pub async fn set_staff(config: server::Config, email: &str, grant: bool, role: domain::staff::StaffRole) -> Result<u64, AppError> {
    let (db, accounts) = accounts(&config).await?;
    let changed = accounts.set_staff_role(email, role, grant).await?;
    db.close().await;
    Ok(changed)
}

/// Applies one returned mail (the `vonk mail-report` command): each hard bounce or complaint it
/// names switches notification mail off for that address's accounts. Answers the addresses,
/// why, and how many accounts each had.
pub async fn mail_report(config: server::Config, message: &str) -> Result<Vec<(String, &'static str, u64)>, AppError> {
    let reports = server::mail::reports::parse_mail(message);
    if reports.is_empty() {
        return Ok(Vec::new());
    }
    let (db, accounts) = accounts(&config).await?;
    let mut found = Vec::new();
    for report in reports {
        let count = accounts.mail_report(&report).await?;
        found.push((report.address, report.reason.code(), count));
    }
    db.close().await;
    Ok(found)
}

/// Records that the bank reversed a direct debit (the `vonk payments reverse <id>` command):
/// the credits go as far as they are left, and direct debit closes for the member.
pub async fn reverse_direct_debit(config: server::Config, payment_id: i64) -> Result<domain::checkout::PaymentStatus, AppError> {
    let state = AppState::start(server::Config { seed: server::config::SeedMode::None, ..config }, page_links()).await?;
    let status = state.payments.reverse(payment_id, state.clock.now()).await;
    state.db.close().await;
    status
}

/// `vonk payments provider-refund <id> <cents>`, `chargeback <id>` and `collect <id> paid|failed`:
/// what the test provider's dashboard or the member's bank would do, heard through the webhook.
pub async fn test_provider_event(
    config: server::Config,
    payment_id: i64,
    change: server::payments::refunds::TestChange,
) -> Result<domain::checkout::PaymentStatus, AppError> {
    let state = AppState::start(server::Config { seed: server::config::SeedMode::None, ..config }, page_links()).await?;
    let status = state.payments.test_outside_change(payment_id, change, state.clock.now()).await;
    state.db.close().await;
    status
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// `vonk backup <dir>`: the database (SQLite) and the local media into a new folder, while the
/// site may go on serving.
pub async fn backup(config: server::Config, dest: &std::path::Path) -> Result<server::backup::Manifest, AppError> {
    let db = server::Db::connect(&config.database_url, 2).await?;
    let manifest = server::backup::backup(&db, config.local_media_dir().as_deref(), dest, now()).await;
    db.close().await;
    manifest
}

/// `vonk restore <dir>`: a checked backup into the (empty) data directory. Nothing connects to
/// a database before the files are in place.
pub async fn restore(config: &server::Config, src: &std::path::Path) -> Result<server::backup::Manifest, AppError> {
    let backend: server::db::Backend = config.database_url.parse()?;
    server::backup::restore(src, &config.data_dir, server::backup::newest_schema(backend)).await
}

/// `vonk check`: the ledger reconciled, photo rows against files, and the data directory's
/// files (links, devices, modes that let others read them).
pub async fn check(config: server::Config) -> Result<server::backup::CheckReport, AppError> {
    let db = server::Db::connect(&config.database_url, 2).await?;
    let private = config.local_media_dir().map(|media| media.join("private"));
    let report = server::backup::check(&db, private.as_deref()).await;
    db.close().await;
    let mut report = report?;
    report.data_dir = server::files::inspect(&config.data_dir).map_err(|e| AppError::Internal(format!("{}: {e}", config.data_dir.display())))?;
    Ok(report)
}

/// What `vonk check` prints for each finding of its report.
pub fn check_lines(report: &server::backup::CheckReport, data_dir: &std::path::Path) -> Vec<String> {
    let data_dir = data_dir.display();
    let mut lines = Vec::new();
    for m in &report.unexplained_balances {
        lines.push(format!("ledger: member {} has {} credits, the ledger explains {}", m.user_id, m.credits, m.ledger_sum));
    }
    lines.extend(report.missing_files.iter().map(|key| format!("missing file: {key}")));
    lines.extend(report.orphan_files.iter().map(|key| format!("file no row names: {key}")));
    for (path, kind) in &report.data_dir.not_plain {
        lines.push(format!("data directory: {data_dir}/{path} is {kind}: move it away (the site serves only plain files)"));
    }
    for (path, mode) in &report.data_dir.loose {
        lines.push(format!("data directory: {data_dir}/{path} has mode {mode:04o}: others may read it (chmod go-rwx, or start the site, which tightens it)"));
    }
    lines
}
