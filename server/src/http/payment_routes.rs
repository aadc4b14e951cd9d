//! Payment providers' webhooks: `POST /webhooks/payments/{provider}` with a form body that
//! carries only the provider's payment id (`id=tr_…`). The body is never trusted: the payment is
//! read back from the provider before anything moves (see `crate::payments`). Unknown ids get
//! the same `200` as known ones; only a provider we could not ask answers `503`, so the
//! provider tries again.

use axum::extract::{DefaultBodyLimit, Form, Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use http::StatusCode;
use serde::Deserialize;

use crate::http::extract::ClientIp;
use crate::http::rate_limit::Limit;
use crate::state::AppState;

pub const WEBHOOK_PREFIX: &str = "/webhooks/payments/";

pub fn routes() -> Router<AppState> {
    Router::new().route("/webhooks/payments/{provider}", post(webhook)).layer(DefaultBodyLimit::max(4096))
}

#[derive(Deserialize)]
pub struct WebhookForm {
    #[serde(default)]
    id: String,
}

async fn webhook(State(state): State<AppState>, ClientIp(ip): ClientIp, Path(provider): Path<String>, form: Result<Form<WebhookForm>, axum::extract::rejection::FormRejection>) -> Response {
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
