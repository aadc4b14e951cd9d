//! Buying credits: offers, checkouts through the configured provider, the webhook, the recovery
//! job, direct debit, and the member's own payments.
//!
//! Money is exact by these rules:
//! - The server computes every amount ([`domain::checkout::quote`]); a checkout fixes it in the
//!   `payments` row before the provider hears of it.
//! - A status is only believed when we asked the provider for it ourselves, and only if the
//!   provider's amount and currency are ours. Statuses only move forward.
//! - [`Payments::apply`] moves a payment in one transaction that locks its row: marking it paid,
//!   booking its credits (`payment:{id}` in the ledger, so a repeat is a no-op) and making the
//!   member premium commit together or not at all. A webhook, the result page and the recovery
//!   job can race; the credits are booked once.
//! - A process that dies after the provider said paid leaves the payment open; the recovery job
//!   ([`Payments::recover`], at start and every minute) asks again and books it.

pub mod direct_debit;
pub mod leaving;
pub mod mollie;
mod offers;
pub mod provider;
pub mod receipt_pdf;
mod receipts;
mod recovery;
pub mod refunds;
pub mod sms;
pub mod staff;
pub mod test_provider;

use domain::checkout::{Discount, PaymentStatus, Quote};
use domain::payment::PaymentMethod;
use domain::site::CreditPack;
use domain::ErrorCode;
use sqlx::Row;

use crate::accounts::{Accounts, Member};
use crate::credits::{self, Entry, Reason};
use crate::db::Db;
use crate::error::AppError;
use crate::links::Links;
use crate::sites::Site;
use provider::{CheckoutRequest, Provider, ProviderError};

/// The provider name of direct debits: our own mandate flow, confirmed by an SMS code.
pub const DIRECT_DEBIT: &str = "direct_debit";

#[derive(Debug, Clone)]
pub struct Payments {
    db: Db,
    provider: Provider,
    accounts: Accounts,
    links: Links,
    sms: sms::SmsOutbox,
    /// Base of the webhook URL for the default site (`VONK_PUBLIC_URL`).
    public_url: String,
    recheck_after: i64,
    expire_after: i64,
    /// Crash tests: stop before booking a verified payment (`VONK_FAULT=pause_before_booking`).
    pause_before_booking: bool,
    /// The packs on offer per site and country, as `/pricing` and `/credits` list them; kept
    /// as long as the site settings (`VONK_SITE_CACHE_SECS`). A purchase reads its pack anew.
    packs_cache: std::sync::Arc<crate::ttl_cache::TtlCache<(i64, String), Vec<CreditPack>>>,
    /// The node's site settings, for receipts (without it, a receipt reads its site from the
    /// database).
    sites: Option<crate::sites::SiteCache>,
    /// The chat's bus: a booked or reversed payment tells the member's open chats the new
    /// balance (on every node).
    bus: Option<crate::chat::bus::Bus>,
    /// The running price tests: a tested bundle costs the member the price they were shown.
    splits: crate::splits::Splits,
}

/// What `/credits` shows: the bundles for the buyer's country with their prices now, the
/// discount in force and the methods on offer.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    pub country: String,
    pub packs: Vec<(CreditPack, Quote)>,
    pub discount: Option<Discount>,
    pub methods: Vec<PaymentMethod>,
    /// Seconds left of the time bonus, when it is the discount in force.
    pub time_bonus_left: Option<i64>,
    /// The automatic offers: what the member gets now and what follows.
    pub offers: domain::offers::Offers,
}

/// A checkout that was started: where the buyer goes now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Started {
    pub payment_id: i64,
    pub checkout_url: String,
}

/// One payment as its member sees it (shared with the pages).
pub use domain::checkout::PaymentSummary as PaymentView;

pub use recovery::Recovery;

const PAYMENT_COLUMNS: &str = "id, pack_id, credits, list_price, amount, currency, vat_rate, method, status, discount_code, discount_percent, created_at, paid_at, checkout_url, refunded";

/// A payment's status column as stored; anything else is our bug, never the member's.
fn status_of(row: &sqlx::any::AnyRow, column: &str) -> Result<PaymentStatus, AppError> {
    let text: String = row.try_get(column)?;
    PaymentStatus::try_from(text).map_err(AppError::Internal)
}

/// A row of [`PAYMENT_COLUMNS`] (`#[derive(sqlx::FromRow)]` on the domain's type).
fn view(row: &sqlx::any::AnyRow) -> Result<PaymentView, AppError> {
    Ok(<PaymentView as sqlx::FromRow<_>>::from_row(row)?)
}

impl Payments {
    pub fn new(db: Db, provider: Provider, accounts: Accounts, links: Links, sms: sms::SmsOutbox, public_url: String) -> Payments {
        let packs_cache = std::sync::Arc::new(crate::ttl_cache::TtlCache::new(std::time::Duration::ZERO, 256));
        Payments {
            splits: crate::splits::Splits::new(db.clone(), crate::clock::Clock::System),
            db,
            provider,
            accounts,
            links,
            sms,
            public_url,
            recheck_after: 600,
            expire_after: 86_400,
            pause_before_booking: false,
            packs_cache,
            sites: None,
            bus: None,
        }
    }

    /// The provider the configuration chose (`VONK_PAYMENTS`); none chosen is an error.
    pub fn from_config(db: Db, accounts: Accounts, links: Links, config: &crate::config::Config) -> Result<Payments, AppError> {
        let provider = match &config.payments {
            crate::config::PaymentsChoice::NotSet => {
                return Err(AppError::Internal("VONK_PAYMENTS is not set: choose mollie (with MOLLIE_API_KEY) or test".into()))
            }
            crate::config::PaymentsChoice::Mollie { api_key } => Provider::Mollie(mollie::Mollie::new(api_key.clone(), config.mollie_api_url.clone())),
            crate::config::PaymentsChoice::Test => {
                tracing::warn!("payments use the built-in test provider (VONK_PAYMENTS=test): its checkout page lets the buyer choose the outcome");
                Provider::Test(
                    test_provider::TestProvider::new(db.clone(), links.clone())
                        .with_webhook_delay(std::time::Duration::from_secs(config.test_webhook_delay.max(0) as u64)),
                )
            }
        };
        let mut payments = Payments::new(db, provider, accounts, links, sms::SmsOutbox::Files(config.data_dir.join("sms")), config.public_url.clone());
        payments.recheck_after = config.payment_recheck_after;
        payments.expire_after = config.payment_expire_after;
        payments.pause_before_booking = config.fault.as_deref() == Some("pause_before_booking");
        payments.packs_cache = std::sync::Arc::new(crate::ttl_cache::TtlCache::new(config.site_cache_refresh, 256));
        Ok(payments)
    }

    /// Receipts take their site from the node's cache instead of the database.
    pub fn with_sites(mut self, sites: crate::sites::SiteCache) -> Payments {
        self.sites = Some(sites);
        self
    }

    /// The node's split tests (their starts and stops seen at once); without it the payments
    /// read the running price tests themselves, a few seconds behind.
    pub fn with_splits(mut self, splits: crate::splits::Splits) -> Payments {
        self.splits = splits;
        self
    }

    pub fn with_bus(mut self, bus: crate::chat::bus::Bus) -> Payments {
        self.bus = Some(bus);
        self
    }

    /// Recovery timing: re-read open payments after `recheck` seconds, expire them after `expire`.
    pub fn with_timing(mut self, recheck: i64, expire: i64) -> Payments {
        self.recheck_after = recheck;
        self.expire_after = expire;
        self
    }

    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// The built-in test provider, when it is the one configured.
    pub fn test_provider(&self) -> Option<&test_provider::TestProvider> {
        match &self.provider {
            Provider::Test(p) => Some(p),
            Provider::Mollie(_) => None,
        }
    }

    /// The test provider's checkout `checkout_id` when it pays a payment of `member_id`'s; `None`
    /// for another member's, an unknown id, or when the test provider is not the one configured.
    pub async fn own_test_checkout(
        &self,
        member_id: i64,
        checkout_id: &str,
    ) -> Result<Option<(&test_provider::TestProvider, test_provider::TestCheckout)>, AppError> {
        let Some(provider) = self.test_provider() else { return Ok(None) };
        let owned: Option<(i64,)> = sqlx::query_as("SELECT id FROM payments WHERE provider = $1 AND provider_id = $2 AND user_id = $3")
            .bind(test_provider::TestProvider::NAME)
            .bind(checkout_id)
            .bind(member_id)
            .fetch_optional(self.pool())
            .await?;
        if owned.is_none() {
            return Ok(None);
        }
        Ok(provider.checkout(checkout_id).await?.map(|checkout| (provider, checkout)))
    }

    pub fn sms(&self) -> &sms::SmsOutbox {
        &self.sms
    }

    fn pool(&self) -> &sqlx::AnyPool {
        self.db.pool()
    }

    /// The country a member buys in: their profile's, else the visitor's (GeoIP).
    pub async fn buyer_country(&self, member_id: i64, visitor_country: &str) -> Result<String, AppError> {
        let row: Option<(Option<String>,)> =
            sqlx::query_as("SELECT country FROM profiles WHERE user_id = $1").bind(member_id).fetch_optional(self.pool()).await?;
        Ok(row.and_then(|(c,)| c).filter(|c| c.len() == 2).unwrap_or_else(|| visitor_country.to_string()).to_ascii_uppercase())
    }

    /// Where a provider reports changes for this site.
    fn webhook_url(&self, site: &Site) -> String {
        crate::links::absolute(&site.base_url(&self.public_url), &format!("/webhooks/payments/{}", self.provider.name()))
    }

    /// Inserts an open payment and takes its discount code; `DiscountUsed` when another
    /// payment took it first.
    async fn insert_payment(
        &self,
        site: &Site,
        member: &Member,
        q: &Quote,
        method: PaymentMethod,
        country: &str,
        provider: &str,
        provider_id: Option<&str>,
        now: i64,
    ) -> Result<i64, AppError> {
        let mut tx = self.db.begin().await?;
        let id = self.insert_payment_in(&mut tx, site, member, q, method, country, provider, provider_id, now).await?;
        tx.commit().await?;
        crate::metrics::payment(PaymentStatus::Open.code());
        Ok(id)
    }

    /// [`Payments::insert_payment`] inside the caller's transaction (which commits it).
    async fn insert_payment_in(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        site: &Site,
        member: &Member,
        q: &Quote,
        method: PaymentMethod,
        country: &str,
        provider: &str,
        provider_id: Option<&str>,
        now: i64,
    ) -> Result<i64, AppError> {
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO payments (user_id, site_id, pack_id, credits, list_price, amount, currency, vat_rate, country, method, provider, provider_id, \
             status, discount_code, discount_percent, created_at, updated_at, checked_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $16, $13, $14, $15, $15, $15) RETURNING id",
        )
        .bind(member.id)
        .bind(site.settings.id)
        .bind(q.pack_id)
        .bind(q.credits)
        .bind(q.list_price)
        .bind(q.amount)
        .bind(&q.currency)
        .bind(q.vat_rate_bp)
        .bind(country)
        .bind(method.code())
        .bind(provider)
        .bind(provider_id)
        .bind(q.discount.as_ref().map(|d| d.code.clone()))
        .bind(q.discount.as_ref().map(|d| d.percent).unwrap_or(0))
        .bind(now)
        .bind(PaymentStatus::Open.code())
        .fetch_one(&mut **tx)
        .await?;
        if let Some(d) = &q.discount {
            let taken = sqlx::query("INSERT INTO discount_redemptions (user_id, code, payment_id) VALUES ($1, $2, $3) ON CONFLICT (user_id, code) DO NOTHING")
                .bind(member.id)
                .bind(&d.code)
                .bind(id)
                .execute(&mut **tx)
                .await?
                .rows_affected();
            if taken == 0 {
                return Err(domain::ApiError::field(domain::Field::DiscountCode, ErrorCode::DiscountUsed).into());
            }
        }
        Ok(id)
    }

    /// Starts paying for a bundle with a method: fixes the price in a new payment, creates the
    /// provider's checkout and answers where the buyer goes. Refusals: `method_unavailable`,
    /// `not_found` (no such bundle here), the discount code's.
    pub async fn start_checkout(
        &self,
        site: &Site,
        member: &Member,
        pack_id: i64,
        method: PaymentMethod,
        typed: Option<&str>,
        country: &str,
        locale: &str,
        now: i64,
    ) -> Result<Started, AppError> {
        if method == PaymentMethod::DirectDebit || !self.methods(country).contains(&method) {
            return Err(ErrorCode::MethodUnavailable.into());
        }
        self.refuse_if_blocked(member.id, method).await?;
        // The site may ask for a confirmed address before a member's first payment.
        if site.settings.first_payment_needs_confirmed_address && !member.is_confirmed() && !member.paid_user {
            return Err(ErrorCode::AddressNotConfirmed.into());
        }
        crate::age::gate(&self.db, site, member, Some(country)).await?;
        crate::fraud::payment_gate(&self.db, site, member, now).await?;
        let q = self.quote(site, member, pack_id, typed, country, now).await?;
        let id = self.insert_payment(site, member, &q, method, country, self.provider.name(), None, now).await?;
        let request = CheckoutRequest {
            payment_id: id,
            amount: q.amount,
            currency: q.currency.clone(),
            description: format!("{} – {} credits (#{id})", site.settings.name, q.credits),
            method,
            redirect_url: crate::links::absolute(&site.base_url(&self.public_url), &self.links.transaction(id)),
            webhook_url: self.webhook_url(site),
            locale: locale.to_string(),
        };
        match self.provider.create(&request).await {
            Ok(created) => {
                sqlx::query("UPDATE payments SET provider_id = $1, checkout_url = $2 WHERE id = $3")
                    .bind(&created.provider_id)
                    .bind(&created.checkout_url)
                    .bind(id)
                    .execute(self.pool())
                    .await?;
                Ok(Started { payment_id: id, checkout_url: created.checkout_url })
            }
            Err(error) => {
                tracing::warn!(payment = id, %error, "creating a checkout failed");
                self.apply(id, PaymentStatus::Failed, now).await?;
                Err(match error {
                    ProviderError::Refused(_) => ErrorCode::MethodUnavailable.into(),
                    ProviderError::Unavailable(reason) => AppError::Internal(reason),
                })
            }
        }
    }

    /// A provider's webhook: `provider_id` is all it says. Unknown ids change nothing (and get
    /// no hint); a known open payment is read from the provider and moved. Errors only when the
    /// provider could not be asked (the provider then tries again).
    pub async fn webhook(&self, provider: &str, provider_id: &str, now: i64) -> Result<Option<PaymentStatus>, AppError> {
        if provider != self.provider.name() || provider_id.is_empty() || provider_id.len() > 128 {
            return Ok(None);
        }
        let row: Option<(i64,)> = sqlx::query_as("SELECT id FROM payments WHERE provider = $1 AND provider_id = $2")
            .bind(provider)
            .bind(provider_id)
            .fetch_optional(self.pool())
            .await?;
        match row {
            Some((id,)) => self.sync(id, now).await.map(Some),
            None => Ok(None),
        }
    }

    /// Asks the provider for an open payment's status and moves it; of a paid (or refunded)
    /// payment it hears what went back since (a refund in its dashboard, a chargeback). Other
    /// settled payments are answered from our own row.
    pub async fn sync(&self, payment_id: i64, now: i64) -> Result<PaymentStatus, AppError> {
        let row = sqlx::query("SELECT status, provider, provider_id, amount, currency, method FROM payments WHERE id = $1")
            .bind(payment_id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(ErrorCode::NotFound)?;
        let status = status_of(&row, "status")?;
        let after_sale = matches!(status, PaymentStatus::Paid | PaymentStatus::Refunded);
        if !status.is_open() && !after_sale {
            return Ok(status);
        }
        let provider: String = row.try_get("provider")?;
        let provider_id: Option<String> = row.try_get("provider_id")?;
        if provider == DIRECT_DEBIT {
            if after_sale {
                return Ok(status);
            }
            // Confirmed by its SMS code but not yet handed to the provider to collect.
            return self.collect_direct_debit(payment_id, now).await;
        }
        let Some(provider_id) = provider_id else { return Ok(status) };
        if provider != self.provider.name() {
            tracing::warn!(payment = payment_id, provider, "an open payment of a provider that is no longer configured");
            return Ok(status);
        }
        let reported = match self.provider.payment(&provider_id).await {
            Ok(p) => p,
            Err(ProviderError::Refused(reason)) => {
                tracing::warn!(payment = payment_id, reason, "the provider does not know this payment");
                return Ok(status);
            }
            Err(ProviderError::Unavailable(reason)) => return Err(AppError::Internal(reason)),
        };
        let (amount, currency): (i64, String) = (row.try_get("amount")?, row.try_get("currency")?);
        if reported.amount != amount || !reported.currency.eq_ignore_ascii_case(&currency) {
            tracing::error!(payment = payment_id, ours = amount, theirs = reported.amount, "the provider's amount differs from ours: not booked");
            return Ok(status);
        }
        sqlx::query("UPDATE payments SET checked_at = $1 WHERE id = $2").bind(now).bind(payment_id).execute(self.pool()).await?;
        let direct_debit = row.try_get::<String, _>("method")? == PaymentMethod::DirectDebit.code();
        if after_sale && direct_debit && (reported.status.is_failure() || reported.charged_back > 0) {
            // A collection that failed after the credits were given, or one the member's bank
            // reversed: what `vonk payments reverse` does.
            return self.apply(payment_id, PaymentStatus::Reversed, now).await;
        }
        if after_sale {
            return self.heard_after_sale(payment_id, &reported, now).await;
        }
        if reported.status == status {
            return Ok(status);
        }
        self.apply(payment_id, reported.status, now).await
    }

    /// Moves a payment to `next` if that is forward, in one transaction: a paid payment books
    /// its credits and makes the member premium; a failed one gives its discount code back.
    /// Answers the status it has afterwards.
    pub async fn apply(&self, payment_id: i64, next: PaymentStatus, now: i64) -> Result<PaymentStatus, AppError> {
        if next == PaymentStatus::Paid && self.pause_before_booking {
            // Crash tests kill the process here: the provider said paid, nothing is booked yet.
            eprintln!("FAULT pause_before_booking payment={payment_id}");
            std::future::pending::<()>().await;
        }
        let mut tx = self.db.begin().await?;
        let row =
            sqlx::query("UPDATE payments SET updated_at = updated_at WHERE id = $1 RETURNING status, user_id, credits, site_id, amount, currency, paid_at")
                .bind(payment_id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or(ErrorCode::NotFound)?;
        let current = status_of(&row, "status")?;
        if !current.may_become(next) {
            return Ok(current);
        }
        let (user_id, credits): (i64, i64) = (row.try_get("user_id")?, row.try_get("credits")?);
        let site_id: i64 = row.try_get("site_id")?;
        let facts = crate::postbacks::PaymentFacts { id: payment_id, amount: row.try_get("amount")?, currency: row.try_get("currency")? };
        sqlx::query("UPDATE payments SET status = $1, updated_at = $2, checked_at = $2, paid_at = CASE WHEN $1 = $4 THEN $2 ELSE paid_at END WHERE id = $3")
            .bind(next.code())
            .bind(now)
            .bind(payment_id)
            .bind(PaymentStatus::Paid.code())
            .execute(&mut *tx)
            .await?;
        match next {
            PaymentStatus::Paid => {
                credits::book(&mut tx, Entry { user_id, delta: credits, reason: Reason::Purchase, reference: &format!("payment:{payment_id}") }, now).await?;
                // The first bundle makes the member premium (SPEC §1), in the same transaction.
                // The row changes only for a first purchase: that is what the network hears of.
                let first = sqlx::query("UPDATE users SET paid_user = TRUE WHERE id = $1 AND paid_user = $2")
                    .bind(user_id)
                    .bind(false)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                    == 1;
                crate::figures::paid(&mut tx, user_id, facts.amount, &facts.currency, first, now).await?;
                crate::splits::paid(&mut tx, user_id, facts.amount, &facts.currency, now).await?;
                use domain::postbacks::PostbackEvent;
                if first {
                    crate::postbacks::queue(&mut tx, site_id, user_id, PostbackEvent::FirstPurchase, Some(&facts), now).await?;
                }
                crate::postbacks::queue(&mut tx, site_id, user_id, PostbackEvent::Purchase, Some(&facts), now).await?;
            }
            PaymentStatus::Reversed => {
                // The bank took the money back: the credits go, as far as they are left, and
                // direct debit closes for this member (SPEC §8).
                let (balance,): (i64,) = sqlx::query_as("SELECT credits FROM users WHERE id = $1").bind(user_id).fetch_one(&mut *tx).await?;
                let take = credits.min(balance);
                if take > 0 {
                    credits::book(&mut tx, Entry { user_id, delta: -take, reason: Reason::Refund, reference: &format!("reversal:{payment_id}") }, now).await?;
                }
                sqlx::query("UPDATE users SET direct_debit_blocked = TRUE WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
                crate::figures::refunded(&mut tx, user_id, facts.amount, &facts.currency, now).await?;
                let paid_at: Option<i64> = row.try_get("paid_at")?;
                crate::splits::refunded(&mut tx, user_id, facts.amount, &facts.currency, paid_at.unwrap_or(now)).await?;
                crate::postbacks::queue(&mut tx, site_id, user_id, domain::postbacks::PostbackEvent::Reversal, Some(&facts), now).await?;
            }
            s if s.is_failure() => {
                sqlx::query("DELETE FROM discount_redemptions WHERE payment_id = $1").bind(payment_id).execute(&mut *tx).await?;
            }
            _ => {}
        }
        tx.commit().await?;
        crate::metrics::payment(next.code());
        if matches!(next, PaymentStatus::Paid | PaymentStatus::Reversed) {
            if let Some(bus) = &self.bus {
                if let Err(error) = bus.publish(&[crate::chat::bus::Signal::Balance { user: user_id }]).await {
                    tracing::warn!(payment = payment_id, %error, "the open chats did not hear of the new balance");
                }
            }
        }
        if next == PaymentStatus::Paid {
            if let Err(error) = self.send_receipt(payment_id, now).await {
                tracing::warn!(payment = payment_id, %error, "the receipt did not go out; the recovery job tries again");
            }
        }
        Ok(next)
    }

    /// One of the member's own payments; another member's is `not_found`.
    pub async fn payment(&self, member_id: i64, payment_id: i64) -> Result<PaymentView, AppError> {
        let row = sqlx::query(&format!("SELECT {PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND user_id = $2"))
            .bind(payment_id)
            .bind(member_id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(ErrorCode::NotFound)?;
        view(&row)
    }

    /// Whether this paid payment is the member's first (the one that made them premium):
    /// no paid payment of theirs was paid before it.
    pub async fn first_paid(&self, member_id: i64, payment_id: i64) -> Result<bool, AppError> {
        let earlier: Option<(i64,)> = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM payments p WHERE p.user_id = $1 AND p.status = $2 \
             AND (p.paid_at < q.paid_at OR (p.paid_at = q.paid_at AND p.id < q.id))) \
             FROM payments q WHERE q.id = $3 AND q.user_id = $1 AND q.status = $2",
        )
        .bind(member_id)
        .bind(domain::checkout::PaymentStatus::Paid.code())
        .bind(payment_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(earlier.is_some_and(|(n,)| n == 0))
    }

    /// The member's payments, newest first.
    pub async fn payments(&self, member_id: i64, limit: i64) -> Result<Vec<PaymentView>, AppError> {
        let rows = sqlx::query(&format!("SELECT {PAYMENT_COLUMNS} FROM payments WHERE user_id = $1 ORDER BY id DESC LIMIT $2"))
            .bind(member_id)
            .bind(limit.clamp(1, 200))
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(view).collect()
    }

    /// The member's last paid bundle and method, for the repeat order.
    pub async fn last_order(&self, member_id: i64) -> Result<Option<PaymentView>, AppError> {
        let row = sqlx::query(&format!("SELECT {PAYMENT_COLUMNS} FROM payments WHERE user_id = $1 AND status = $2 ORDER BY id DESC LIMIT 1"))
            .bind(member_id)
            .bind(domain::checkout::PaymentStatus::Paid.code())
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(view).transpose()
    }

    /// A bank reversed a direct debit (staff records it, `vonk payments reverse <id>`; a
    /// provider that collects reports it by webhook instead).
    pub async fn reverse(&self, payment_id: i64, now: i64) -> Result<PaymentStatus, AppError> {
        let (method,): (String,) =
            sqlx::query_as("SELECT method FROM payments WHERE id = $1").bind(payment_id).fetch_optional(self.pool()).await?.ok_or(ErrorCode::NotFound)?;
        if method != PaymentMethod::DirectDebit.code() {
            return Err(ErrorCode::BadRequest.into());
        }
        self.apply(payment_id, PaymentStatus::Reversed, now).await
    }
}
