//! Signup and activation: a visitor becomes a member (logged in, unconfirmed) and confirms the
//! address with the mailed link.

use domain::account::{may_sign_up, validate_signup, SignupForm, Tracking, UserStatus, Ymd};
use domain::site::SiteSettings;
use domain::{ErrorCode, Locale};

use super::mails::LinkMailSpec;
use super::tokens::{self, Kind};
use super::{sessions, Accounts};
use crate::credits::{self, Entry, Reason};
use crate::error::AppError;

/// Activation links work for a week.
pub const ACTIVATION_TTL_SECS: i64 = 7 * 24 * 3600;
/// At most this many activation mails a day.
const ACTIVATIONS_PER_DAY: i64 = 3;

pub struct SignupRequest<'a> {
    pub site: &'a SiteSettings,
    pub form: SignupForm,
    pub tracking: Tracking,
    pub locale: Locale,
    /// Where links in mails point, e.g. `https://vonk.nl` (never taken from the request's Host).
    pub base_url: String,
    /// The device and country of the first session.
    pub client: super::Client,
    /// The invitation link's token the visitor came with (needed where the site asks for one).
    pub invitation: Option<String>,
}

impl Accounts {
    /// Signs a visitor up: validates, books the site's signup credits, sends the activation
    /// mail and returns the member's id and a new session token (logged in, unconfirmed).
    pub async fn signup(&self, request: SignupRequest<'_>) -> Result<(i64, String), AppError> {
        self.create_account(request, false).await
    }

    /// An account that is confirmed from the start: no activation mail, no reminders (the demo
    /// accounts a new demo database gets).
    pub async fn signup_confirmed(&self, request: SignupRequest<'_>) -> Result<(i64, String), AppError> {
        self.create_account(request, true).await
    }

    async fn create_account(&self, request: SignupRequest<'_>, confirmed: bool) -> Result<(i64, String), AppError> {
        let site = request.site;
        // An invitation opens a site that would refuse this visitor; it is used up below.
        let invitation = match may_sign_up(site.signups, &request.tracking, false) {
            Ok(()) => None,
            Err(refusal) => Some(request.invitation.as_deref().ok_or(refusal)?),
        };
        let now = self.clock.now();
        let valid = validate_signup(&request.form, Ymd::from_unix(now), site.min_age)?;
        if super::passwords::is_common(&valid.password) {
            return Err(domain::ApiError::field(domain::Field::Password, domain::ErrorCode::PasswordTooCommon).into());
        }
        let hash = super::passwords::hash(valid.password.clone()).await?;

        let mut tx = self.db.begin().await?;
        let taken: Option<(String,)> =
            sqlx::query_as("SELECT status FROM users WHERE site_id = $1 AND email = $2").bind(site.id).bind(&valid.email).fetch_optional(&mut *tx).await?;
        match taken.map(|(s,)| UserStatus::parse(&s)) {
            Some(Some(UserStatus::Deleted)) => return Err(ErrorCode::AccountNotDeletedYet.into()),
            Some(_) => return Err(ErrorCode::EmailTaken.into()),
            None => {}
        }
        // The landings that brought this visitor, and the tracking the site's model counts.
        let touches = crate::visits::signup_touches(&mut tx, site, request.client.visitor.as_deref(), now).await?;
        let tracking = touches.tracking(request.tracking.clone());
        let t = &tracking;
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
        let user_id = super::new_account(inserted)?;
        crate::visits::keep_touches(&mut tx, user_id, &touches).await?;
        let device = request.client.user_agent.as_deref().map(|ua| domain::visits::Device::of(ua).as_str().to_string());
        let source = domain::figures::Source::new(t, touches.lander(), request.client.country.clone(), device).with_variant(touches.variant());
        crate::figures::signup(&mut tx, site.id, user_id, &source, now).await?;
        crate::postbacks::queue(&mut tx, site.id, user_id, domain::postbacks::PostbackEvent::Signup, None, now).await?;
        if let Some(token) = invitation {
            super::invitations::use_invitation(&mut tx, site.id, token, user_id, now).await?;
        }
        // The profile stays out of sight until the address is confirmed (SPEC §4).
        sqlx::query("INSERT INTO profiles (user_id, name, date_of_birth, signup_message, status, site_id, last_active) VALUES ($1, $2, $3, $4, $7, $5, $6)")
            .bind(user_id)
            .bind(&valid.name)
            .bind(valid.date_of_birth.iso())
            .bind(valid.signup_message.clone())
            .bind(site.id)
            .bind(now)
            .bind(domain::account::ProfileStatus::Disabled.as_str())
            .execute(&mut *tx)
            .await?;
        if site.signup_credits > 0 {
            let reference = format!("signup:{user_id}");
            credits::book(&mut tx, Entry { user_id, delta: site.signup_credits, reason: Reason::Signup, reference: &reference }, now).await?;
        }
        crate::notifications::record(&mut tx, user_id, domain::notifications::NotificationKind::Welcome, None, now).await?;
        let session = sessions::start(&mut tx, user_id, now, &request.client).await?;
        if confirmed {
            sqlx::query("UPDATE users SET status = $2 WHERE id = $1").bind(user_id).bind(UserStatus::Active.as_str()).execute(&mut *tx).await?;
            sqlx::query("UPDATE profiles SET status = $2 WHERE user_id = $1")
                .bind(user_id)
                .bind(domain::account::ProfileStatus::Active.as_str())
                .execute(&mut *tx)
                .await?;
            crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
            crate::figures::confirmed(&mut tx, user_id, now).await?;
            tx.commit().await?;
            return Ok((user_id, session));
        }
        let activation = tokens::new_token();
        tokens::insert(&mut tx, user_id, Kind::Activation, &activation, None, now, ACTIVATION_TTL_SECS).await?;
        crate::lifecycle::schedule_signup_jobs(&mut tx, site, user_id, now).await?;
        tx.commit().await?;

        self.send_activation_mail(site, &request.base_url, request.locale, user_id, &valid.email, &valid.name, &activation).await?;
        Ok((user_id, session))
    }

    async fn send_activation_mail(
        &self,
        site: &SiteSettings,
        base_url: &str,
        locale: Locale,
        user_id: i64,
        to: &str,
        name: &str,
        token: &str,
    ) -> Result<(), AppError> {
        let spec = LinkMailSpec { prefix: "mail.activation", footer: "mail.footer", vars: &[("name", name)], unsubscribe_for: Some(user_id), lifecycle: None };
        self.send_link_mail(site, base_url, locale, to, spec, &self.links.activation(token)).await.map(drop)
    }

    /// Sends a fresh activation link to a member who has not confirmed yet (at most three a day).
    pub async fn resend_activation(&self, site: &SiteSettings, user_id: i64, base_url: &str) -> Result<(), AppError> {
        let now = self.clock.now();
        let member = self.member(user_id).await?.ok_or(ErrorCode::LinkExpired)?;
        if member.is_confirmed() {
            return Ok(());
        }
        if self.tokens_sent_today(user_id, Kind::Activation).await? >= ACTIVATIONS_PER_DAY {
            return Err(ErrorCode::TooManyMails.into());
        }
        let token = tokens::new_token();
        let mut tx = self.db.begin().await?;
        tokens::insert(&mut tx, user_id, Kind::Activation, &token, None, now, ACTIVATION_TTL_SECS).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        self.send_activation_mail(site, base_url, locale, user_id, &member.email, &member.name, &token).await
    }

    /// Confirms the email address behind an activation link. Single use; expires.
    pub async fn activate(&self, token: &str) -> Result<i64, AppError> {
        // A blocked member's link activates nothing (and stays unused).
        if tokens::is_well_formed(token) {
            let blocked: Option<(String,)> =
                sqlx::query_as("SELECT u.status FROM account_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1 AND t.kind = 'activation'")
                    .bind(tokens::hash(token))
                    .fetch_optional(self.db.pool())
                    .await?;
            if blocked.is_some_and(|(s,)| s == "blocked") {
                return Err(ErrorCode::Forbidden.into());
            }
        }
        let (user_id, _) = self.consume_token(token, Kind::Activation).await?;
        let mut tx = self.db.begin().await?;
        let confirmed: Option<(i64,)> = sqlx::query_as("UPDATE users SET status = $2 WHERE id = $1 AND status = $3 RETURNING site_id")
            .bind(user_id)
            .bind(domain::account::UserStatus::Active.as_str())
            .bind(domain::account::UserStatus::NotConfirmed.as_str())
            .fetch_optional(&mut *tx)
            .await?;
        if let Some((site_id,)) = confirmed {
            crate::figures::confirmed(&mut tx, user_id, self.clock.now()).await?;
            crate::postbacks::queue(&mut tx, site_id, user_id, domain::postbacks::PostbackEvent::Confirmed, None, self.clock.now()).await?;
        }
        sqlx::query("UPDATE profiles SET status = $2 WHERE user_id = $1 AND status = $3")
            .bind(user_id)
            .bind(domain::account::ProfileStatus::Active.as_str())
            .bind(domain::account::ProfileStatus::Disabled.as_str())
            .execute(&mut *tx)
            .await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        tx.commit().await?;
        Ok(user_id)
    }
}
