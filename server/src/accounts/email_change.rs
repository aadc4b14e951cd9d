//! Changing the email address. It needs the current password; the link goes to the new address
//! and must be opened there. Confirming ends every other session, and the old address gets a
//! notice with a link that puts it back for 7 days (someone who learnt the password cannot
//! quietly move the account away). At most three change mails a day.

use domain::account::validate_email;
use domain::security::SecurityEventKind;
use domain::site::SiteSettings;
use domain::Field;
use domain::{ApiError, ErrorCode, Locale};

use super::mails::LinkMailSpec;
use super::security::{record, Client};
use super::tokens::{self, Kind};
use super::{sessions, Accounts};
use crate::error::AppError;

/// Email-change links work for a day.
pub const MAIL_CHANGE_TTL_SECS: i64 = 24 * 3600;
/// The old address's undo link works for a week.
pub const MAIL_UNDO_TTL_SECS: i64 = 7 * 24 * 3600;
/// At most this many email-change mails a day.
pub const MAIL_CHANGES_PER_DAY: i64 = 3;

/// Gives the member an address, unless another account of the site took it meanwhile.
async fn set_email(tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: i64, email: &str) -> Result<(), AppError> {
    match sqlx::query("UPDATE users SET email = $1 WHERE id = $2").bind(email).bind(user_id).execute(&mut **tx).await {
        Ok(_) => Ok(()),
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(ErrorCode::EmailTaken.into()),
        Err(e) => Err(e.into()),
    }
}

impl Accounts {
    /// Starts an email change after checking the password (the same lockout as login): a
    /// confirmation link goes to the new address.
    pub async fn request_email_change(
        &self,
        site: &SiteSettings,
        user_id: i64,
        new_email: &str,
        password: &str,
        base_url: &str,
        client: &Client,
    ) -> Result<(), AppError> {
        let invalid = || AppError::from(ApiError::field(Field::Email, ErrorCode::NewEmailInvalid));
        let email = validate_email(new_email).map_err(|_| invalid())?;
        // The password first: without it, nothing about other addresses is told.
        self.check_own_password(user_id, password, ApiError::field(Field::Password, ErrorCode::PasswordWrong), client).await?;
        let member = self.member(user_id).await?.ok_or(ErrorCode::AuthenticationRequired)?;
        if member.email == email {
            return Err(invalid());
        }
        let taken: Option<(i64,)> =
            sqlx::query_as("SELECT id FROM users WHERE site_id = $1 AND email = $2").bind(site.id).bind(&email).fetch_optional(self.db.pool()).await?;
        if taken.is_some() {
            return Err(ErrorCode::EmailTaken.into());
        }
        if self.tokens_sent_today(user_id, Kind::MailChange).await? >= MAIL_CHANGES_PER_DAY {
            return Err(ErrorCode::TooManyMails.into());
        }
        let now = self.clock.now();
        let token = tokens::new_token();
        let mut tx = self.db.begin().await?;
        tokens::insert(&mut tx, user_id, Kind::MailChange, &token, Some(&email), now, MAIL_CHANGE_TTL_SECS).await?;
        record(&mut *tx, user_id, SecurityEventKind::EmailChangeRequested, client, now).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let spec = LinkMailSpec { prefix: "mail.change", footer: "mail.reset.footer", vars: &[("name", &member.name)], unsubscribe_for: None, lifecycle: None };
        self.send_link_mail(site, base_url, locale, &email, spec, &self.links.email_change(&token)).await.map(drop)
    }

    /// Completes an email change from the link in the mail (single use, expires). Every session
    /// but `current` (the browser that confirms, if it is the member's) ends, and the old
    /// address is told, with a link that undoes the change.
    pub async fn confirm_email_change(
        &self,
        site: &SiteSettings,
        token: &str,
        current: Option<&str>,
        base_url: &str,
        client: &Client,
    ) -> Result<i64, AppError> {
        let (user_id, email) = self.consume_token(token, Kind::MailChange).await?;
        let email = email.ok_or_else(|| AppError::Internal("email-change token without an address".into()))?;
        let now = self.clock.now();
        let member = self.member(user_id).await?.ok_or(ErrorCode::LinkExpired)?;
        let undo = tokens::new_token();
        let mut tx = self.db.begin().await?;
        set_email(&mut tx, user_id, &email).await?;
        sessions::end_others(&mut tx, user_id, current).await?;
        tokens::insert(&mut tx, user_id, Kind::MailUndo, &undo, Some(&member.email), now, MAIL_UNDO_TTL_SECS).await?;
        record(&mut *tx, user_id, SecurityEventKind::EmailChanged, client, now).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let spec = LinkMailSpec {
            prefix: "mail.change_notice",
            footer: "mail.change_notice.footer",
            vars: &[("name", &member.name), ("email", &email)],
            unsubscribe_for: None,
            lifecycle: None,
        };
        self.send_link_mail(site, base_url, locale, &member.email, spec, &self.links.email_undo(&undo)).await?;
        Ok(user_id)
    }

    /// Puts the old address back from the notice's link: every session ends, and links that
    /// went to the other address (password reset, another change) stop working. The member then
    /// chooses a new password through the old address.
    pub async fn undo_email_change(&self, token: &str, client: &Client) -> Result<i64, AppError> {
        let (user_id, old) = self.consume_token(token, Kind::MailUndo).await?;
        let old = old.ok_or_else(|| AppError::Internal("undo token without an address".into()))?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        set_email(&mut tx, user_id, &old).await?;
        sessions::end_all(&mut tx, user_id).await?;
        sqlx::query("UPDATE account_tokens SET used_at = $1 WHERE user_id = $2 AND kind IN ('password_reset', 'mail_change', 'two_step') AND used_at IS NULL")
            .bind(now)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        record(&mut *tx, user_id, SecurityEventKind::EmailChangeUndone, client, now).await?;
        tx.commit().await?;
        Ok(user_id)
    }
}
