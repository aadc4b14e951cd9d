//! Changing the email address: the link goes to the new address and must be opened there.

use domain::account::{validate_email, Field};
use domain::site::SiteSettings;
use domain::{ApiError, ErrorCode, Locale};

use super::mails::LinkMailSpec;
use super::tokens::{self, Kind};
use super::Accounts;
use crate::error::AppError;

/// Email-change links work for a day.
pub const MAIL_CHANGE_TTL_SECS: i64 = 24 * 3600;

impl Accounts {
    /// Starts an email change: a confirmation link goes to the new address.
    pub async fn request_email_change(&self, site: &SiteSettings, user_id: i64, new_email: &str, base_url: &str) -> Result<(), AppError> {
        let invalid = || AppError::from(ApiError::field(Field::Email, ErrorCode::NewEmailInvalid));
        let email = validate_email(new_email).map_err(|_| invalid())?;
        let member = self.member(user_id).await?.ok_or(ErrorCode::AuthenticationRequired)?;
        if member.email == email {
            return Err(invalid());
        }
        let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE site_id = $1 AND email = $2").bind(site.id).bind(&email).fetch_optional(self.db.pool()).await?;
        if taken.is_some() {
            return Err(ErrorCode::EmailTaken.into());
        }
        let now = self.clock.now();
        let token = tokens::new_token();
        let mut tx = self.db.pool().begin().await?;
        tokens::insert(&mut tx, user_id, Kind::MailChange, &token, Some(&email), now, MAIL_CHANGE_TTL_SECS).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let spec = LinkMailSpec { prefix: "mail.change", footer: "mail.reset.footer", vars: &[("name", &member.name)], unsubscribe_for: None };
        self.send_link_mail(site, base_url, locale, &email, spec, &self.links.email_change(&token)).await
    }

    /// Completes an email change from the link in the mail (single use, expires).
    pub async fn confirm_email_change(&self, token: &str) -> Result<i64, AppError> {
        let (user_id, email) = self.consume_token(token, Kind::MailChange).await?;
        let email = email.ok_or_else(|| AppError::Internal("email-change token without an address".into()))?;
        match sqlx::query("UPDATE users SET email = $1 WHERE id = $2").bind(&email).bind(user_id).execute(self.db.pool()).await {
            Ok(_) => Ok(user_id),
            // Someone took the address between request and confirmation.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(ErrorCode::EmailTaken.into()),
            Err(e) => Err(e.into()),
        }
    }
}
