//! The `vonk` binary's commands besides serving: staff roles and a reversed direct debit.

use server::{AppError, AppState};

use super::page_context::page_links;

/// Grants or takes back the staff role (the `vonk staff` command).
pub async fn set_staff(config: server::Config, email: &str, grant: bool, operator: bool) -> Result<u64, AppError> {
    let db = server::Db::connect(&config.database_url, 2).await?;
    let outbox = server::mail::Outbox::from_config(config.smtp_url.as_deref(), &config.data_dir)?;
    let accounts = server::accounts::Accounts::new(db.clone(), server::clock::Clock::System, outbox, std::sync::Arc::new(server::locales::Catalog::embedded()), page_links());
    let changed = if operator { accounts.set_operator(email, grant).await? } else { accounts.set_staff(email, grant).await? };
    db.close().await;
    Ok(changed)
}

/// Records that the bank reversed a direct debit (the `vonk payments reverse <id>` command):
/// the credits go as far as they are left, and direct debit closes for the member.
pub async fn reverse_direct_debit(config: server::Config, payment_id: i64) -> Result<domain::checkout::PaymentStatus, AppError> {
    let state = AppState::start(server::Config { seed: server::config::SeedMode::None, ..config }, page_links()).await?;
    let status = state.payments.reverse(payment_id, state.clock.now()).await;
    state.db.close().await;
    status
}
