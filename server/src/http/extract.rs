//! Extractors for handlers and server functions alike (server functions run them with
//! `leptos_axum::extract_with_state`): the site of the request, the viewer (member or visitor)
//! and [`RequireMember`], which refuses visitors with SPEC §8's `authentication_required`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use domain::ErrorCode;
use http::request::Parts;

use crate::accounts::Member;
use crate::error::AppError;
use crate::http::session::CurrentMember;
use crate::sites::Site;
use crate::state::AppState;

/// The site this request is for (its Host; unknown hosts get the default site).
#[derive(Debug, Clone)]
pub struct RequestSite(pub Arc<Site>);

impl FromRequestParts<AppState> for RequestSite {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        crate::http::visitor::site(&state.sites, &parts.headers).map(RequestSite).ok_or(AppError::from(ErrorCode::NotFound))
    }
}

/// Who is asking: a member of this site, or a visitor. The session middleware resolved it once.
#[derive(Debug, Clone)]
pub struct Viewer(pub Option<Member>);

impl Viewer {
    pub fn from_parts(parts: &Parts) -> Viewer {
        Viewer(parts.extensions.get::<CurrentMember>().and_then(|m| m.0.clone()))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Viewer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Viewer::from_parts(parts))
    }
}

/// A logged-in member, or the refusal `authentication_required` (403 for JSON clients).
#[derive(Debug, Clone)]
pub struct RequireMember(pub Member);

impl<S: Send + Sync> FromRequestParts<S> for RequireMember {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Viewer::from_parts(parts).0.map(RequireMember).ok_or(AppError::from(ErrorCode::AuthenticationRequired))
    }
}

/// The address of the peer (for per-address limits).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The client as the session middleware worked it out (behind trusted proxies, from
    /// `X-Forwarded-For`), else the connection's peer.
    pub fn from_parts(parts: &Parts) -> ClientIp {
        if let Some(ip) = parts.extensions.get::<ClientIp>() {
            return *ip;
        }
        ClientIp(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()).unwrap_or(IpAddr::from([0, 0, 0, 0])))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp::from_parts(parts))
    }
}
