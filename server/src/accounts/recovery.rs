//! Passwords: the reset link for a forgotten one, and changing it with the old one.

use domain::account::{validate_email, validate_password_repeat};
use domain::security::SecurityEventKind;
use domain::site::SiteSettings;
use domain::Field;
use domain::{ApiError, ErrorCode, Locale};

use super::address_attempts::Kind as AddressKind;
use super::mails::LinkMailSpec;
use super::security::{record, Client};
use super::tokens::{self, Kind};
use super::{passwords, sessions, Accounts};
use crate::error::AppError;

/// Password-reset links work for two hours; at most three are asked for per address per day.
pub const RESET_TTL_SECS: i64 = 2 * 3600;
pub const RESETS_PER_DAY: i64 = 3;

/// A member a reset mail may go to.
#[derive(sqlx::FromRow)]
struct ResetTo {
    id: i64,
    language: String,
    status: String,
    name: String,
}

/// The member a reset link belongs to.
#[derive(sqlx::FromRow)]
struct LinkOwner {
    email: String,
    status: String,
    totp_secret: Option<String>,
    name: String,
}

/// What a new password is checked against.
#[derive(sqlx::FromRow)]
struct Names {
    email: String,
    name: String,
}

impl Accounts {
    /// Asks for a password-reset link: [`Accounts::count_reset_request`], then
    /// [`Accounts::send_reset_mail`]. The answer is the same whether or not the address has an
    /// account ('if this address has an account, we sent a mail').
    pub async fn request_password_reset(&self, site: &SiteSettings, email: &str, base_url: &str) -> Result<(), AppError> {
        let email = self.count_reset_request(site, email).await?;
        self.send_reset_mail(site, &email, base_url).await
    }

    /// The part of a reset request that answers: the address must be one, and at most
    /// [`RESETS_PER_DAY`] mails are asked for it a day ('Te veel wachtwoordherstel mails
    /// verstuurd'), counted for every address, with or without an account. Answers the address
    /// as it is looked up.
    pub async fn count_reset_request(&self, site: &SiteSettings, email: &str) -> Result<String, AppError> {
        let email = validate_email(email)?;
        if self.count_address_use(site.id, &email, AddressKind::Reset, 86_400, self.clock.now()).await? > RESETS_PER_DAY {
            return Err(ErrorCode::TooManyResets.into());
        }
        Ok(email)
    }

    /// Mails a reset link to the address if it has an account here that may use one; otherwise
    /// does nothing (a deleted account is reactivated by its own link, a blocked member gets no
    /// way back in). The server function runs this after it has answered, so its time tells
    /// nothing either.
    pub async fn send_reset_mail(&self, site: &SiteSettings, email: &str, base_url: &str) -> Result<(), AppError> {
        let now = self.clock.now();
        let row = sqlx::query_as::<_, ResetTo>("SELECT u.id, u.language, u.status, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.email = $2 AND u.status <> $3")
            .bind(site.id)
            .bind(email)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_optional(self.db.pool())
            .await?;
        let Some(row) = row.filter(|r| r.status != "blocked") else {
            return Ok(());
        };
        let user_id = row.id;
        let token = tokens::new_token();
        let mut tx = self.db.begin().await?;
        tokens::insert(&mut tx, user_id, Kind::PasswordReset, &token, None, now, RESET_TTL_SECS).await?;
        tx.commit().await?;
        let name = row.name;
        let locale = Locale::parse(&row.language).unwrap_or(Locale::DEFAULT);
        let spec =
            LinkMailSpec { prefix: "mail.reset", footer: "mail.reset.footer", vars: &[("name", &name)], unsubscribe_for: Some(user_id), lifecycle: None };
        self.send_link_mail(site, base_url, locale, email, spec, &self.links.password_reset(&token)).await.map(drop)
    }

    /// Sets a new password with a reset link. Ends every session of the member (a reset is
    /// what one does when someone else may know the old password) and returns a new one, unless
    /// two-step login is on: then the member logs in with the new password and a code (`None`).
    pub async fn reset_password(&self, token: &str, password: &str, repeat: &str, client: &Client) -> Result<Option<String>, AppError> {
        if !tokens::is_well_formed(token) {
            return Err(ErrorCode::LinkExpired.into());
        }
        let now = self.clock.now();
        let row = sqlx::query_as::<_, LinkOwner>(
            "SELECT u.id, u.email, u.status, u.totp_secret, p.name FROM account_tokens t JOIN users u ON u.id = t.user_id JOIN profiles p ON p.user_id = u.id \
             WHERE t.token_hash = $1 AND t.kind = 'password_reset' AND t.used_at IS NULL AND t.expires_at > $2",
        )
        .bind(tokens::hash(token))
        .bind(now)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or(ErrorCode::LinkExpired)?;
        if row.status == "blocked" {
            return Err(ErrorCode::Forbidden.into());
        }
        let LinkOwner { email, name, totp_secret, .. } = row;
        // Check before using the link up, so a typo does not cost the member their link.
        validate_password_repeat(password, repeat)?;
        passwords::check_new(password, &email, &name)?;
        let two_step = totp_secret.is_some();
        let hash = passwords::hash(password.to_string()).await?;
        let (user_id, _) = self.consume_token(token, Kind::PasswordReset).await?;
        let mut tx = self.db.begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1, failed_logins = 0, locked_until = NULL WHERE id = $2")
            .bind(&hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sessions::end_all(&mut tx, user_id).await?;
        // Older reset links die with this one.
        sqlx::query("UPDATE account_tokens SET used_at = $1 WHERE user_id = $2 AND kind = 'password_reset' AND used_at IS NULL")
            .bind(now)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        record(&mut *tx, user_id, SecurityEventKind::PasswordReset, client, now).await?;
        let session = if two_step { None } else { Some(sessions::start(&mut tx, user_id, now, client).await?) };
        tx.commit().await?;
        Ok(session)
    }

    /// Changes the password after checking the old one ('Controleer je oude wachtwoord.').
    /// Other sessions end; the returned session replaces the current one.
    pub async fn change_password(&self, user_id: i64, old: &str, new: &str, repeat: &str, client: &Client) -> Result<String, AppError> {
        let Names { email, name } = sqlx::query_as("SELECT u.email, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or(ErrorCode::AuthenticationRequired)?;
        self.check_own_password(user_id, old, ApiError::field(Field::Password, ErrorCode::OldPasswordWrong), client).await?;
        validate_password_repeat(new, repeat)?;
        passwords::check_new(new, &email, &name)?;
        let hash = passwords::hash(new.to_string()).await?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2").bind(&hash).bind(user_id).execute(&mut *tx).await?;
        sessions::end_all(&mut tx, user_id).await?;
        let session = sessions::start(&mut tx, user_id, now, client).await?;
        record(&mut *tx, user_id, SecurityEventKind::PasswordChanged, client, now).await?;
        tx.commit().await?;
        Ok(session)
    }
}
