//! The payment-provider interface: create a checkout, read a payment's verified status (with
//! what was refunded or charged back of it), refund. The
//! server computes the amount; a provider only ever hears it from us and we only believe a status
//! we asked the provider for ourselves (a webhook's body is never trusted).

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;

use super::mollie::Mollie;
use super::test_provider::TestProvider;

/// What we ask a provider to collect.
#[derive(Debug, Clone)]
pub struct CheckoutRequest {
    /// Our payment id (the provider keeps it as metadata).
    pub payment_id: i64,
    pub amount: i64,
    pub currency: String,
    pub description: String,
    pub method: PaymentMethod,
    /// Where the buyer returns: our result page.
    pub redirect_url: String,
    /// Where the provider reports a change.
    pub webhook_url: String,
    /// The buyer's language (`nl`), for the provider's pages.
    pub locale: String,
}

/// A created checkout: the provider's id and the page the buyer goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutCreated {
    pub provider_id: String,
    pub checkout_url: String,
}

/// A payment as the provider sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPayment {
    pub status: PaymentStatus,
    /// Amount and currency as the provider holds them, checked against ours before booking.
    pub amount: i64,
    pub currency: String,
    /// What went back of a paid payment: refunded (ours and those made in the provider's
    /// dashboard) and charged back by the buyer's bank, in minor units.
    pub refunded: i64,
    pub charged_back: i64,
}

/// A refund we ask a provider for. `idempotency_key` makes a repeat of the same request
/// (a retry after a timeout, a second click) the same refund on the provider's side.
#[derive(Debug, Clone)]
pub struct RefundRequest {
    pub provider_id: String,
    pub amount: i64,
    pub currency: String,
    pub description: String,
    pub idempotency_key: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// The provider said no to this request (a method it does not offer, an unknown payment).
    #[error("refused by the provider: {0}")]
    Refused(String),
    /// The provider could not be reached or failed; try again later.
    #[error("provider unavailable: {0}")]
    Unavailable(String),
}

/// A SEPA direct debit the member consented to on our form (IBAN and SMS code), for the
/// provider to collect: a customer, a mandate on that account, then a payment against it.
#[derive(Debug, Clone)]
pub struct DirectDebitRequest {
    pub payment_id: i64,
    /// Our direct-debit order: the mandate's reference and the idempotency keys come from it.
    pub order_id: i64,
    pub member_id: i64,
    /// The account holder as the member signed up (Mollie's `consumerName`).
    pub name: String,
    pub email: String,
    pub iban: String,
    /// When the member confirmed with the SMS code (unix seconds): the mandate's signature date.
    pub signed_at: i64,
    /// The member's customer at this provider, from an earlier order.
    pub customer_id: Option<String>,
    pub amount: i64,
    pub currency: String,
    pub description: String,
    pub webhook_url: String,
}

/// A direct debit the provider will collect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectDebitCreated {
    pub provider_id: String,
    pub customer_id: String,
    pub mandate_id: String,
}

/// The configured provider: Mollie with an API key, otherwise the built-in test provider.
#[derive(Debug, Clone)]
pub enum Provider {
    Test(TestProvider),
    Mollie(Mollie),
}

impl Provider {
    /// The name stored with each payment and used in the webhook path.
    pub fn name(&self) -> &'static str {
        match self {
            Provider::Test(_) => TestProvider::NAME,
            Provider::Mollie(_) => Mollie::NAME,
        }
    }

    /// Where a checkout form's post may be sent on (the page's `form-action`): the provider's
    /// hosted checkout. The test provider's page is on this site.
    pub fn checkout_origins(&self) -> &'static [&'static str] {
        match self {
            Provider::Test(_) => &[],
            Provider::Mollie(_) => &["https://www.mollie.com"],
        }
    }

    /// Whether this provider takes payments with `method`.
    pub fn supports(&self, method: PaymentMethod) -> bool {
        match self {
            Provider::Test(_) => method != PaymentMethod::DirectDebit,
            Provider::Mollie(_) => Mollie::method_id(method).is_some(),
        }
    }

    pub async fn create(&self, request: &CheckoutRequest) -> Result<CheckoutCreated, ProviderError> {
        match self {
            Provider::Test(p) => p.create(request).await,
            Provider::Mollie(p) => p.create(request).await,
        }
    }

    pub async fn payment(&self, provider_id: &str) -> Result<ProviderPayment, ProviderError> {
        match self {
            Provider::Test(p) => p.payment(provider_id).await,
            Provider::Mollie(p) => p.payment(provider_id).await,
        }
    }

    /// Collects a direct debit against a mandate (the payment starts pending at the provider).
    pub async fn direct_debit(&self, request: &DirectDebitRequest) -> Result<DirectDebitCreated, ProviderError> {
        match self {
            Provider::Test(p) => p.direct_debit(request).await,
            Provider::Mollie(p) => p.direct_debit(request).await,
        }
    }

    /// Refunds (part of) a paid payment; answers the provider's id of the refund.
    pub async fn refund(&self, request: &RefundRequest) -> Result<String, ProviderError> {
        match self {
            Provider::Test(p) => p.refund(request).await,
            Provider::Mollie(p) => p.refund(request).await,
        }
    }
}
