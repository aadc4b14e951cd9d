//! Resolves the session cookie once per request; handlers and pages read the result from the
//! request's extensions.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use domain::constants::AUTH_COOKIE;

use crate::accounts::Member;
use crate::http::cookies;
use crate::state::AppState;

/// The logged-in member of this request, if any.
#[derive(Clone, Debug, Default)]
pub struct CurrentMember(pub Option<Member>);

/// Built assets never depend on who asks; they skip the session lookup.
const STATIC_PREFIXES: [&str; 3] = ["/pkg/", "/widgets/", "/media/public/"];

pub async fn resolve_member(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    if STATIC_PREFIXES.iter().any(|p| request.uri().path().starts_with(p)) {
        return next.run(request).await;
    }
    let member = match cookies::get(request.headers(), AUTH_COOKIE) {
        Some(token) => match state.accounts.member_for_session(&token).await {
            Ok(member) => member,
            Err(error) => {
                tracing::error!(%error, "session lookup failed");
                None
            }
        },
        None => None,
    };
    // A session of another site does not count here.
    let site = crate::http::visitor::site(&state.sites, request.headers());
    let member = member.filter(|m| site.as_ref().is_some_and(|s| s.settings.id == m.site_id));
    request.extensions_mut().insert(CurrentMember(member));
    next.run(request).await
}
