//! The account service. Every rule that matters is checked here, on the server; the browser's
//! checks are a courtesy. Credit changes go through the ledger in the same transaction.

use std::sync::Arc;

use domain::account::{may_sign_up, validate_signup, FieldError, LockoutPolicy, SignupForm, Tracking, Ymd};
use domain::constants::{AUTH_COOKIE_DAYS, REACTIVATION_DAYS};
use domain::site::SiteSettings;
use domain::Locale;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{passwords, tokens};
use crate::clock::Clock;
use crate::db::{flag, Db};
use crate::error::AppError;
use crate::locales::Catalog;
use crate::mail::{escape_html, Mail, Outbox};

/// Activation links work for a week.
pub const ACTIVATION_TTL_SECS: i64 = 7 * 24 * 3600;
pub const SESSION_TTL_SECS: i64 = AUTH_COOKIE_DAYS * 24 * 3600;
/// Password-reset links work for two hours; at most three are sent per account per day.
pub const RESET_TTL_SECS: i64 = 2 * 3600;
pub const RESETS_PER_DAY: i64 = 3;
/// Email-change links work for a day.
pub const MAIL_CHANGE_TTL_SECS: i64 = 24 * 3600;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("invalid input")]
    Invalid(Vec<FieldError>),
    #[error("email already registered")]
    EmailTaken,
    #[error("signup closed: {0}")]
    SignupClosed(&'static str),
    #[error("login failed")]
    LoginFailed,
    #[error("locked for {minutes} min")]
    Locked { minutes: i64 },
    #[error("link expired or invalid")]
    LinkInvalid,
    #[error("email not found")]
    EmailNotFound,
    #[error("too many reset mails")]
    TooManyResets,
    #[error("too many mails")]
    TooManyMails,
    #[error("account not yet definitively deleted")]
    NotYetDeleted,
    #[error(transparent)]
    Internal(#[from] AppError),
}

impl From<sqlx::Error> for AccountError {
    fn from(e: sqlx::Error) -> Self {
        AccountError::Internal(AppError::Database(e))
    }
}

impl AccountError {
    /// The locale key the browser shows.
    pub fn key(&self) -> &str {
        match self {
            AccountError::Invalid(errors) => errors.first().map(|e| e.key.as_str()).unwrap_or("error.generic"),
            AccountError::EmailTaken => "validation.email_taken",
            AccountError::SignupClosed(key) => key,
            AccountError::LoginFailed => "error.login_failed",
            AccountError::Locked { .. } => "error.too_many_attempts",
            AccountError::LinkInvalid => "error.link_expired",
            AccountError::EmailNotFound => "error.email_not_found",
            AccountError::TooManyResets => "error.too_many_resets",
            AccountError::TooManyMails => "error.too_many_mails",
            AccountError::NotYetDeleted => "error.account_not_deleted_yet",
            AccountError::Internal(e) => {
                e.public();
                "error.generic"
            }
        }
    }
}

/// A logged-in member as pages need them.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub id: i64,
    pub site_id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub language: String,
    pub credits: i64,
    pub paid_user: bool,
    pub invisible: bool,
    pub signup_date: i64,
    /// `disabled` until the address is confirmed, then `active` (SPEC §3 Profile status).
    pub profile_status: String,
    /// Gender, sexuality and region are filled in (`/complete-signup` done).
    pub basics_complete: bool,
    /// Why notification mails are off, and which alerts were dismissed.
    pub alerts: super::AlertState,
    /// Staff accounts review photos (and later complaints); a role beyond SPEC §6.
    pub staff: bool,
    /// The chosen main photo (SPEC §3 main_image), whatever its review status.
    pub main_photo_id: Option<i64>,
    /// Likes from visible members that the member has not looked at (the top bar's pill).
    pub new_likes: i64,
    /// Unread notifications from members the member can still see (the bell's pill).
    pub unread_notifications: i64,
}

impl Member {
    pub fn is_confirmed(&self) -> bool {
        self.status != "not_confirmed"
    }
}

pub struct SignupRequest<'a> {
    pub site: &'a SiteSettings,
    pub form: SignupForm,
    pub tracking: Tracking,
    pub locale: Locale,
    /// Where links in mails point, e.g. `https://vonk.nl` (never taken from the request's Host).
    pub base_url: String,
}

#[derive(Clone, Debug)]
pub struct Accounts {
    db: Db,
    clock: Clock,
    outbox: Outbox,
    catalog: Arc<Catalog>,
    lockout: LockoutPolicy,
    /// Where photo files live, so that purging an account removes them too.
    media: Option<crate::media::Media>,
}

const MEMBER_SELECT: &str = concat!(
    "SELECT u.id, u.site_id, u.email, u.status, u.language, u.credits, u.paid_user, u.invisible, u.signup_date, u.role, p.name, \
     p.status AS profile_status, p.main_photo_id, p.gender, p.sexuality, p.region, \
     (SELECT COUNT(*) FROM notifications_disabled d WHERE d.user_id = u.id) + (SELECT COUNT(*) FROM alert_dismissals a WHERE a.user_id = u.id) AS alert_rows, \
     (SELECT COUNT(*) FROM likes l JOIN profiles lp ON lp.user_id = l.liker_id WHERE l.liked_id = u.id AND l.seen = FALSE AND lp.searchable = TRUE \
      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = u.id AND b.blocked_id = l.liker_id) OR (b.blocker_id = l.liker_id AND b.blocked_id = u.id))) AS new_likes, \
     (SELECT COUNT(*) FROM notifications n WHERE n.user_id = u.id AND n.read_at IS NULL AND ",
    crate::notifications::visible_notifications!("u.id"),
    ") AS unread_notifications FROM users u JOIN profiles p ON p.user_id = u.id"
);

fn member_from_row(row: &AnyRow) -> Result<Member, sqlx::Error> {
    Ok(Member {
        id: row.try_get("id")?,
        site_id: row.try_get("site_id")?,
        email: row.try_get("email")?,
        name: row.try_get("name")?,
        status: row.try_get("status")?,
        language: row.try_get("language")?,
        credits: row.try_get("credits")?,
        paid_user: flag(row, "paid_user")?,
        invisible: flag(row, "invisible")?,
        signup_date: row.try_get("signup_date")?,
        profile_status: row.try_get("profile_status")?,
        basics_complete: row.try_get::<Option<String>, _>("gender")?.is_some()
            && row.try_get::<Option<String>, _>("sexuality")?.is_some()
            && row.try_get::<Option<String>, _>("region")?.is_some(),
        alerts: Default::default(),
        staff: row.try_get::<String, _>("role")? == "staff",
        main_photo_id: row.try_get("main_photo_id")?,
        new_likes: row.try_get("new_likes")?,
        unread_notifications: row.try_get("unread_notifications")?,
    })
}

impl Accounts {
    pub fn new(db: Db, clock: Clock, outbox: Outbox, catalog: Arc<Catalog>) -> Accounts {
        Accounts { db, clock, outbox, catalog, lockout: LockoutPolicy::default(), media: None }
    }

    /// Purging an account also deletes its photo files from this store.
    pub fn with_media(mut self, media: crate::media::Media) -> Accounts {
        self.media = Some(media);
        self
    }

    /// Grants or takes back the staff role (photo moderation) for an address on every site.
    /// Returns how many accounts changed; run from the command line (`vonk staff grant …`).
    pub async fn set_staff(&self, email: &str, staff: bool) -> Result<u64, AppError> {
        let done = sqlx::query("UPDATE users SET role = $1 WHERE email = $2 AND status <> 'deleted'")
            .bind(if staff { "staff" } else { "member" })
            .bind(email.trim().to_lowercase())
            .execute(self.db.pool())
            .await?;
        Ok(done.rows_affected())
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub(super) fn db(&self) -> &Db {
        &self.db
    }

    /// Signs a visitor up: validates, books the site's signup credits, sends the activation
    /// mail and returns a new session token (the member is logged in, unconfirmed).
    pub async fn signup(&self, request: SignupRequest<'_>) -> Result<(i64, String), AccountError> {
        let site = request.site;
        may_sign_up(site.signups, &request.tracking).map_err(AccountError::SignupClosed)?;
        let now = self.clock.now();
        let valid = validate_signup(&request.form, Ymd::from_unix(now), site.min_age).map_err(AccountError::Invalid)?;
        let hash = passwords::hash(valid.password.clone()).await?;

        let mut tx = self.db.pool().begin().await?;
        let taken: Option<(String,)> = sqlx::query_as("SELECT status FROM users WHERE site_id = $1 AND email = $2")
            .bind(site.id)
            .bind(&valid.email)
            .fetch_optional(&mut *tx)
            .await?;
        match taken {
            Some((status,)) if status == "deleted" => return Err(AccountError::NotYetDeleted),
            Some(_) => return Err(AccountError::EmailTaken),
            None => {}
        }
        let t = &request.tracking;
        let inserted: Result<(i64,), sqlx::Error> = sqlx::query_as(
            "INSERT INTO users (site_id, email, password_hash, language, signup_date, tracking_network, tracking_ref, tracking_sub1, tracking_sub2, tracking_sub3) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(site.id)
        .bind(&valid.email)
        .bind(&hash)
        .bind(request.locale.code())
        .bind(now)
        .bind(t.network.clone())
        .bind(t.r#ref.clone())
        .bind(t.sub1.clone())
        .bind(t.sub2.clone())
        .bind(t.sub3.clone())
        .fetch_one(&mut *tx)
        .await;
        let (user_id,) = match inserted {
            Ok(row) => row,
            // Two signups with one address at the same moment: the unique index decides.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Err(AccountError::EmailTaken),
            Err(e) => return Err(e.into()),
        };
        // The profile stays out of sight until the address is confirmed (SPEC §4).
        sqlx::query("INSERT INTO profiles (user_id, name, date_of_birth, signup_message, status, site_id, last_active) VALUES ($1, $2, $3, $4, 'disabled', $5, $6)")
            .bind(user_id)
            .bind(&valid.name)
            .bind(valid.date_of_birth.iso())
            .bind(valid.signup_message.clone())
            .bind(site.id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if site.signup_credits > 0 {
            book_credits(&mut tx, user_id, site.signup_credits, "signup", Some(&format!("user:{user_id}")), now).await?;
        }
        crate::notifications::record(&mut tx, user_id, domain::notifications::NotificationKind::Welcome, None, now).await?;
        let activation = tokens::new_token();
        insert_token(&mut tx, user_id, "activation", &activation, now, ACTIVATION_TTL_SECS).await?;
        let session = tokens::new_token();
        insert_session(&mut tx, user_id, &session, now).await?;
        tx.commit().await?;

        self.send_activation_mail(site, request.locale, user_id, &valid.email, &valid.name, &request.base_url, &activation).await?;
        Ok((user_id, session))
    }

    #[allow(clippy::too_many_arguments)]
    async fn send_activation_mail(&self, site: &SiteSettings, locale: Locale, user_id: i64, to: &str, name: &str, base_url: &str, token: &str) -> Result<(), AppError> {
        let link = format!("{}/api/activate?token={token}", base_url.trim_end_matches('/'));
        let unsubscribe = self.unsubscribe_url(user_id, base_url).await?;
        self.send_link_mail(site, locale, to, name, "mail.activation", "mail.footer", &link, Some(unsubscribe)).await
    }

    /// A mail with a greeting, a paragraph, one button with a link, and a footer; texts from
    /// `{prefix}.subject`, `{prefix}.body`, `{prefix}.button` in the member's language. With an
    /// unsubscribe link, the footer offers it and the mail carries `List-Unsubscribe`.
    #[allow(clippy::too_many_arguments)]
    async fn send_link_mail(&self, site: &SiteSettings, locale: Locale, to: &str, name: &str, prefix: &str, footer_key: &str, link: &str, unsubscribe: Option<String>) -> Result<(), AppError> {
        self.send_mail_with(site, locale, to, &[("name", name)], prefix, footer_key, link, unsubscribe).await
    }

    /// [`Accounts::send_link_mail`] with more placeholders than `{site}` and `{name}`.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn send_mail_with(&self, site: &SiteSettings, locale: Locale, to: &str, vars: &[(&str, &str)], prefix: &str, footer_key: &str, link: &str, unsubscribe: Option<String>) -> Result<(), AppError> {
        let mut all = vec![("site", site.name.as_str())];
        all.extend_from_slice(vars);
        let t = |key: &str| domain::i18n::interpolate(&self.catalog.t(locale, key), &all);
        let greeting = t("mail.greeting");
        let body = t(&format!("{prefix}.body"));
        let button = t(&format!("{prefix}.button"));
        let footer = t(footer_key);
        let unsubscribe_label = t("mail.unsubscribe");
        let mut text = format!("{greeting}\n\n{body}\n\n{button}: {link}\n\n{footer}\n");
        let mut unsubscribe_html = String::new();
        if let Some(url) = &unsubscribe {
            text.push_str(&format!("\n{unsubscribe_label}: {url}\n"));
            unsubscribe_html = format!(
                "<p style=\"color:#6b5f63;font-size:12px\"><a href=\"{}\" style=\"color:#6b5f63\">{}</a></p>",
                escape_html(url),
                escape_html(&unsubscribe_label)
            );
        }
        let html = format!(
            "<!DOCTYPE html><html lang=\"{lang}\"><body style=\"font-family:system-ui,sans-serif;color:#1f1a1c\">\
             <p>{greeting}</p><p>{body}</p>\
             <p><a href=\"{link}\" style=\"display:inline-block;padding:12px 22px;border-radius:999px;background:#8b0d1a;color:#fff;text-decoration:none;font-weight:700\">{button}</a></p>\
             <p style=\"color:#6b5f63;font-size:13px\">{footer}</p>{unsubscribe_html}</body></html>",
            lang = locale.code(),
            greeting = escape_html(&greeting),
            body = escape_html(&body),
            link = escape_html(link),
            button = escape_html(&button),
            footer = escape_html(&footer),
        );
        self.outbox
            .send(Mail {
                from_name: site.mail_name.clone(),
                from_address: site.support_email.clone(),
                to: to.to_string(),
                subject: t(&format!("{prefix}.subject")),
                text,
                html,
                unsubscribe,
            })
            .await
    }

    /// Sends a password-reset link. The spec's texts tell when the address is unknown
    /// ('E-mailadres niet gevonden') and when too many mails went out today.
    pub async fn request_password_reset(&self, site: &SiteSettings, email: &str, base_url: &str) -> Result<(), AccountError> {
        let now = self.clock.now();
        let email = domain::account::validate_email(email).map_err(|e| AccountError::Invalid(vec![e]))?;
        let row = sqlx::query("SELECT u.id, u.language, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.email = $2 AND u.status <> 'deleted'")
            .bind(site.id)
            .bind(&email)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or(AccountError::EmailNotFound)?;
        let user_id: i64 = row.try_get("id")?;
        if self.tokens_sent_today(user_id, "password_reset").await? >= RESETS_PER_DAY {
            return Err(AccountError::TooManyResets);
        }
        let token = tokens::new_token();
        let mut tx = self.db.pool().begin().await?;
        insert_token(&mut tx, user_id, "password_reset", &token, now, RESET_TTL_SECS).await?;
        tx.commit().await?;
        let language: String = row.try_get("language")?;
        let name: String = row.try_get("name")?;
        let locale = Locale::parse(&language).unwrap_or(Locale::DEFAULT);
        let link = format!("{}/reset-password/do?token={token}", base_url.trim_end_matches('/'));
        let unsubscribe = self.unsubscribe_url(user_id, base_url).await?;
        self.send_link_mail(site, locale, &email, &name, "mail.reset", "mail.reset.footer", &link, Some(unsubscribe)).await?;
        Ok(())
    }

    /// Sets a new password with a reset link. Ends every session of the member (a reset is
    /// what one does when someone else may know the old password) and returns a new one.
    pub async fn reset_password(&self, token: &str, password: &str, repeat: &str) -> Result<String, AccountError> {
        if !tokens::is_well_formed(token) {
            return Err(AccountError::LinkInvalid);
        }
        let now = self.clock.now();
        let row = sqlx::query(
            "SELECT u.id, u.email, p.name FROM account_tokens t JOIN users u ON u.id = t.user_id JOIN profiles p ON p.user_id = u.id \
             WHERE t.token_hash = $1 AND t.kind = 'password_reset' AND t.used_at IS NULL AND t.expires_at > $2",
        )
        .bind(tokens::hash(token))
        .bind(now)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or(AccountError::LinkInvalid)?;
        let email: String = row.try_get("email")?;
        let name: String = row.try_get("name")?;
        // Check before using the link up, so a typo does not cost the member their link.
        domain::account::validate_password_repeat(password, repeat).map_err(|e| AccountError::Invalid(vec![e]))?;
        domain::account::validate_password(password, &email, &name).map_err(|e| AccountError::Invalid(vec![e]))?;
        let hash = passwords::hash(password.to_string()).await?;
        let user_id = self.consume_token(token, "password_reset").await?;
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1, failed_logins = 0, locked_until = NULL WHERE id = $2").bind(&hash).bind(user_id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        // Older reset links die with this one.
        sqlx::query("UPDATE account_tokens SET used_at = $1 WHERE user_id = $2 AND kind = 'password_reset' AND used_at IS NULL").bind(now).bind(user_id).execute(&mut *tx).await?;
        let session = tokens::new_token();
        insert_session(&mut tx, user_id, &session, now).await?;
        tx.commit().await?;
        Ok(session)
    }

    /// Sends a fresh activation link to a member who has not confirmed yet (at most three a day).
    pub async fn resend_activation(&self, site: &SiteSettings, user_id: i64, base_url: &str) -> Result<(), AccountError> {
        let now = self.clock.now();
        let member = self.member(user_id).await?.ok_or(AccountError::LinkInvalid)?;
        if member.is_confirmed() {
            return Ok(());
        }
        if self.tokens_sent_today(user_id, "activation").await? >= 3 {
            return Err(AccountError::TooManyMails);
        }
        let token = tokens::new_token();
        let mut tx = self.db.pool().begin().await?;
        insert_token(&mut tx, user_id, "activation", &token, now, ACTIVATION_TTL_SECS).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        self.send_activation_mail(site, locale, user_id, &member.email, &member.name, base_url, &token).await?;
        Ok(())
    }

    /// How many links of one kind went to a member in the last 24 hours.
    async fn tokens_sent_today(&self, user_id: i64, kind: &str) -> Result<i64, sqlx::Error> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM account_tokens WHERE user_id = $1 AND kind = $2 AND created_at > $3")
            .bind(user_id)
            .bind(kind)
            .bind(self.clock.now() - 24 * 3600)
            .fetch_one(self.db.pool())
            .await?;
        Ok(count)
    }

    /// Changes the password after checking the old one ('Controleer je oude wachtwoord.').
    /// Other sessions end; the returned session replaces the current one.
    pub async fn change_password(&self, user_id: i64, old: &str, new: &str, repeat: &str) -> Result<String, AccountError> {
        let row = sqlx::query("SELECT u.password_hash, u.email, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or(AccountError::LoginFailed)?;
        let email: String = row.try_get("email")?;
        let name: String = row.try_get("name")?;
        if !passwords::verify(old.to_string(), Some(row.try_get("password_hash")?)).await? {
            return Err(AccountError::Invalid(vec![FieldError { field: domain::account::Field::Password, key: "validation.old_password_wrong".into(), args: vec![] }]));
        }
        domain::account::validate_password_repeat(new, repeat).map_err(|e| AccountError::Invalid(vec![e]))?;
        domain::account::validate_password(new, &email, &name).map_err(|e| AccountError::Invalid(vec![e]))?;
        let hash = passwords::hash(new.to_string()).await?;
        let now = self.clock.now();
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2").bind(&hash).bind(user_id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        let session = tokens::new_token();
        insert_session(&mut tx, user_id, &session, now).await?;
        tx.commit().await?;
        Ok(session)
    }

    /// Remembers the member's language (for mails and the next login on another device).
    pub async fn set_language(&self, user_id: i64, locale: Locale) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET language = $1 WHERE id = $2").bind(locale.code()).bind(user_id).execute(self.db.pool()).await?;
        Ok(())
    }

    /// Starts an email change: the link goes to the new address and must be opened there.
    pub async fn request_email_change(&self, site: &SiteSettings, user_id: i64, new_email: &str, base_url: &str) -> Result<(), AccountError> {
        let invalid = || AccountError::Invalid(vec![FieldError { field: domain::account::Field::Email, key: "validation.new_email_invalid".into(), args: vec![] }]);
        let email = domain::account::validate_email(new_email).map_err(|_| invalid())?;
        let member = self.member(user_id).await?.ok_or(AccountError::LoginFailed)?;
        if member.email == email {
            return Err(invalid());
        }
        let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE site_id = $1 AND email = $2").bind(site.id).bind(&email).fetch_optional(self.db.pool()).await?;
        if taken.is_some() {
            return Err(AccountError::EmailTaken);
        }
        let now = self.clock.now();
        let token = tokens::new_token();
        sqlx::query("INSERT INTO account_tokens (token_hash, user_id, kind, payload, created_at, expires_at) VALUES ($1, $2, 'mail_change', $3, $4, $5)")
            .bind(tokens::hash(&token))
            .bind(user_id)
            .bind(&email)
            .bind(now)
            .bind(now + MAIL_CHANGE_TTL_SECS)
            .execute(self.db.pool())
            .await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let link = format!("{}/api/mail-change?token={token}", base_url.trim_end_matches('/'));
        self.send_link_mail(site, locale, &email, &member.name, "mail.change", "mail.reset.footer", &link, None).await?;
        Ok(())
    }

    /// Completes an email change from the link in the mail (single use, expires).
    pub async fn confirm_email_change(&self, token: &str) -> Result<i64, AccountError> {
        if !tokens::is_well_formed(token) {
            return Err(AccountError::LinkInvalid);
        }
        let now = self.clock.now();
        let row = sqlx::query(
            "UPDATE account_tokens SET used_at = $1 WHERE token_hash = $2 AND kind = 'mail_change' AND used_at IS NULL AND expires_at > $1 RETURNING user_id, payload",
        )
        .bind(now)
        .bind(tokens::hash(token))
        .fetch_optional(self.db.pool())
        .await?
        .ok_or(AccountError::LinkInvalid)?;
        let user_id: i64 = row.try_get("user_id")?;
        let email: String = row.try_get("payload")?;
        match sqlx::query("UPDATE users SET email = $1 WHERE id = $2").bind(&email).bind(user_id).execute(self.db.pool()).await {
            Ok(_) => Ok(user_id),
            // Someone took the address between request and confirmation.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AccountError::EmailTaken),
            Err(e) => Err(e.into()),
        }
    }

    /// Deletes an account after checking the password. The member can undo it for
    /// [`REACTIVATION_DAYS`] days with the link mailed to them; then [`Accounts::purge_deleted`]
    /// removes the personal data for good.
    pub async fn delete_account(&self, site: &SiteSettings, user_id: i64, password: &str, reason: &str, base_url: &str) -> Result<(), AccountError> {
        let row = sqlx::query("SELECT password_hash FROM users WHERE id = $1 AND status <> 'deleted'").bind(user_id).fetch_optional(self.db.pool()).await?.ok_or(AccountError::LoginFailed)?;
        if !passwords::verify(password.to_string(), Some(row.try_get("password_hash")?)).await? {
            return Err(AccountError::Invalid(vec![FieldError { field: domain::account::Field::Password, key: "validation.old_password_wrong".into(), args: vec![] }]));
        }
        let member = self.member(user_id).await?.ok_or(AccountError::LoginFailed)?;
        let now = self.clock.now();
        let reason: String = reason.trim().chars().take(500).collect();
        let token = tokens::new_token();
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE users SET status = 'deleted', deleted_at = $1, delete_reason = $2 WHERE id = $3")
            .bind(now)
            .bind((!reason.is_empty()).then_some(reason))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        insert_token(&mut tx, user_id, "reactivation", &token, now, REACTIVATION_DAYS * 24 * 3600).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let link = format!("{}/api/reactivate?token={token}", base_url.trim_end_matches('/'));
        self.send_link_mail(site, locale, &member.email, &member.name, "mail.deleted", "mail.reset.footer", &link, None).await?;
        Ok(())
    }

    /// Undoes a deletion within the period. Opening the mailed link also proves the address.
    pub async fn reactivate(&self, token: &str) -> Result<i64, AccountError> {
        let user_id = self.consume_token(token, "reactivation").await?;
        let cutoff = self.clock.now() - REACTIVATION_DAYS * 24 * 3600;
        let done = sqlx::query("UPDATE users SET status = 'active', deleted_at = NULL, delete_reason = NULL WHERE id = $1 AND status = 'deleted' AND deleted_at > $2")
            .bind(user_id)
            .bind(cutoff)
            .execute(self.db.pool())
            .await?;
        if done.rows_affected() == 1 {
            crate::members::search::refresh_searchable(self.db.pool(), user_id).await?;
            Ok(user_id)
        } else {
            Err(AccountError::LinkInvalid)
        }
    }

    /// Removes the personal data of accounts deleted longer than the reactivation period ago.
    /// The ledger stays (bookkeeping), tied to an anonymous row. Returns how many were purged.
    pub async fn purge_deleted(&self) -> Result<u64, AppError> {
        let cutoff = self.clock.now() - REACTIVATION_DAYS * 24 * 3600;
        let ids: Vec<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE status = 'deleted' AND deleted_at <= $1 AND email NOT LIKE 'purged-%'")
            .bind(cutoff)
            .fetch_all(self.db.pool())
            .await?;
        for (id,) in &ids {
            let mut tx = self.db.pool().begin().await?;
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
            let files: Vec<(String, String)> = sqlx::query_as("DELETE FROM photos WHERE user_id = $1 RETURNING filename, thumb_filename").bind(id).fetch_all(&mut *tx).await?;
            sqlx::query("UPDATE profiles SET main_photo = NULL, main_thumb = NULL, main_photo_id = NULL, about = NULL, searchable = $2 WHERE user_id = $1").bind(id).bind(false).execute(&mut *tx).await?;
            sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
            if let Some(media) = &self.media {
                for key in files.iter().flat_map(|(f, t)| [f, t]) {
                    if let Err(error) = media.delete(key).await {
                        tracing::warn!(%error, user = id, "could not delete a purged member's photo");
                    }
                }
            }
        }
        Ok(ids.len() as u64)
    }

    /// Runs [`Accounts::purge_deleted`] every hour in the background.
    pub fn spawn_purge(&self) -> tokio::task::JoinHandle<()> {
        let accounts = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
            loop {
                tick.tick().await;
                match accounts.purge_deleted().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(purged = n, "removed the personal data of deleted accounts"),
                    Err(error) => tracing::error!(%error, "purging deleted accounts failed"),
                }
            }
        })
    }

    /// Invisible members do not appear to others (search, likes, visitors).
    pub async fn set_invisible(&self, user_id: i64, invisible: bool) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET invisible = $1 WHERE id = $2").bind(invisible).bind(user_id).execute(self.db.pool()).await?;
        crate::members::search::refresh_searchable(self.db.pool(), user_id).await?;
        Ok(())
    }

    pub async fn is_invisible(&self, user_id: i64) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT invisible FROM users WHERE id = $1").bind(user_id).fetch_one(self.db.pool()).await?;
        Ok(flag(&row, "invisible")?)
    }

    /// Confirms the email address behind an activation link. Single use; expires.
    pub async fn activate(&self, token: &str) -> Result<i64, AccountError> {
        let user_id = self.consume_token(token, "activation").await?;
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE users SET status = 'active' WHERE id = $1 AND status = 'not_confirmed'").bind(user_id).execute(&mut *tx).await?;
        sqlx::query("UPDATE profiles SET status = 'active' WHERE user_id = $1 AND status = 'disabled'").bind(user_id).execute(&mut *tx).await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        tx.commit().await?;
        Ok(user_id)
    }

    async fn consume_token(&self, token: &str, kind: &str) -> Result<i64, AccountError> {
        if !tokens::is_well_formed(token) {
            return Err(AccountError::LinkInvalid);
        }
        let now = self.clock.now();
        // One statement marks it used, so two clicks at once cannot both succeed.
        let row: Option<(i64,)> = sqlx::query_as(
            "UPDATE account_tokens SET used_at = $1 WHERE token_hash = $2 AND kind = $3 AND used_at IS NULL AND expires_at > $1 RETURNING user_id",
        )
        .bind(now)
        .bind(tokens::hash(token))
        .bind(kind)
        .fetch_optional(self.db.pool())
        .await?;
        row.map(|(id,)| id).ok_or(AccountError::LinkInvalid)
    }

    /// Logs in with email and password on one site. Wrong passwords count towards a lockout kept
    /// in the database. A successful login returns a brand-new session token and ends
    /// `previous_session` (no session fixation).
    pub async fn login(&self, site_id: i64, email: &str, password: &str, previous_session: Option<&str>) -> Result<String, AccountError> {
        let now = self.clock.now();
        let email = email.trim().to_lowercase();
        let row = sqlx::query("SELECT id, password_hash, status, failed_logins, locked_until FROM users WHERE site_id = $1 AND email = $2")
            .bind(site_id)
            .bind(&email)
            .fetch_optional(self.db.pool())
            .await?;
        let Some(row) = row else {
            // Same work as for a real account, same answer.
            passwords::verify(password.to_string(), None).await?;
            return Err(AccountError::LoginFailed);
        };
        let user_id: i64 = row.try_get("id")?;
        let locked_until: Option<i64> = row.try_get("locked_until")?;
        if let Some(minutes) = self.lockout.minutes_left(locked_until, now) {
            return Err(AccountError::Locked { minutes });
        }
        let status: String = row.try_get("status")?;
        let ok = passwords::verify(password.to_string(), Some(row.try_get("password_hash")?)).await?;
        if ok && status == "deleted" {
            return Err(AccountError::NotYetDeleted);
        }
        if !ok || status == "blocked" {
            let failures: i64 = row.try_get("failed_logins")?;
            let (failures, lock) = self.lockout.after_failure(u32::try_from(failures).unwrap_or(u32::MAX), now);
            sqlx::query("UPDATE users SET failed_logins = $1, locked_until = $2 WHERE id = $3")
                .bind(i64::from(failures))
                .bind(lock)
                .bind(user_id)
                .execute(self.db.pool())
                .await?;
            return Err(match lock.and_then(|until| self.lockout.minutes_left(Some(until), now)) {
                Some(minutes) => AccountError::Locked { minutes },
                None => AccountError::LoginFailed,
            });
        }
        let mut tx = self.db.pool().begin().await?;
        sqlx::query("UPDATE users SET failed_logins = 0, locked_until = NULL WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
        if let Some(old) = previous_session {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(old)).execute(&mut *tx).await?;
        }
        let session = tokens::new_token();
        insert_session(&mut tx, user_id, &session, now).await?;
        tx.commit().await?;
        Ok(session)
    }

    /// The member behind a session cookie, if the session is valid.
    pub async fn member_for_session(&self, token: &str) -> Result<Option<Member>, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(None);
        }
        let row = sqlx::query(&format!("{MEMBER_SELECT} JOIN sessions s ON s.user_id = u.id WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.status <> 'deleted'"))
            .bind(tokens::hash(token))
            .bind(self.clock.now())
            .fetch_optional(self.db.pool())
            .await?;
        self.complete_member(row).await
    }

    pub async fn member(&self, user_id: i64) -> Result<Option<Member>, AppError> {
        let row = sqlx::query(&format!("{MEMBER_SELECT} WHERE u.id = $1")).bind(user_id).fetch_optional(self.db.pool()).await?;
        self.complete_member(row).await
    }

    /// Reads the row, and the alert state only when the row says there is one.
    async fn complete_member(&self, row: Option<AnyRow>) -> Result<Option<Member>, AppError> {
        let Some(row) = row else { return Ok(None) };
        let mut member = member_from_row(&row)?;
        let alert_rows: i64 = row.try_get("alert_rows")?;
        if alert_rows > 0 {
            member.alerts = self.alert_state(member.id).await?;
        }
        Ok(Some(member))
    }

    /// Ends one session on the server.
    pub async fn logout(&self, token: &str) -> Result<(), AppError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(token)).execute(self.db.pool()).await?;
        Ok(())
    }

    /// Credits and their ledger must agree; used by tests and audits.
    pub async fn ledger_balance(&self, user_id: i64) -> Result<(i64, i64), AppError> {
        let (credits,): (i64,) = sqlx::query_as("SELECT credits FROM users WHERE id = $1").bind(user_id).fetch_one(self.db.pool()).await?;
        let (sum,): (i64,) = sqlx::query_as("SELECT CAST(COALESCE(SUM(delta), 0) AS BIGINT) FROM credit_ledger WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(self.db.pool())
            .await?;
        Ok((credits, sum))
    }
}

async fn insert_session(tx: &mut Transaction<'_, Any>, user_id: i64, token: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(tokens::hash(token))
        .bind(user_id)
        .bind(now)
        .bind(now + SESSION_TTL_SECS)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn insert_token(tx: &mut Transaction<'_, Any>, user_id: i64, kind: &str, token: &str, now: i64, ttl: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO account_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(tokens::hash(token))
        .bind(user_id)
        .bind(kind)
        .bind(now)
        .bind(now + ttl)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Changes a member's credits and writes the ledger row, inside the caller's transaction.
/// The balance can never go below zero (the database refuses it too).
pub async fn book_credits(tx: &mut Transaction<'_, Any>, user_id: i64, delta: i64, reason: &str, reference: Option<&str>, now: i64) -> Result<i64, AppError> {
    let row: Option<(i64,)> = sqlx::query_as("UPDATE users SET credits = credits + $1 WHERE id = $2 AND credits + $1 >= 0 RETURNING credits")
        .bind(delta)
        .bind(user_id)
        .fetch_optional(&mut **tx)
        .await?;
    let (balance,) = row.ok_or(AppError::Invalid("insufficient_credits"))?;
    sqlx::query("INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(user_id)
        .bind(delta)
        .bind(balance)
        .bind(reason)
        .bind(reference)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(balance)
}
