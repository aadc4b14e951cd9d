//! Payment providers' webhooks: `POST /webhooks/payments/{provider}` with a form body that
//! carries only the provider's payment id (`id=tr_…`). The body is never trusted: the payment is
//! read back from the provider before anything moves (see `crate::payments`). Unknown ids get
//! the same `200` as known ones; only a provider we could not ask answers `503`, so the
//! provider tries again. And the result page's settling ([`settle_before_result_page`]), and
//! the receipt as a PDF (`GET /transactions/{id}/receipt.pdf`, a file, so a route of its own).

use axum::extract::{DefaultBodyLimit, Form, Path, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use http::StatusCode;
use serde::Deserialize;

use crate::http::extract::ClientIp;
use crate::http::rate_limit::Limit;
use crate::http::session::CurrentMember;
use crate::state::AppState;

pub const WEBHOOK_PREFIX: &str = "/webhooks/payments/";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/webhooks/payments/{provider}", post(webhook))
        .route("/transactions/{id}/receipt.pdf", get(receipt_pdf))
        .layer(DefaultBodyLimit::max(4096))
}

/// The receipt of the member's own paid payment, as a PDF download. A visitor is sent to log
/// in (and back); anyone else's payment, an open or failed one, or a bad id goes to the
/// payment's page, which says in the member's language that there is nothing there.
async fn receipt_pdf(State(state): State<AppState>, axum::Extension(current): axum::Extension<CurrentMember>, Path(id): Path<String>) -> Response {
    let Ok(payment) = id.parse::<i64>() else { return StatusCode::NOT_FOUND.into_response() };
    let page = format!("{RESULT_PAGE_PREFIX}{payment}");
    let Some(member) = current.0 else {
        // Digits and slashes only: nothing to encode.
        return axum::response::Redirect::to(&format!("/login?return_to={page}/receipt.pdf")).into_response();
    };
    match state.payments.receipt_pdf(member.id, payment).await {
        Ok(pdf) => (
            [
                (http::header::CONTENT_TYPE, "application/pdf".to_string()),
                (http::header::CONTENT_DISPOSITION, format!("attachment; filename=\"receipt-{payment}.pdf\"")),
                (http::header::CACHE_CONTROL, "private, no-store".to_string()),
                (http::header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
            ],
            pdf,
        )
            .into_response(),
        Err(error) => {
            if !matches!(&error, crate::error::AppError::Refused(_)) {
                tracing::warn!(payment, %error, "a receipt PDF could not be made");
            }
            axum::response::Redirect::to(&page).into_response()
        }
    }
}

/// The result page's address: `/transactions/{id}`.
pub const RESULT_PAGE_PREFIX: &str = "/transactions/";

/// A buyer back from the provider usually arrives before the provider's webhook. Opening their
/// result page (`GET /transactions/{id}`, the payment's own member) reads an open payment from
/// the provider and books it first, and then reads the member again, so everything on the page,
/// the top bar's balance and premium state as well as the page's own lines, is after the
/// booking. (Layered inside `resolve_member`; the booking happens once whoever comes first.)
pub async fn settle_before_result_page(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let payment =
        (request.method() == http::Method::GET).then(|| request.uri().path().strip_prefix(RESULT_PAGE_PREFIX).and_then(|id| id.parse::<i64>().ok())).flatten();
    let member = request.extensions().get::<CurrentMember>().and_then(|m| m.0.as_ref()).map(|m| m.id);
    if let (Some(payment), Some(member)) = (payment, member) {
        if let Some(fresh) = settle(&state, member, payment).await {
            request.extensions_mut().insert(CurrentMember(Some(fresh)));
        }
    }
    next.run(request).await
}

/// The member as they are after their open payment was read and booked; None when nothing moved.
async fn settle(state: &AppState, member: i64, payment: i64) -> Option<crate::accounts::Member> {
    let open = state.payments.payment(member, payment).await.ok()?.status.is_open();
    if !open {
        return None;
    }
    match state.payments.sync(payment, state.clock.now()).await {
        Ok(status) if !status.is_open() => state.accounts.member(member).await.ok().flatten(),
        Ok(_) => None,
        Err(error) => {
            tracing::warn!(payment, %error, "the result page could not read the payment");
            None
        }
    }
}

#[derive(Deserialize)]
pub struct WebhookForm {
    #[serde(default)]
    id: String,
}

async fn webhook(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(provider): Path<String>,
    form: Result<Form<WebhookForm>, axum::extract::rejection::FormRejection>,
) -> Response {
    let now = state.clock.now();
    if state.rate_limiter.check(Limit::Webhook, ip, now).await.is_err() {
        return StatusCode::TOO_MANY_REQUESTS.into_response();
    }
    let Ok(Form(form)) = form else { return StatusCode::BAD_REQUEST.into_response() };
    match state.payments.webhook(&provider, form.id.trim(), now).await {
        Ok(_) => StatusCode::OK.into_response(),
        Err(error) => {
            tracing::warn!(provider, %error, "payment webhook could not be processed");
            StatusCode::SERVICE_UNAVAILABLE.into_response()
        }
    }
}
