//! Server functions of the credits feature. Thin: find the site, call `server`, map errors.

use domain::site::CreditPack;
use leptos::prelude::*;

/// The credit packs of the site this request is for.
#[server(prefix = "/api/fn", endpoint = "credit_packs")]
pub async fn get_credit_packs() -> Result<Vec<CreditPack>, domain::ApiError> {
    let c = crate::ssr::call().await?;
    server::sites::credit_packs(&c.state.db, c.site.settings.id).await.map_err(crate::ssr::fail)
}
