//! Age assurance (`domain::age`). A site may ask members (everywhere, or in some countries) to
//! pass an age check with a provider before they chat or buy credits; [`gate`] is that rule,
//! called by the chat's and the payments' services themselves, so no page or server function can
//! go around it.
//!
//! A check is the provider's, as a payment is: the member is sent to the provider's page, comes
//! back to `/age-check`, and the site asks the provider how it ended ([`AgeChecks::settle`]). What
//! is kept is the outcome (`age_checks.status`), the provider's reference and, once passed, the
//! moment (`users.age_verified_at`); no document, photo or date of birth from the provider.
//!
//! Providers are [`AgeProvider`]'s variants. The built-in test provider (on a site that takes test
//! payments) lets the tester choose the outcome on its own page; a real one is added as a variant
//! beside it, the way `payments::Provider` holds Mollie beside the test provider.

use domain::age::{AgeStatus, CheckStatus};
use domain::ErrorCode;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::links::Links;
use crate::sites::Site;

/// Checks one member may start per day (each may cost the operator a provider's fee).
pub const CHECKS_PER_DAY: i64 = 5;

/// Whether `member` may chat or buy on `site` now: `age_check_required` when the site asks for a
/// passed age check in one of the member's countries (profile, session, and `country` of a
/// payment) and they have not passed one.
pub async fn gate(db: &Db, site: &domain::site::SiteSettings, member: &Member, country: Option<&str>) -> Result<(), AppError> {
    if member.age_verified {
        return Ok(());
    }
    let rule = site.age_rule();
    if !rule.asks([member.country.as_deref(), member.session_country.as_deref(), country]) {
        return Ok(());
    }
    // The member read with the session may be older than a check passed since.
    if verified_at(db, member.id).await?.is_some() {
        return Ok(());
    }
    Err(ErrorCode::AgeCheckRequired.into())
}

/// When member `user_id` passed an age check, if they did.
async fn verified_at(db: &Db, user_id: i64) -> Result<Option<i64>, AppError> {
    let row: Option<(Option<i64>,)> = sqlx::query_as("SELECT age_verified_at FROM users WHERE id = $1").bind(user_id).fetch_optional(db.pool()).await?;
    Ok(row.and_then(|(at,)| at))
}

/// What a provider is asked to check.
#[derive(Debug, Clone)]
pub struct CheckRequest {
    /// Where the member comes back to (absolute).
    pub return_url: String,
    pub locale: String,
}

/// A check the provider opened: its reference and where the member goes.
#[derive(Debug, Clone)]
pub struct CheckCreated {
    pub reference: String,
    pub url: String,
}

/// The configured age-check provider.
#[derive(Debug, Clone)]
pub enum AgeProvider {
    Test(TestAgeProvider),
}

impl AgeProvider {
    /// The name stored with each check.
    pub fn name(&self) -> &'static str {
        match self {
            AgeProvider::Test(_) => TestAgeProvider::NAME,
        }
    }

    async fn create(&self, request: &CheckRequest) -> Result<CheckCreated, AppError> {
        match self {
            AgeProvider::Test(p) => p.create(request).await,
        }
    }

    /// How the check with `reference` ended (or that it has not).
    async fn outcome(&self, reference: &str) -> Result<CheckStatus, AppError> {
        match self {
            AgeProvider::Test(p) => p.outcome(reference).await,
        }
    }
}

/// A member's checks as staff see them in the member file.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CheckRecord {
    pub provider: String,
    pub reference: String,
    #[sqlx(try_from = "String")]
    pub status: CheckStatus,
    pub created_at: i64,
    pub decided_at: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct AgeChecks {
    db: Db,
    provider: Option<AgeProvider>,
    links: Links,
    public_url: String,
}

impl AgeChecks {
    pub fn new(db: Db, provider: Option<AgeProvider>, links: Links, public_url: String) -> AgeChecks {
        AgeChecks { db, provider, links, public_url }
    }

    /// The provider of a site that takes test payments is the test one; otherwise none is
    /// configured until a real provider is added.
    pub fn from_config(db: Db, links: Links, config: &crate::config::Config) -> AgeChecks {
        let provider = (config.payments == crate::config::PaymentsChoice::Test).then(|| AgeProvider::Test(TestAgeProvider::new(db.clone(), links.clone())));
        AgeChecks::new(db, provider, links, config.public_url.clone())
    }

    pub fn available(&self) -> bool {
        self.provider.is_some()
    }

    /// The built-in test provider, when it is the one.
    pub fn test_provider(&self) -> Option<&TestAgeProvider> {
        match &self.provider {
            Some(AgeProvider::Test(p)) => Some(p),
            None => None,
        }
    }

    /// The test provider's check `reference` when it is `member_id`'s (its page is theirs alone).
    pub async fn own_test_check(&self, member_id: i64, reference: &str) -> Result<Option<(&TestAgeProvider, TestCheck)>, AppError> {
        let Some(provider) = self.test_provider() else { return Ok(None) };
        let owned: Option<(i64,)> = sqlx::query_as("SELECT id FROM age_checks WHERE provider = $1 AND reference = $2 AND user_id = $3")
            .bind(TestAgeProvider::NAME)
            .bind(reference)
            .bind(member_id)
            .fetch_optional(self.db.pool())
            .await?;
        if owned.is_none() {
            return Ok(None);
        }
        Ok(provider.check(reference).await?.map(|check| (provider, check)))
    }

    /// Refuses a site setting that asks for checks no provider can do.
    pub fn check_setting(&self, settings: &domain::staff::AgeSettings) -> Result<(), AppError> {
        if !settings.rule().is_off() && !self.available() {
            return Err(ErrorCode::AgeChecksUnavailable.into());
        }
        Ok(())
    }

    /// What the member's page shows. `back_from`: the check the provider sent the member back
    /// from (another member's is `not_found`), settled and shown; otherwise their latest check,
    /// settled with the provider first while it is open.
    pub async fn status(&self, site: &Site, member: &Member, back_from: Option<i64>, now: i64) -> Result<AgeStatus, AppError> {
        let latest = match back_from {
            Some(id) => Some(self.settle(member, id, now).await?),
            None => match self.latest(member.id).await? {
                Some((id, CheckStatus::Started)) => Some(self.settle(member, id, now).await?),
                other => other.map(|(_, status)| status),
            },
        };
        let verified = member.age_verified || latest == Some(CheckStatus::Passed) || self.verified_at(member.id).await?.is_some();
        let rule = site.settings.age_rule();
        Ok(AgeStatus { asked: rule.asks([member.country.as_deref(), member.session_country.as_deref()]), verified, latest, available: self.available() })
    }

    /// When the member passed a check, if they did.
    pub async fn verified_at(&self, user_id: i64) -> Result<Option<i64>, AppError> {
        verified_at(&self.db, user_id).await
    }

    async fn latest(&self, user_id: i64) -> Result<Option<(i64, CheckStatus)>, AppError> {
        let row: Option<(i64, String)> = sqlx::query_as("SELECT id, status FROM age_checks WHERE user_id = $1 ORDER BY id DESC LIMIT 1")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.and_then(|(id, status)| CheckStatus::parse(&status).map(|s| (id, s))))
    }

    /// Opens a check with the provider and answers where the member goes. Refusals:
    /// `age_checks_unavailable` (no provider), `too_many_requests` (too many today). A member who
    /// passed already is sent back to their page.
    pub async fn start(&self, site: &Site, member: &Member, locale: &str, now: i64) -> Result<String, AppError> {
        let provider = self.provider.as_ref().ok_or(ErrorCode::AgeChecksUnavailable)?;
        let page = crate::links::absolute(&site.base_url(&self.public_url), &self.links.age_check(None));
        if member.age_verified || self.verified_at(member.id).await?.is_some() {
            return Ok(page);
        }
        let (today,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM age_checks WHERE user_id = $1 AND created_at > $2")
            .bind(member.id)
            .bind(now - 86_400)
            .fetch_one(self.db.pool())
            .await?;
        if today >= CHECKS_PER_DAY {
            return Err(ErrorCode::TooManyRequests.into());
        }
        // The row first: the way back names it. Its reference is the provider's once created.
        let placeholder = format!("new:{}", crate::accounts::tokens::new_token());
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO age_checks (site_id, user_id, provider, reference, status, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
                .bind(site.settings.id)
                .bind(member.id)
                .bind(provider.name())
                .bind(&placeholder)
                .bind(CheckStatus::Started.as_str())
                .bind(now)
                .fetch_one(self.db.pool())
                .await?;
        let request =
            CheckRequest { return_url: crate::links::absolute(&site.base_url(&self.public_url), &self.links.age_check(Some(id))), locale: locale.to_string() };
        let created = match provider.create(&request).await {
            Ok(created) => created,
            Err(error) => {
                sqlx::query("UPDATE age_checks SET status = $1, decided_at = $2 WHERE id = $3")
                    .bind(CheckStatus::Failed.as_str())
                    .bind(now)
                    .bind(id)
                    .execute(self.db.pool())
                    .await?;
                return Err(error);
            }
        };
        sqlx::query("UPDATE age_checks SET reference = $1 WHERE id = $2").bind(&created.reference).bind(id).execute(self.db.pool()).await?;
        tracing::info!(target: "security", member = member.id, check = id, provider = provider.name(), "age check started");
        Ok(created.url)
    }

    /// Asks the provider how the member's check `id` ended and keeps a final answer once: a
    /// pass marks the member verified. Another member's check is `not_found`.
    pub async fn settle(&self, member: &Member, id: i64, now: i64) -> Result<CheckStatus, AppError> {
        let row: Option<(String, String, String)> = sqlx::query_as("SELECT provider, reference, status FROM age_checks WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(member.id)
            .fetch_optional(self.db.pool())
            .await?;
        let (provider_name, reference, status) = row.ok_or(ErrorCode::NotFound)?;
        let status = CheckStatus::parse(&status).ok_or_else(|| AppError::Internal(format!("age check status {status}")))?;
        if status.is_final() {
            return Ok(status);
        }
        let Some(provider) = self.provider.as_ref().filter(|p| p.name() == provider_name) else { return Ok(status) };
        if reference.starts_with("new:") {
            return Ok(status);
        }
        let outcome = provider.outcome(&reference).await?;
        if !outcome.is_final() {
            return Ok(outcome);
        }
        let mut tx = self.db.begin().await?;
        let moved = sqlx::query("UPDATE age_checks SET status = $1, decided_at = $2 WHERE id = $3 AND status = $4")
            .bind(outcome.as_str())
            .bind(now)
            .bind(id)
            .bind(CheckStatus::Started.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if moved == 1 && outcome == CheckStatus::Passed {
            sqlx::query("UPDATE users SET age_verified_at = $1 WHERE id = $2 AND age_verified_at IS NULL").bind(now).bind(member.id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        if moved == 1 {
            tracing::info!(target: "security", member = member.id, check = id, outcome = outcome.as_str(), "age check settled");
        }
        Ok(outcome)
    }

    /// A member's checks, newest first (the member file).
    pub async fn records(&self, user_id: i64) -> Result<Vec<CheckRecord>, AppError> {
        Ok(sqlx::query_as("SELECT provider, reference, status, created_at, decided_at FROM age_checks WHERE user_id = $1 ORDER BY id DESC LIMIT 20")
            .bind(user_id)
            .fetch_all(self.db.pool())
            .await?)
    }
}

/// The built-in test provider: its page on this site (`PageLinks::test_age_check`) lets the tester
/// say whether the member is an adult, then sends them back. It keeps its checks in its own table,
/// as a provider does on its side; the site learns an outcome only by asking [`AgeProvider`].
#[derive(Debug, Clone)]
pub struct TestAgeProvider {
    db: Db,
    links: Links,
}

/// A test check as its page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCheck {
    pub id: String,
    pub status: CheckStatus,
    pub return_url: String,
}

impl TestAgeProvider {
    pub const NAME: &'static str = "test";

    pub fn new(db: Db, links: Links) -> TestAgeProvider {
        TestAgeProvider { db, links }
    }

    async fn create(&self, request: &CheckRequest) -> Result<CheckCreated, AppError> {
        let id = format!("tage_{}", &crate::accounts::tokens::new_token()[..20]);
        sqlx::query("INSERT INTO test_age_checks (id, return_url, status, created_at) VALUES ($1, $2, $3, $4)")
            .bind(&id)
            .bind(&request.return_url)
            .bind(CheckStatus::Started.as_str())
            .bind(crate::seed::now_unix())
            .execute(self.db.pool())
            .await?;
        Ok(CheckCreated { url: self.links.test_age_check(&id), reference: id })
    }

    async fn outcome(&self, reference: &str) -> Result<CheckStatus, AppError> {
        Ok(self.check(reference).await?.map(|c| c.status).unwrap_or(CheckStatus::Failed))
    }

    /// The check its page shows.
    pub async fn check(&self, id: &str) -> Result<Option<TestCheck>, AppError> {
        let row: Option<(String, String, String)> =
            sqlx::query_as("SELECT id, status, return_url FROM test_age_checks WHERE id = $1").bind(id).fetch_optional(self.db.pool()).await?;
        Ok(row.and_then(|(id, status, return_url)| CheckStatus::parse(&status).map(|status| TestCheck { id, status, return_url })))
    }

    /// The tester's answer: adult or not, once. Answers where the member goes back to.
    pub async fn choose(&self, id: &str, passed: bool) -> Result<String, AppError> {
        let next = if passed { CheckStatus::Passed } else { CheckStatus::Failed };
        sqlx::query("UPDATE test_age_checks SET status = $1 WHERE id = $2 AND status = $3")
            .bind(next.as_str())
            .bind(id)
            .bind(CheckStatus::Started.as_str())
            .execute(self.db.pool())
            .await?;
        self.check(id).await?.map(|c| c.return_url).ok_or_else(|| ErrorCode::NotFound.into())
    }
}
