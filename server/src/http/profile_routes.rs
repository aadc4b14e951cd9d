//! Profile-basics endpoints: `/complete-signup`'s form, the location settings and the
//! geolocation lookup that turns a browser position into one of our regions.

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Form, Json, Router};
use domain::profile::{BasicsForm, LocationForm};
use serde::{Deserialize, Serialize};

use crate::http::member_routes::authentication_required;
use crate::http::session::CurrentMember;
use crate::http::visitor;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/complete-signup", post(complete_signup))
        .route("/api/account/location", post(save_location))
        .route("/api/geocode", get(geocode))
        .route("/api/profile/details", post(save_details))
        .route("/api/members/{id}/block", post(block))
        .route("/api/members/{id}/unblock", post(unblock))
}

/// The profile editor's details: choice fields, interests (repeated `interests` fields) and
/// the about text.
async fn save_details(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(fields): Form<Vec<(String, String)>>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/profile") };
    let mut form = domain::profile::DetailsForm::default();
    for (key, value) in fields {
        match key.as_str() {
            "interests" => form.interests.push(value),
            "about" => form.about = value,
            _ if domain::profile::Attribute::ALL.iter().any(|a| a.field() == key) => form.attributes.push((key, value)),
            _ => {}
        }
    }
    match state.members.save_details(m.id, &form).await {
        Ok(()) => Redirect::to("/profile?saved=profile").into_response(),
        Err(error) => Redirect::to(&format!("/profile?error={}#details", error.key())).into_response(),
    }
}

/// Blocks a member (SPEC §6); back on their page, which now offers to unblock.
async fn block(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, axum::extract::Path(id): axum::extract::Path<i64>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, &format!("/members/{id}")) };
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/members").into_response() };
    match state.members.block(&site.settings, m.id, id, state.accounts.clock().now()).await {
        Ok(()) => Redirect::to(&format!("/members/{id}?blocked=1")).into_response(),
        Err(error) => Redirect::to(&format!("/members?error={}", error.key())).into_response(),
    }
}

async fn unblock(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, axum::extract::Path(id): axum::extract::Path<i64>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, &format!("/members/{id}")) };
    match state.members.unblock(m.id, id).await {
        Ok(()) => Redirect::to(&format!("/members/{id}?unblocked=1")).into_response(),
        Err(error) => Redirect::to(&format!("/members?error={}", error.key())).into_response(),
    }
}

#[derive(Deserialize, Default)]
pub struct BasicsFields {
    #[serde(default)]
    gender: String,
    #[serde(default)]
    sexuality: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    region: String,
    #[serde(default)]
    city: String,
    /// `profile` when sent from the profile editor; else `/complete-signup`.
    #[serde(default)]
    from: String,
    /// The profile a visitor signed up from (`/members/{id}/signup`): shown when signup is done.
    #[serde(default)]
    profile: Option<String>,
}

/// Form values travel back with an error so the form keeps what was typed.
fn keep(pairs: &[(&str, &str)]) -> String {
    pairs.iter().map(|(k, v)| format!("&{k}={}", urlencode(v))).collect()
}

fn urlencode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

async fn complete_signup(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<BasicsFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/complete-signup") };
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/complete-signup?error=error.generic").into_response() };
    let form = BasicsForm {
        gender: f.gender.clone(),
        sexuality: f.sexuality.clone(),
        location: LocationForm { country: f.country.clone(), region: f.region.clone(), city: f.city.clone() },
    };
    let entry = f.profile.as_deref().and_then(|v| v.parse::<i64>().ok()).filter(|id| *id > 0 && *id != m.id);
    let (done, form_page) = match (f.from.as_str(), entry) {
        ("profile", _) => ("/profile?saved=profile".to_string(), "/profile"),
        (_, Some(id)) => (format!("/members/{id}?welcome=1"), "/complete-signup"),
        // Signup's last step: members who fit, to like in one go (then on to the profile).
        _ => ("/signup-matches".to_string(), "/complete-signup"),
    };
    match state.members.save_basics(&site.settings, m.id, &form).await {
        Ok(()) => Redirect::to(&done).into_response(),
        Err(error) => {
            let entry = entry.map(|id| id.to_string()).unwrap_or_default();
            let kept = keep(&[("gender", &f.gender), ("sexuality", &f.sexuality), ("country", &f.country), ("region", &f.region), ("city", &f.city), ("profile", &entry)]);
            Redirect::to(&format!("{form_page}?error={}{kept}", error.key())).into_response()
        }
    }
}

async fn save_location(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, Form(f): Form<BasicsFields>) -> Response {
    let Some(m) = current.0.as_ref() else { return authentication_required(&headers, "/settings") };
    let Some(site) = visitor::site(&state.sites, &headers) else { return Redirect::to("/settings?error=error.generic").into_response() };
    let form = LocationForm { country: f.country, region: f.region, city: f.city };
    match state.members.save_location(&site.settings, m.id, &form).await {
        Ok(()) => Redirect::to("/settings?saved=location#location").into_response(),
        Err(error) => Redirect::to(&format!("/settings?error={}#location", error.key())).into_response(),
    }
}

#[derive(Deserialize)]
pub struct Position {
    lat: f64,
    lon: f64,
}

/// The region found for a position, or `false` when none fits (SPEC §7: on failure false).
#[derive(Serialize)]
#[serde(untagged)]
pub enum GeocodeAnswer {
    Found { country: String, region: String, name: String },
    NotFound(bool),
}

async fn geocode(State(state): State<AppState>, headers: HeaderMap, Extension(current): Extension<CurrentMember>, position: Result<Query<Position>, axum::extract::rejection::QueryRejection>) -> Response {
    if current.0.is_none() {
        return authentication_required(&headers, "/settings");
    }
    let Some(site) = visitor::site(&state.sites, &headers) else { return Json(GeocodeAnswer::NotFound(false)).into_response() };
    let found = position.ok().and_then(|Query(p)| state.members.guess_region(&site.settings, p.lat, p.lon));
    let answer = match found {
        Some(r) => GeocodeAnswer::Found { country: r.country, region: r.code, name: r.name },
        None => GeocodeAnswer::NotFound(false),
    };
    ([(http::header::CACHE_CONTROL, "private, max-age=3600")], Json(answer)).into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn kept_values_are_encoded() {
        assert_eq!(super::keep(&[("city", "Den Haag&x=1")]), "&city=Den%20Haag%26x%3D1");
    }
}
