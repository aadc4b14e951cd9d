//! The payment-provider interface: create a checkout, read a payment's verified status. The
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
}
