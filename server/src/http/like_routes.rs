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
        .route("/api/likes/many", post(like_many))
        .route("/api/auto-like", axum::routing::get(auto_like))
        .route("/api/counts", axum::routing::get(counts))
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
    if let Ok(outcome) = &result {
        state.mail_after_like(&site, m.id, &m.name, id, *outcome);
    }
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

/// The match finder's "like them all": repeated `id` fields and a `return_to`. Members who
/// cannot be liked any more are skipped; the page comes back with how many were liked and the
/// first match, if any.
async fn like_many(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(fields): Form<Vec<(String, String)>>) -> Response {
    let return_to = fields.iter().find(|(k, _)| k == "return_to").map(|(_, v)| v.as_str());
    let back = visitor::safe_return_path(return_to);
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, &back) };
    let Some(site) = visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    let mut ids: Vec<i64> = fields.iter().filter(|(k, _)| k == "id").filter_map(|(_, v)| v.parse().ok()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.truncate(domain::notifications::MATCH_FINDER_SIZE);
    if ids.is_empty() {
        return Redirect::to(&with(&back, "error=validation.none_chosen")).into_response();
    }
    match state.likes.like_many(&site.settings, m, &ids, LikeSource::Search, state.accounts.clock().now()).await {
        Ok(done) => {
            for (id, outcome) in &done {
                state.mail_after_like(&site, m.id, &m.name, *id, *outcome);
            }
            let mut param = format!("liked_many={}", done.len());
            if let Some((id, _)) = done.iter().find(|(_, o)| o.matched) {
                param.push_str(&format!("&match={id}"));
            }
            Redirect::to(&with(&back, &param)).into_response()
        }
        Err(error) => {
            error.public();
            Redirect::to(&with(&back, "error=error.generic")).into_response()
        }
    }
}

/// SPEC §7 `GET /api/auto-like`: a fitting operator-run profile likes the member, if one is due;
/// the answer is that profile or `null`.
async fn auto_like(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>) -> Response {
    // A GET that changes something (SPEC §7 names it so): only our own pages may call it.
    if !crate::http::guard::origin_allowed(&headers, &state.config.public_origins) {
        return crate::error::AppError::ForbiddenOrigin.into_response();
    }
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/members") };
    let Some(site) = visitor::site(&state.sites, &headers) else { return StatusCode::NOT_FOUND.into_response() };
    let now = state.accounts.clock().now();
    match state.likes.auto_like(&site.settings, m, now, domain::account::Ymd::from_unix(now)).await {
        Ok(card) => {
            if let Some(card) = &card {
                state.mail_after_like(&site, card.id, &card.name, m.id, crate::likes::LikeOutcome { matched: false, new: true });
            }
            let profile = card.map(|c| domain::likes::Liker { id: c.id, place: c.place(), photo: c.thumb.map(|t| format!("/media/{t}")), name: c.name, age: c.age });
            Json(serde_json::json!({ "profile": profile })).into_response()
        }
        Err(error) => error.into_response(),
    }
}

/// The top bar's counters, refreshed by the page every minute (SPEC §4, §9). The member row the
/// session middleware read already holds them.
async fn counts(headers: HeaderMap, Extension(current): Extension<CurrentMember>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/members") };
    let mut response = Json(serde_json::json!({ "new_likes": m.new_likes, "notifications": m.unread_notifications })).into_response();
    response.headers_mut().insert(http::header::CACHE_CONTROL, http::HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    #[test]
    fn parameters_go_before_the_anchor() {
        assert_eq!(super::with("/members/4", "liked=4"), "/members/4?liked=4");
        assert_eq!(super::with("/members?page=2#results", "match=4"), "/members?page=2&match=4#results");
    }
}
