//! Like and unlike. Forms come back to the page they were sent from (`return_to`, a local
//! path) with `liked=` or `match=`; the swipe game asks for JSON and gets the outcome and its
//! remaining allowance.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Extension, Form, Json, Router};
use domain::likes::LikeSource;
use http::StatusCode;
use serde::Deserialize;

use crate::error::PublicError;
use crate::http::member_routes::{authentication_required, wants_json};
use crate::http::session::CurrentMember;
use crate::http::visitor;
use crate::likes::LikeError;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/members/{id}/like", post(like))
        .route("/api/members/{id}/unlike", post(unlike))
        .route("/likes/m/{id}", axum::routing::get(|Path(id): Path<i64>| async move { Redirect::to(&format!("/members/{id}")) }))
}

#[derive(Deserialize, Default)]
pub struct LikeFields {
    #[serde(default)]
    source: String,
    #[serde(default)]
    return_to: Option<String>,
}

fn back(f: &LikeFields, id: i64) -> String {
    match f.return_to.as_deref() {
        Some(_) => visitor::safe_return_path(f.return_to.as_deref()),
        None => format!("/members/{id}"),
    }
}

fn with(path: &str, param: &str) -> String {
    let (path, anchor) = path.split_once('#').map(|(p, a)| (p, format!("#{a}"))).unwrap_or((path, String::new()));
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{param}{anchor}")
}

async fn like(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>, Form(f): Form<LikeFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, &format!("/members/{id}")) };
    let Some(site) = visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    let source = LikeSource::parse(&f.source).filter(|s| *s != LikeSource::Auto).unwrap_or(LikeSource::Profile);
    let now = state.accounts.clock().now();
    let result = state.likes.like(&site.settings, m, id, source, now).await;
    if wants_json(&headers) {
        return match result {
            Ok(outcome) => {
                let allowance = state.likes.allowance(m, now).await.ok();
                Json(serde_json::json!({ "matched": outcome.matched, "allowance": allowance })).into_response()
            }
            Err(error) => {
                let status = match error {
                    LikeError::DailyLimit { .. } => StatusCode::TOO_MANY_REQUESTS,
                    LikeError::NotFound => StatusCode::NOT_FOUND,
                    LikeError::BlockedByOther => StatusCode::FORBIDDEN,
                    LikeError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
                };
                (status, Json(PublicError { code: error.key().into() })).into_response()
            }
        };
    }
    let back = back(&f, id);
    match result {
        Ok(outcome) if outcome.matched => Redirect::to(&with(&back, &format!("match={id}"))).into_response(),
        Ok(_) => Redirect::to(&with(&back, &format!("liked={id}"))).into_response(),
        Err(error) => Redirect::to(&with(&back, &format!("error={}", error.key()))).into_response(),
    }
}

async fn unlike(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Path(id): Path<i64>, Form(f): Form<LikeFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, &format!("/members/{id}")) };
    let back = back(&f, id);
    match state.likes.unlike(m.id, id).await {
        Ok(()) => Redirect::to(&with(&back, "unliked=1")).into_response(),
        Err(error) => {
            error.public();
            Redirect::to(&with(&back, "error=error.generic")).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn parameters_go_before_the_anchor() {
        assert_eq!(super::with("/members/4", "liked=4"), "/members/4?liked=4");
        assert_eq!(super::with("/members?page=2#results", "match=4"), "/members?page=2&match=4#results");
    }
}
