//! Deleting an account: undone within [`REACTIVATION_DAYS`] days with the mailed link, then the
//! personal data is purged for good (the ledger stays, tied to an anonymous row).

use domain::constants::REACTIVATION_DAYS;
use domain::site::SiteSettings;
use domain::Field;
use domain::{ApiError, ErrorCode, Locale};

use super::mails::LinkMailSpec;
use super::security::{record, Client};
use super::tokens::{self, Kind};
use super::{sessions, Accounts};
use crate::error::AppError;
use domain::security::SecurityEventKind;

impl Accounts {
    /// Deletes an account after checking the password, and mails the link that undoes it.
    pub async fn delete_account(
        &self,
        site: &SiteSettings,
        user_id: i64,
        password: &str,
        reason: &str,
        base_url: &str,
        client: &Client,
    ) -> Result<(), AppError> {
        self.check_own_password(user_id, password, ApiError::field(Field::Password, ErrorCode::PasswordWrong), client).await?;
        let member = self.member(user_id).await?.ok_or(ErrorCode::AuthenticationRequired)?;
        let now = self.clock.now();
        let reason: String = reason.trim().chars().take(500).collect();
        let token = tokens::new_token();
        let mut tx = self.db.begin().await?;
        sqlx::query("UPDATE users SET status = $4, deleted_at = $1, delete_reason = $2 WHERE id = $3")
            .bind(now)
            .bind((!reason.is_empty()).then_some(reason))
            .bind(user_id)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .execute(&mut *tx)
            .await?;
        sessions::end_all(&mut tx, user_id).await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        tokens::insert(&mut tx, user_id, Kind::Reactivation, &token, None, now, REACTIVATION_DAYS * 24 * 3600).await?;
        record(&mut *tx, user_id, SecurityEventKind::AccountDeleted, client, now).await?;
        tx.commit().await?;
        // Again once committed: a visitor search between the two may have read the old state.
        crate::members::search_cache::invalidate();
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let spec =
            LinkMailSpec { prefix: "mail.deleted", footer: "mail.reset.footer", vars: &[("name", &member.name)], unsubscribe_for: None, lifecycle: None };
        self.send_link_mail(site, base_url, locale, &member.email, spec, &self.links.reactivation(&token)).await.map(drop)
    }

    /// Undoes a deletion within the period. Confirming from the mailed link also proves the address.
    pub async fn reactivate(&self, token: &str) -> Result<i64, AppError> {
        let (user_id, _) = self.consume_token(token, Kind::Reactivation).await?;
        let cutoff = self.clock.now() - REACTIVATION_DAYS * 24 * 3600;
        let done = sqlx::query("UPDATE users SET status = $3, deleted_at = NULL, delete_reason = NULL WHERE id = $1 AND status = $4 AND deleted_at > $2")
            .bind(user_id)
            .bind(cutoff)
            .bind(domain::account::UserStatus::Active.as_str())
            .bind(domain::account::UserStatus::Deleted.as_str())
            .execute(self.db.pool())
            .await?;
        if done.rows_affected() == 1 {
            crate::members::search::refresh_searchable(self.db.pool(), user_id).await?;
            Ok(user_id)
        } else {
            Err(ErrorCode::LinkExpired.into())
        }
    }

    /// Removes the personal data of accounts deleted longer than the reactivation period ago.
    /// Returns how many were purged.
    pub async fn purge_deleted(&self) -> Result<u64, AppError> {
        let purged = self.purge_rows().await;
        // Their files, and any left from earlier runs, even when a purge failed part-way.
        self.empty_trash().await;
        purged
    }

    /// The database part of [`Accounts::purge_deleted`]: files are marked in the media trash.
    async fn purge_rows(&self) -> Result<u64, AppError> {
        let cutoff = self.clock.now() - REACTIVATION_DAYS * 24 * 3600;
        let ids: Vec<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE status = $2 AND deleted_at <= $1 AND email NOT LIKE 'purged-%'")
            .bind(cutoff)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_all(self.db.pool())
            .await?;
        for (id,) in &ids {
            let mut tx = self.db.begin().await?;
            sqlx::query(
                "UPDATE users SET email = $1, password_hash = '', delete_reason = NULL, tracking_network = NULL, tracking_ref = NULL, \
                 tracking_sub1 = NULL, tracking_sub2 = NULL, tracking_sub3 = NULL, unsubscribe_token = NULL WHERE id = $2",
            )
            .bind(format!("purged-{id}@invalid"))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE profiles SET name = '-', date_of_birth = '1900-01-01', signup_message = NULL, gender = NULL, sexuality = NULL, country = NULL, region = NULL, city = NULL WHERE user_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM account_tokens WHERE user_id = $1").bind(id).execute(&mut *tx).await?;
            sqlx::query("DELETE FROM profile_interests WHERE user_id = $1").bind(id).execute(&mut *tx).await?;
            sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1").bind(id).execute(&mut *tx).await?;
            let photos: Vec<(String, String)> =
                sqlx::query_as("DELETE FROM photos WHERE user_id = $1 RETURNING filename, thumb_filename").bind(id).fetch_all(&mut *tx).await?;
            // Photos they sent in chats go too; the message stays, without its picture.
            let chat_photos: Vec<(String,)> =
                sqlx::query_as("SELECT photo_key FROM messages WHERE sender_id = $1 AND photo_key IS NOT NULL").bind(id).fetch_all(&mut *tx).await?;
            sqlx::query("UPDATE messages SET photo_key = NULL WHERE sender_id = $1 AND photo_key IS NOT NULL").bind(id).execute(&mut *tx).await?;
            sqlx::query("UPDATE profiles SET main_photo = NULL, main_thumb = NULL, main_photo_id = NULL, about = NULL, about_draft = NULL, searchable = $2 WHERE user_id = $1")
                .bind(id)
                .bind(false)
                .execute(&mut *tx)
                .await?;
            sessions::end_all(&mut tx, *id).await?;
            let files: Vec<String> =
                photos.into_iter().flat_map(|(f, t)| crate::members::photos::stored_files(f, t)).chain(chat_photos.into_iter().map(|(k,)| k)).collect();
            crate::media::trash(&mut tx, &files).await?;
            tx.commit().await?;
        }
        Ok(ids.len() as u64)
    }

    /// Removes the files of purged members from the media store (see [`crate::media::trash`]).
    async fn empty_trash(&self) {
        let Some(media) = &self.media else { return };
        if let Err(error) = crate::media::empty_trash(&self.db, media).await {
            tracing::warn!(%error, "could not empty the media trash");
        }
    }

    /// The accounts' part of the hourly housekeeping: [`Accounts::purge_deleted`] (which also
    /// empties the media trash) and [`Accounts::remove_expired`], failures logged.
    pub async fn housekeeping(&self) {
        match self.purge_deleted().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(purged = n, "removed the personal data of deleted accounts"),
            Err(error) => tracing::error!(%error, "purging deleted accounts failed"),
        }
        match self.purge_address_attempts(self.clock.now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(removed = n, "removed old per-address counts"),
            Err(error) => tracing::error!(%error, "removing old per-address counts failed"),
        }
        match self.remove_expired().await {
            Ok((0, 0)) => {}
            Ok((sessions, tokens)) => tracing::info!(sessions, tokens, "removed expired sessions and account tokens"),
            Err(error) => tracing::error!(%error, "removing expired sessions failed"),
        }
    }
}
