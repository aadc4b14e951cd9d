//! Server functions of the credits feature. Thin: find the site, call `server`, map errors.

use domain::site::CreditPack;
use leptos::prelude::*;

/// The credit packs of the site this request is for.
#[server(prefix = "/api/fn", endpoint = "credit_packs")]
pub async fn get_credit_packs() -> Result<Vec<CreditPack>, ServerFnError> {
    use crate::ssr::{public_error, request_site};
    let (state, site) = request_site()?;
    server::sites::credit_packs(&state.db, site.settings.id).await.map_err(public_error)
}
