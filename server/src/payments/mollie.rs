//! Mollie (API v2) over plain HTTPS: `POST /v2/payments` creates a payment with its checkout
//! link, `GET /v2/payments/{id}` reads its status (and `amountRefunded`, `amountChargedBack`),
//! `POST /v2/payments/{id}/refunds` refunds with an `Idempotency-Key`. A direct debit is a
//! customer (`POST /v2/customers`), a mandate on the member's account
//! (`POST /v2/customers/{id}/mandates`) and a recurring payment against it. Mollie's webhook is an unsigned form post with
//! only `id=tr_…`, so every status we act on comes from our own `GET`.

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use serde_json::{json, Value};

use super::provider::{CheckoutCreated, CheckoutRequest, DirectDebitCreated, DirectDebitRequest, ProviderError, ProviderPayment, RefundRequest};

#[derive(Clone)]
pub struct Mollie {
    http: reqwest::Client,
    api_key: String,
    base_url: String,
}

impl std::fmt::Debug for Mollie {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key never reaches a log.
        f.debug_struct("Mollie").field("base_url", &self.base_url).finish()
    }
}

/// Minor units as Mollie's amount string: 1995 → "19.95" (our currencies have two decimals).
pub fn amount_value(minor: i64) -> String {
    format!("{}.{:02}", minor / 100, minor % 100)
}

/// Mollie's amount string back to minor units; `None` for anything but `digits.two digits`.
pub fn parse_amount(value: &str) -> Option<i64> {
    let (units, cents) = value.split_once('.')?;
    if cents.len() != 2 || units.is_empty() || !units.chars().chain(cents.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(units.parse::<i64>().ok()? * 100 + cents.parse::<i64>().ok()?)
}

/// Mollie's status names (`authorized` waits for capture: still pending for us).
pub fn map_status(status: &str) -> Option<PaymentStatus> {
    Some(match status {
        "open" => PaymentStatus::Open,
        "pending" | "authorized" => PaymentStatus::Pending,
        "paid" => PaymentStatus::Paid,
        "failed" => PaymentStatus::Failed,
        "canceled" => PaymentStatus::Canceled,
        "expired" => PaymentStatus::Expired,
        _ => return None,
    })
}

impl Mollie {
    pub const NAME: &'static str = "mollie";

    pub fn new(api_key: String, base_url: String) -> Mollie {
        let http = reqwest::Client::builder().timeout(std::time::Duration::from_secs(20)).build().expect("an HTTP client");
        Mollie { http, api_key, base_url }
    }

    /// Mollie's method id for each of our methods; card brands are card payments. Giropay and
    /// Sofort are gone from Mollie; direct debit is our own mandate flow, not a checkout.
    pub fn method_id(method: PaymentMethod) -> Option<&'static str> {
        use PaymentMethod::*;
        Some(match method {
            CreditCard | Mastercard | Visa | Maestro | CarteBancaire | Dankort | Nexi | Postepay => "creditcard",
            Paypal => "paypal",
            Ideal => "ideal",
            Bancontact => "bancontact",
            ApplePay => "applepay",
            Blik => "blik",
            Eps => "eps",
            Twint => "twint",
            Swish => "swish",
            Vipps => "vipps",
            Mobilepay => "mobilepay",
            Satispay => "satispay",
            Paysafecard => "paysafecard",
            Przelewy24 => "przelewy24",
            BankTransfer => "banktransfer",
            Giropay | Sofort | DirectDebit => return None,
        })
    }

    fn locale(lang: &str) -> &'static str {
        match lang {
            "nl" => "nl_NL",
            "de" => "de_DE",
            "fr" => "fr_FR",
            "es" => "es_ES",
            "it" => "it_IT",
            "da" => "da_DK",
            "nb" => "nb_NO",
            "sv" => "sv_SE",
            "fi" => "fi_FI",
            "pl" => "pl_PL",
            _ => "en_US",
        }
    }

    pub(super) async fn create(&self, r: &CheckoutRequest) -> Result<CheckoutCreated, ProviderError> {
        let method = Mollie::method_id(r.method).ok_or_else(|| ProviderError::Refused(format!("Mollie has no method for {}", r.method.code())))?;
        let body = json!({
            "amount": { "currency": r.currency, "value": amount_value(r.amount) },
            "description": r.description,
            "redirectUrl": r.redirect_url,
            "webhookUrl": r.webhook_url,
            "method": method,
            "locale": Mollie::locale(&r.locale),
            "metadata": { "payment_id": r.payment_id },
        });
        let answer =
            self.send(self.http.post(format!("{}/v2/payments", self.base_url)).header("content-type", "application/json").body(body.to_string())).await?;
        let provider_id =
            answer["id"].as_str().filter(|id| !id.is_empty()).ok_or_else(|| ProviderError::Unavailable("Mollie answered without an id".into()))?;
        let checkout_url =
            answer["_links"]["checkout"]["href"].as_str().ok_or_else(|| ProviderError::Unavailable("Mollie answered without a checkout link".into()))?;
        Ok(CheckoutCreated { provider_id: provider_id.to_string(), checkout_url: checkout_url.to_string() })
    }

    pub(super) async fn payment(&self, id: &str) -> Result<ProviderPayment, ProviderError> {
        // Only ids of Mollie's shape go into the URL.
        if !id.starts_with("tr_") || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(ProviderError::Refused(format!("not a Mollie payment id: {id:.64}")));
        }
        let answer = self.send(self.http.get(format!("{}/v2/payments/{id}", self.base_url))).await?;
        let status =
            answer["status"].as_str().and_then(map_status).ok_or_else(|| ProviderError::Unavailable(format!("unknown Mollie status {}", answer["status"])))?;
        let amount =
            answer["amount"]["value"].as_str().and_then(parse_amount).ok_or_else(|| ProviderError::Unavailable("Mollie answered without an amount".into()))?;
        let currency = answer["amount"]["currency"].as_str().unwrap_or_default().to_string();
        // Absent until something went back.
        let back = |field: &str| answer[field]["value"].as_str().and_then(parse_amount).unwrap_or(0);
        Ok(ProviderPayment { status, amount, currency, refunded: back("amountRefunded"), charged_back: back("amountChargedBack") })
    }

    pub(super) async fn direct_debit(&self, r: &DirectDebitRequest) -> Result<DirectDebitCreated, ProviderError> {
        // Each step is keyed by our order: a retry after a timeout repeats no step.
        let key = |step: &str| format!("vonk-dd-{}-{step}", r.order_id);
        let shaped = |id: &str, prefix: &str| id.starts_with(prefix) && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let post = |path: String, step: &str, body: Value| {
            self.http
                .post(format!("{}{path}", self.base_url))
                .header("content-type", "application/json")
                .header("idempotency-key", key(step))
                .body(body.to_string())
        };
        let id_of = |answer: Value, prefix: &str| {
            answer["id"]
                .as_str()
                .filter(|id| shaped(id, prefix))
                .map(str::to_string)
                .ok_or_else(|| ProviderError::Unavailable(format!("Mollie answered without a {prefix} id")))
        };
        let customer = match r.customer_id.as_deref().filter(|c| shaped(c, "cst_")) {
            Some(customer) => customer.to_string(),
            None => id_of(
                self.send(post("/v2/customers".into(), "customer", json!({ "name": r.name, "email": r.email, "metadata": { "member_id": r.member_id } })))
                    .await?,
                "cst_",
            )?,
        };
        let day = domain::date::from_unix(r.signed_at);
        let mandate = json!({
            "method": "directdebit",
            "consumerName": r.name,
            "consumerAccount": r.iban,
            "signatureDate": format!("{:04}-{:02}-{:02}", day.year, day.month, day.day),
            "mandateReference": format!("VONK-{}", r.order_id),
        });
        let mandate_id = id_of(self.send(post(format!("/v2/customers/{customer}/mandates"), "mandate", mandate)).await?, "mdt_")?;
        let payment = json!({
            "amount": { "currency": r.currency, "value": amount_value(r.amount) },
            "description": r.description,
            "sequenceType": "recurring",
            "customerId": customer,
            "mandateId": mandate_id,
            "webhookUrl": r.webhook_url,
            "metadata": { "payment_id": r.payment_id },
        });
        let provider_id = id_of(self.send(post("/v2/payments".into(), "payment", payment)).await?, "tr_")?;
        Ok(DirectDebitCreated { provider_id, customer_id: customer, mandate_id })
    }

    pub(super) async fn refund(&self, r: &RefundRequest) -> Result<String, ProviderError> {
        let id = &r.provider_id;
        if !id.starts_with("tr_") || id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(ProviderError::Refused(format!("not a Mollie payment id: {id:.64}")));
        }
        let body = json!({
            "amount": { "currency": r.currency, "value": amount_value(r.amount) },
            "description": r.description,
        });
        let request = self
            .http
            .post(format!("{}/v2/payments/{id}/refunds", self.base_url))
            .header("content-type", "application/json")
            .header("idempotency-key", &r.idempotency_key)
            .body(body.to_string());
        let answer = self.send(request).await?;
        answer["id"]
            .as_str()
            .filter(|id| !id.is_empty())
            .map(str::to_string)
            .ok_or_else(|| ProviderError::Unavailable("Mollie answered a refund without an id".into()))
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, ProviderError> {
        let res = request.bearer_auth(&self.api_key).send().await.map_err(|e| ProviderError::Unavailable(format!("Mollie: {e}")))?;
        let status = res.status();
        let text = res.text().await.map_err(|e| ProviderError::Unavailable(format!("Mollie: {e}")))?;
        let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(body);
        }
        // Mollie's errors are problem+json: {"status":422,"title":"…","detail":"…","field":"…"}.
        let detail = format!("Mollie {status}: {}", body["detail"].as_str().unwrap_or("no detail"));
        match status.as_u16() {
            400 | 404 | 410 | 422 => Err(ProviderError::Refused(detail)),
            _ => Err(ProviderError::Unavailable(detail)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_statuses() {
        assert_eq!(amount_value(1995), "19.95");
        assert_eq!(amount_value(5), "0.05");
        assert_eq!(parse_amount("19.95"), Some(1995));
        assert_eq!(parse_amount("19.9"), None);
        assert_eq!(parse_amount("-1.00"), None);
        assert_eq!(map_status("authorized"), Some(PaymentStatus::Pending));
        assert_eq!(map_status("paid"), Some(PaymentStatus::Paid));
        assert_eq!(map_status("weird"), None);
        assert_eq!(Mollie::method_id(PaymentMethod::Visa), Some("creditcard"));
        assert_eq!(Mollie::method_id(PaymentMethod::Sofort), None);
        // Every method but the three Mollie does not take maps somewhere.
        let mapped = PaymentMethod::ALL.iter().filter(|m| Mollie::method_id(**m).is_some()).count();
        assert_eq!(mapped, 22);
    }
}
