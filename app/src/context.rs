//! The per-page context: site, language and texts. Built on the server from the request,
//! embedded in the page as JSON, and read back by the browser before hydration so both
//! sides render the same thing.

use std::sync::Arc;

use domain::i18n::Texts;
use domain::site::{CompanyInfo, Theme};
use domain::Locale;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The element id of the embedded context.
pub const CONTEXT_ELEMENT_ID: &str = "vonk-ctx";

/// The public part of a site's settings, as pages need it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SiteView {
    pub name: String,
    pub domain: String,
    pub niche: u8,
    pub theme: Theme,
    pub enable_site_entry_popup: bool,
    pub geoip_country: String,
    pub support_email: String,
    pub support_phone: String,
    pub support_phone_clean: String,
    pub message_credits: i64,
    pub photo_credits: i64,
    pub gift_credits: i64,
    pub refund_days: i64,
    pub logged_out_search: bool,
    pub company: CompanyInfo,
    /// Terms version date (unix seconds).
    pub terms_date: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageCtx {
    pub locale: Locale,
    pub texts: Arc<Texts>,
    pub site: SiteView,
    /// The visitor's country (from the site's GeoIP settings until a GeoIP database exists).
    pub country: String,
    /// Languages offered by the switcher.
    pub switcher: Vec<Locale>,
    pub entry_accepted: bool,
    /// Current calendar year, for the copyright line.
    pub year: i64,
}

impl PageCtx {
    /// Serialised for embedding in a `<script type="application/json">`: `<` is escaped so the
    /// text can never close the script element.
    pub fn to_embedded_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default().replace('<', "\\u003c")
    }

    #[cfg(feature = "hydrate")]
    pub fn from_document() -> PageCtx {
        let text = leptos::prelude::document()
            .get_element_by_id(CONTEXT_ELEMENT_ID)
            .and_then(|el| el.text_content())
            .unwrap_or_default();
        serde_json::from_str(&text).expect("page context embedded by the server")
    }
}

/// The page context of this render.
pub fn use_page_ctx() -> PageCtx {
    use_context::<PageCtx>().expect("PageCtx is provided by the shell or hydrate()")
}
