//! The built-in test provider, the default when no real provider is configured. It behaves like
//! a hosted checkout: its page on our own site (`PageLinks::test_checkout`) shows the amount and
//! lets the tester choose paid, failed, cancelled, expired or pending; then it calls our webhook
//! over HTTP with only its payment id, like Mollie does, and sends the buyer back. Its records
//! are its own table; our payments only learn a status by asking [`TestProvider::payment`].

use domain::checkout::PaymentStatus;

use super::provider::{CheckoutCreated, CheckoutRequest, DirectDebitCreated, DirectDebitRequest, ProviderError, ProviderPayment, RefundRequest};
use crate::db::Db;
use crate::error::AppError;
use crate::links::Links;

#[derive(Debug, Clone)]
pub struct TestProvider {
    db: Db,
    links: Links,
    http: reqwest::Client,
    /// Before the first webhook call (`VONK_TEST_WEBHOOK_DELAY_SECS`).
    webhook_delay: std::time::Duration,
}

/// What the test checkout page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCheckout {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    pub description: String,
    pub method: String,
    pub status: PaymentStatus,
    pub redirect_url: String,
}

/// A test payment as the provider reports it.
#[derive(sqlx::FromRow)]
struct PaymentRow {
    amount: i64,
    currency: String,
    status: String,
    refunded: i64,
    charged_back: i64,
}

/// A test payment as its checkout page shows it.
#[derive(sqlx::FromRow)]
struct CheckoutRow {
    id: String,
    amount: i64,
    currency: String,
    description: String,
    method: String,
    status: String,
    redirect_url: String,
}

impl TestProvider {
    pub const NAME: &'static str = "test";

    pub fn new(db: Db, links: Links) -> TestProvider {
        let http = reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build().expect("an HTTP client");
        TestProvider { db, links, http, webhook_delay: std::time::Duration::ZERO }
    }

    /// Holds the webhook back for `delay` after the buyer's choice, as a real provider often
    /// does: the result page then settles the payment itself.
    pub fn with_webhook_delay(mut self, delay: std::time::Duration) -> TestProvider {
        self.webhook_delay = delay;
        self
    }

    pub(super) async fn create(&self, r: &CheckoutRequest) -> Result<CheckoutCreated, ProviderError> {
        let id = format!("tst_{}", &crate::accounts::tokens::new_token()[..20]);
        sqlx::query(
            "INSERT INTO test_checkouts (id, amount, currency, description, method, redirect_url, webhook_url, status, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $9, $8)",
        )
        .bind(&id)
        .bind(r.amount)
        .bind(&r.currency)
        .bind(&r.description)
        .bind(r.method.code())
        .bind(&r.redirect_url)
        .bind(&r.webhook_url)
        .bind(crate::seed::now_unix())
        .bind(PaymentStatus::Open.code())
        .execute(self.db.pool())
        .await
        .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
        Ok(CheckoutCreated { checkout_url: self.links.test_checkout(&id), provider_id: id })
    }

    pub(super) async fn payment(&self, id: &str) -> Result<ProviderPayment, ProviderError> {
        let row = sqlx::query_as::<_, PaymentRow>("SELECT amount, currency, status, refunded, charged_back FROM test_checkouts WHERE id = $1")
            .bind(id)
            .fetch_optional(self.db.pool())
            .await
            .map_err(|e| ProviderError::Unavailable(e.to_string()))?
            .ok_or_else(|| ProviderError::Refused(format!("no test payment {id}")))?;
        let status = row.status;
        Ok(ProviderPayment {
            status: PaymentStatus::parse(&status).ok_or_else(|| ProviderError::Unavailable(format!("status {status}")))?,
            amount: row.amount,
            currency: row.currency,
            refunded: row.refunded,
            charged_back: row.charged_back,
        })
    }

    /// A direct debit to collect: pending until `vonk payments collect <id> paid|failed` (the
    /// bank's answer, some days later at a real provider).
    pub(super) async fn direct_debit(&self, r: &DirectDebitRequest) -> Result<DirectDebitCreated, ProviderError> {
        let id = format!("tst_dd{}", r.order_id);
        sqlx::query(
            "INSERT INTO test_checkouts (id, amount, currency, description, method, redirect_url, webhook_url, status, created_at) \
             VALUES ($1, $2, $3, $4, $5, '', $6, $7, $8) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&id)
        .bind(r.amount)
        .bind(&r.currency)
        .bind(&r.description)
        .bind(domain::payment::PaymentMethod::DirectDebit.code())
        .bind(&r.webhook_url)
        .bind(PaymentStatus::Pending.code())
        .bind(crate::seed::now_unix())
        .execute(self.db.pool())
        .await
        .map_err(|e| ProviderError::Unavailable(e.to_string()))?;
        Ok(DirectDebitCreated {
            provider_id: id,
            customer_id: r.customer_id.clone().unwrap_or_else(|| format!("tcst_{}", r.member_id)),
            mandate_id: format!("tmdt_{}", r.order_id),
        })
    }

    /// The bank's answer to a pending direct debit: collected or not. Reported to our webhook.
    pub async fn collect(&self, id: &str, collected: bool) -> Result<(), AppError> {
        let next = if collected { PaymentStatus::Paid } else { PaymentStatus::Failed };
        let moved = sqlx::query("UPDATE test_checkouts SET status = $1 WHERE id = $2 AND status = $3 AND method = $4")
            .bind(next.code())
            .bind(id)
            .bind(PaymentStatus::Pending.code())
            .bind(domain::payment::PaymentMethod::DirectDebit.code())
            .execute(self.db.pool())
            .await?
            .rows_affected();
        if moved == 0 {
            return Err(domain::ErrorCode::BadRequest.into());
        }
        self.report(id).await;
        Ok(())
    }

    /// Refunds like a provider: once per idempotency key (a repeat answers the same refund),
    /// never more than was paid and not yet refunded.
    pub(super) async fn refund(&self, r: &RefundRequest) -> Result<String, ProviderError> {
        let unavailable = |e: sqlx::Error| ProviderError::Unavailable(e.to_string());
        if r.amount <= 0 {
            return Err(ProviderError::Refused(format!("a refund of {}", r.amount)));
        }
        let refund_id = format!("tre_{}", &crate::accounts::tokens::hash(&r.idempotency_key)[..20]);
        let mut tx = self.db.begin().await.map_err(unavailable)?;
        // The key first: a second call with it waits for the first and then finds it.
        let fresh = sqlx::query(
            "INSERT INTO test_refunds (idempotency_key, checkout_id, amount, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (idempotency_key) DO NOTHING",
        )
        .bind(&r.idempotency_key)
        .bind(&r.provider_id)
        .bind(r.amount)
        .bind(crate::seed::now_unix())
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?
        .rows_affected();
        if fresh == 0 {
            let (checkout,): (String,) = sqlx::query_as("SELECT checkout_id FROM test_refunds WHERE idempotency_key = $1")
                .bind(&r.idempotency_key)
                .fetch_one(&mut *tx)
                .await
                .map_err(unavailable)?;
            return if checkout == r.provider_id { Ok(refund_id) } else { Err(ProviderError::Refused("idempotency key used for another payment".into())) };
        }
        let moved = sqlx::query(
            "UPDATE test_checkouts SET refunded = refunded + $1 WHERE id = $2 AND status = $3 AND currency = $4 AND refunded + charged_back + $1 <= amount",
        )
        .bind(r.amount)
        .bind(&r.provider_id)
        .bind(PaymentStatus::Paid.code())
        .bind(&r.currency)
        .execute(&mut *tx)
        .await
        .map_err(unavailable)?
        .rows_affected();
        if moved == 0 {
            return Err(ProviderError::Refused(format!("test payment {} cannot be refunded by {}", r.provider_id, r.amount)));
        }
        tx.commit().await.map_err(unavailable)?;
        Ok(refund_id)
    }

    /// What the provider's dashboard or the buyer's bank does on its own, then reported to our
    /// webhook: a refund of `amount` typed in the dashboard, or a chargeback of what is left.
    /// `vonk payments provider-refund|chargeback` (test provider only).
    pub async fn outside_change(&self, id: &str, chargeback: bool, amount: i64) -> Result<(), AppError> {
        let checkout = self.checkout(id).await?.ok_or(domain::ErrorCode::NotFound)?;
        let sql = if chargeback {
            "UPDATE test_checkouts SET charged_back = amount - refunded WHERE id = $2 AND status = $3 AND charged_back = 0 AND $1 >= 0"
        } else {
            "UPDATE test_checkouts SET refunded = refunded + $1 WHERE id = $2 AND status = $3 AND $1 > 0 AND refunded + charged_back + $1 <= amount"
        };
        let moved = sqlx::query(sql).bind(amount).bind(&checkout.id).bind(PaymentStatus::Paid.code()).execute(self.db.pool()).await?.rows_affected();
        if moved == 0 {
            return Err(domain::ErrorCode::BadRequest.into());
        }
        self.report(id).await;
        Ok(())
    }

    /// The checkout page's data; `None` for an unknown id.
    pub async fn checkout(&self, id: &str) -> Result<Option<TestCheckout>, AppError> {
        let row = sqlx::query_as::<_, CheckoutRow>("SELECT id, amount, currency, description, method, status, redirect_url FROM test_checkouts WHERE id = $1")
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?;
        Ok(row.map(|row| TestCheckout {
            id: row.id,
            amount: row.amount,
            currency: row.currency,
            description: row.description,
            method: row.method,
            status: PaymentStatus::parse(&row.status).unwrap_or(PaymentStatus::Failed),
            redirect_url: row.redirect_url,
        }))
    }

    /// The tester's choice on the checkout page: moves the test payment (forward only), then
    /// reports to the webhook in the background. Answers where the buyer goes next.
    pub async fn choose(&self, id: &str, outcome: PaymentStatus) -> Result<String, AppError> {
        let checkout = self.checkout(id).await?.ok_or(domain::ErrorCode::NotFound)?;
        if !matches!(outcome, PaymentStatus::Paid | PaymentStatus::Failed | PaymentStatus::Canceled | PaymentStatus::Expired | PaymentStatus::Pending) {
            return Err(domain::ErrorCode::BadRequest.into());
        }
        if checkout.status.may_become(outcome) {
            sqlx::query("UPDATE test_checkouts SET status = $1 WHERE id = $2 AND status = $3")
                .bind(outcome.code())
                .bind(id)
                .bind(checkout.status.code())
                .execute(self.db.pool())
                .await?;
            self.report(id).await;
        }
        Ok(checkout.redirect_url)
    }

    /// Posts `id=…` to the payment's webhook, as a provider would: in the background, a few
    /// tries with a growing pause. Our result page asks the provider itself as well, so a
    /// webhook that never arrives delays nothing.
    async fn report(&self, id: &str) {
        let Ok(Some((url,))) =
            sqlx::query_as::<_, (String,)>("SELECT webhook_url FROM test_checkouts WHERE id = $1").bind(id).fetch_optional(self.db.pool()).await
        else {
            return;
        };
        let http = self.http.clone();
        let id = id.to_string();
        let delay = self.webhook_delay;
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            for attempt in 0..3u32 {
                let sent = http.post(&url).header("content-type", "application/x-www-form-urlencoded").body(format!("id={id}")).send().await;
                match sent {
                    Ok(res) if res.status().is_success() => return,
                    Ok(res) => tracing::debug!(status = %res.status(), "test provider webhook answered"),
                    Err(error) => tracing::debug!(%error, "test provider webhook failed"),
                }
                tokio::time::sleep(std::time::Duration::from_millis(500 << attempt)).await;
            }
        });
    }
}
