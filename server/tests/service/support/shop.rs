//! Buying in tests: the test provider's payments, a fake Mollie on loopback (payments, refunds
//! with idempotency keys, chargebacks and dashboard refunds), and small helpers.

use std::sync::{Arc, Mutex};

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use domain::ErrorCode;
use server::payments::provider::Provider;
use server::payments::{sms::SmsOutbox, Payments};
use server::{AppError, Db};

use super::world::World;

/// The test provider's payments. Nothing listens on the discard port: the test provider's own
/// webhook call goes nowhere, so each test drives the webhook itself.
/// A world and its payments through the test provider (the SMS outbox in the folder returned,
/// which must outlive the test).
pub async fn shop(db: Db) -> (World, tempfile::TempDir, Payments) {
    let w = crate::support::world::world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    (w, sms, p)
}

pub fn payments(w: &World, sms: &std::path::Path) -> Payments {
    let provider = Provider::Test(server::payments::test_provider::TestProvider::new(w.db.clone(), super::links()));
    Payments::new(w.db.clone(), provider, w.accounts.clone(), super::links(), SmsOutbox::Files(sms.to_path_buf()), "http://127.0.0.1:9".into())
        .with_timing(600, 86_400)
}

/// Payments through Mollie at the fake's address.
pub fn mollie_payments(w: &World, sms: &std::path::Path, base: &str) -> Payments {
    let provider = Provider::Mollie(server::payments::mollie::Mollie::new("test_fakemollie000000000000000000".into(), base.to_string()));
    Payments::new(w.db.clone(), provider, w.accounts.clone(), super::links(), SmsOutbox::Files(sms.to_path_buf()), "https://vonk.example".into())
        .with_timing(600, 86_400)
}

/// The six-digit code in a text message (after the `To:` line).
pub fn sms_code(text: &str) -> String {
    let body = text.split("\n\n").nth(1).unwrap_or_default();
    let digits: Vec<char> = body.chars().collect();
    for start in 0..digits.len().saturating_sub(5) {
        let run: String = digits[start..start + 6].iter().collect();
        let before = start.checked_sub(1).map(|i| digits[i].is_ascii_digit()).unwrap_or(false);
        let after = digits.get(start + 6).is_some_and(|c| c.is_ascii_digit());
        if run.chars().all(|c| c.is_ascii_digit()) && !before && !after {
            return run;
        }
    }
    panic!("no code in {text}")
}

pub fn refused(result: Result<impl std::fmt::Debug, AppError>) -> ErrorCode {
    match result {
        Err(AppError::Refused(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

pub async fn pack_id(w: &World, p: &Payments, credits: i64) -> i64 {
    p.packs(w.site.settings.id, "NL").await.unwrap().into_iter().find(|pack| pack.credits == credits).unwrap().id
}

pub async fn provider_id(db: &Db, payment: i64) -> String {
    let (id,): (String,) = sqlx::query_as("SELECT provider_id FROM payments WHERE id = $1").bind(payment).fetch_one(db.pool()).await.unwrap();
    id
}

pub async fn all_explained(db: &Db) {
    assert_eq!(server::credits::reconcile(db).await.unwrap(), vec![], "the ledger explains every balance");
}

/// Buys the bundle of `credits` through the test provider's page: the tester's choice, then
/// the webhook it would send. Answers the payment's id.
pub async fn buy(
    db: &Db,
    p: &Payments,
    w: &World,
    member: &server::accounts::Member,
    credits: i64,
    method: PaymentMethod,
    outcome: PaymentStatus,
    now: i64,
) -> i64 {
    let started = p.start_checkout(&w.site, member, pack_id(w, p, credits).await, method, None, "NL", "nl", now).await.unwrap();
    let tr = provider_id(db, started.payment_id).await;
    p.test_provider().unwrap().choose(&tr, outcome).await.unwrap();
    p.webhook("test", &tr, now).await.unwrap();
    started.payment_id
}

// ---------------------------------------------------------------------------------------------
// A fake Mollie on loopback.

#[derive(Default)]
pub struct FakeMollie {
    pub payments: Vec<serde_json::Value>,
    /// Answer every call with this status instead (to test failure answers).
    pub fail_with: Option<u16>,
    pub created_bodies: Vec<serde_json::Value>,
    /// Refunds by idempotency key, and every refund call's key (repeats included).
    pub refunds: std::collections::BTreeMap<String, serde_json::Value>,
    pub refund_calls: Vec<String>,
    /// Customers and mandates by id, and the answers by idempotency key (a repeat gets the first).
    pub customers: Vec<serde_json::Value>,
    pub mandates: Vec<serde_json::Value>,
    pub answers: std::collections::BTreeMap<String, serde_json::Value>,
}

pub type Fake = Arc<Mutex<FakeMollie>>;

pub async fn fake_mollie() -> (String, Fake) {
    use axum::extract::{Path, State};
    use axum::http::{HeaderMap, StatusCode};
    use axum::routing::{get, post};
    use axum::Json;
    let fake: Fake = Arc::default();
    fn authorised(headers: &HeaderMap) -> bool {
        headers.get("authorization").and_then(|v| v.to_str().ok()) == Some("Bearer test_fakemollie000000000000000000")
    }
    // The fake's outage, then Mollie's own check of the key.
    fn gate(f: &FakeMollie, headers: &HeaderMap) -> Option<(StatusCode, Json<serde_json::Value>)> {
        match f.fail_with {
            Some(status) => Some(problem(status, "the fake fails as asked")),
            None if !authorised(headers) => Some(problem(401, "Missing authentication")),
            None => None,
        }
    }
    fn idempotency_key(headers: &HeaderMap) -> Option<String> {
        headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_string)
    }
    fn problem(status: u16, detail: &str) -> (StatusCode, Json<serde_json::Value>) {
        (StatusCode::from_u16(status).unwrap(), Json(serde_json::json!({"status": status, "title": "Error", "detail": detail})))
    }
    let app = axum::Router::new()
        .route(
            "/v2/payments",
            post(move |State(fake): State<Fake>, headers: HeaderMap, Json(body): Json<serde_json::Value>| async move {
                let mut f = fake.lock().unwrap();
                if let Some(refusal) = gate(&f, &headers) {
                    return refusal;
                }
                if body["method"] == "paysafecard" {
                    return problem(422, "The payment method is not enabled");
                }
                let key = idempotency_key(&headers);
                if let Some(answer) = key.as_ref().and_then(|k| f.answers.get(k)) {
                    return (StatusCode::CREATED, Json(answer.clone()));
                }
                f.created_bodies.push(body.clone());
                let id = format!("tr_fake{}", f.payments.len() + 1);
                let payment = if body["sequenceType"] == "recurring" {
                    // A payment against a mandate: no checkout, pending until the bank answers.
                    let known = f.mandates.iter().any(|m| m["id"] == body["mandateId"] && m["customerId"] == body["customerId"]);
                    if !known {
                        return problem(422, "The mandate is not valid for this customer");
                    }
                    serde_json::json!({ "resource": "payment", "id": id, "status": "pending", "amount": body["amount"], "method": "directdebit", "sequenceType": "recurring", "mandateId": body["mandateId"] })
                } else {
                    serde_json::json!({
                        "resource": "payment", "id": id, "status": "open", "amount": body["amount"], "method": body["method"],
                        "_links": {"checkout": {"href": format!("https://www.mollie.com/checkout/select-method/{id}")}}
                    })
                };
                f.payments.push(payment.clone());
                if let Some(key) = key {
                    f.answers.insert(key, payment.clone());
                }
                (StatusCode::CREATED, Json(payment))
            }),
        )
        .route(
            "/v2/payments/{id}",
            get(move |State(fake): State<Fake>, headers: HeaderMap, Path(id): Path<String>| async move {
                let f = fake.lock().unwrap();
                if let Some(refusal) = gate(&f, &headers) {
                    return refusal;
                }
                match f.payments.iter().find(|p| p["id"] == id.as_str()) {
                    Some(p) => (StatusCode::OK, Json(p.clone())),
                    None => problem(404, "No payment exists with token"),
                }
            }),
        )
        .route(
            "/v2/customers",
            post(move |State(fake): State<Fake>, headers: HeaderMap, Json(body): Json<serde_json::Value>| async move {
                let mut f = fake.lock().unwrap();
                if let Some(refusal) = gate(&f, &headers) {
                    return refusal;
                }
                let key = idempotency_key(&headers).unwrap_or_default();
                if let Some(answer) = f.answers.get(&key) {
                    return (StatusCode::CREATED, Json(answer.clone()));
                }
                let customer = serde_json::json!({ "resource": "customer", "id": format!("cst_fake{}", f.customers.len() + 1), "name": body["name"], "email": body["email"] });
                f.customers.push(customer.clone());
                f.answers.insert(key, customer.clone());
                (StatusCode::CREATED, Json(customer))
            }),
        )
        .route(
            "/v2/customers/{id}/mandates",
            post(move |State(fake): State<Fake>, headers: HeaderMap, Path(id): Path<String>, Json(body): Json<serde_json::Value>| async move {
                let mut f = fake.lock().unwrap();
                if let Some(refusal) = gate(&f, &headers) {
                    return refusal;
                }
                if !f.customers.iter().any(|c| c["id"] == id.as_str()) {
                    return problem(404, "No customer exists with token");
                }
                let account = body["consumerAccount"].as_str().unwrap_or_default();
                if body["method"] != "directdebit" || body["consumerName"].as_str().unwrap_or_default().is_empty() || !account.starts_with("NL") || body["signatureDate"].as_str().map(str::len) != Some(10) {
                    return problem(422, "The mandate is incomplete");
                }
                let key = idempotency_key(&headers).unwrap_or_default();
                if let Some(answer) = f.answers.get(&key) {
                    return (StatusCode::CREATED, Json(answer.clone()));
                }
                let mandate = serde_json::json!({ "resource": "mandate", "id": format!("mdt_fake{}", f.mandates.len() + 1), "status": "valid", "customerId": id, "mandateReference": body["mandateReference"] });
                f.mandates.push(mandate.clone());
                f.answers.insert(key, mandate.clone());
                (StatusCode::CREATED, Json(mandate))
            }),
        )
        .route(
            "/v2/payments/{id}/refunds",
            post(move |State(fake): State<Fake>, headers: HeaderMap, Path(id): Path<String>, Json(body): Json<serde_json::Value>| async move {
                let mut f = fake.lock().unwrap();
                if let Some(refusal) = gate(&f, &headers) {
                    return refusal;
                }
                let key = idempotency_key(&headers).unwrap_or_default();
                f.refund_calls.push(key.clone());
                // Mollie answers a repeated idempotency key with the first answer.
                if let Some(refund) = f.refunds.get(&key) {
                    return (StatusCode::CREATED, Json(refund.clone()));
                }
                let asked = body["amount"]["value"].as_str().and_then(server::payments::mollie::parse_amount).unwrap_or(0);
                let n = f.refunds.len() + 1;
                let Some(p) = f.payments.iter_mut().find(|p| p["id"] == id.as_str()) else { return problem(404, "No payment exists with token") };
                let paid = p["amount"]["value"].as_str().and_then(server::payments::mollie::parse_amount).unwrap_or(0);
                let back = |field: &str| p[field]["value"].as_str().and_then(server::payments::mollie::parse_amount).unwrap_or(0);
                let left = paid - back("amountRefunded") - back("amountChargedBack");
                if p["status"] != "paid" || asked <= 0 || asked > left {
                    return problem(422, "The amount is higher than the amount that can be refunded");
                }
                let refunded = back("amountRefunded") + asked;
                p["amountRefunded"] = serde_json::json!({"currency": p["amount"]["currency"], "value": server::payments::mollie::amount_value(refunded)});
                let refund = serde_json::json!({"resource": "refund", "id": format!("re_fake{n}"), "status": "pending", "amount": body["amount"], "paymentId": id});
                if !key.is_empty() {
                    f.refunds.insert(key, refund.clone());
                }
                (StatusCode::CREATED, Json(refund))
            }),
        )
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), fake)
}

pub fn set_status(fake: &Fake, id: &str, status: &str) {
    let mut f = fake.lock().unwrap();
    let p = f.payments.iter_mut().find(|p| p["id"] == id).unwrap();
    p["status"] = serde_json::json!(status);
}

/// What the bank or Mollie's dashboard does on its own: a chargeback of `minor`, a refund of
/// `minor` typed in the dashboard (the payment's status stays `paid`, as at Mollie).
pub fn add_to(fake: &Fake, id: &str, field: &str, minor: i64) {
    let mut f = fake.lock().unwrap();
    let p = f.payments.iter_mut().find(|p| p["id"] == id).unwrap();
    let before = p[field]["value"].as_str().and_then(server::payments::mollie::parse_amount).unwrap_or(0);
    p[field] = serde_json::json!({"currency": p["amount"]["currency"], "value": server::payments::mollie::amount_value(before + minor)});
}
