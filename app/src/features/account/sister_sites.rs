//! The company's other sites on `/settings` (`member_resell`, `domain::resell`): a member joins
//! one with a single tap and is sent to that site's one-tap sign-in page; a site joined before
//! links to its login.

use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{accepts_html, fail, member_call, redirect};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// One of the company's other sites, as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SisterSiteView {
    pub site_id: i64,
    pub name: String,
    pub description: String,
    /// The member's address has an account there already.
    pub joined: bool,
    /// That site's login page.
    pub login: String,
}

#[server(prefix = "/api/fn", endpoint = "sister_sites")]
pub async fn sister_sites() -> Result<Vec<SisterSiteView>, ApiError> {
    let (c, member) = member_call().await?;
    let sites = c.state.sites.all();
    let settings: Vec<&domain::site::SiteSettings> = sites.iter().map(|s| &s.settings).collect();
    let offers = c.state.accounts.sister_sites(&c.site.settings, &settings, &member).await.map_err(fail)?;
    Ok(offers
        .into_iter()
        .map(|s| {
            let base = c.state.sites.by_id(s.site_id).map(|site| c.state.base_url(&site)).unwrap_or_else(|| format!("https://{}", s.domain));
            SisterSiteView { site_id: s.site_id, name: s.name, description: s.description, joined: s.joined, login: format!("{base}/login") }
        })
        .collect())
}

/// Joins the site `site` with the member's details, and answers that site's sign-in link (a
/// form's post is sent there; the page's `form-action` admits the company's other sites).
#[server(prefix = "/api/fn", endpoint = "join_sister_site")]
pub async fn join_sister_site(site: i64) -> Result<String, ApiError> {
    let (c, member) = member_call().await?;
    let url: Result<String, server::AppError> = async {
        c.state.rate_limiter.check(server::http::rate_limit::Limit::Signup, c.client_ip(), c.now()).await?;
        let to = c.state.sites.by_id(site).ok_or(domain::ErrorCode::NotFound)?;
        let user_id = c.state.accounts.join_sister_site(&c.site.settings, &to.settings, &member).await?;
        let link = c.state.accounts.sign_in_link(&to.settings, user_id, "/members").await?;
        Ok(format!("{}{link}", c.state.base_url(&to)))
    }
    .await;
    let url = url.map_err(fail)?;
    if accepts_html() {
        redirect(&url);
    }
    Ok(url)
}

/// The panel: nothing where the site offers no other sites to this member.
#[component]
pub fn SisterSitesPanel() -> impl IntoView {
    let offers = Resource::new_blocking(|| (), |_| sister_sites());
    // A plain form (this panel is no island): the post's answer sends the browser on.
    let join = ServerAction::<JoinSisterSite>::new();
    view! {
        <Suspense fallback=|| ()>
            {move || offers.get().and_then(Result::ok).filter(|sites| !sites.is_empty()).map(|sites| {
                let i18n = use_i18n();
                let rows = sites.into_iter().map(|s| {
                    let i18n = use_i18n();
                    let name = s.name.clone();
                    let action = if s.joined {
                        view! {
                            <p class="muted">{i18n.tf("settings.sites_joined", &[("site", &name)])}</p>
                            <a class="btn btn--ghost btn--small" href=s.login.clone()>{i18n.tf("settings.sites_go", &[("site", &name)])}</a>
                        }.into_any()
                    } else {
                        view! {
                            <ActionForm action=join>
                                <input type="hidden" name="site" value=s.site_id/>
                                <button type="submit" class="btn btn--primary btn--small" data-testid="sister-join">{i18n.tf("settings.sites_join", &[("site", &name)])}</button>
                            </ActionForm>
                        }.into_any()
                    };
                    view! {
                        <li class="sister-site" data-testid="sister-site">
                            <h3 class="sister-site__name">{s.name}</h3>
                            {(!s.description.is_empty()).then(|| view! { <p class="sister-site__about">{s.description.clone()}</p> })}
                            {action}
                        </li>
                    }
                }).collect_view();
                view! {
                    <section class="panel" id="sites" aria-labelledby="sites-title" data-testid="sister-sites">
                        <h2 id="sites-title">{i18n.t("settings.sites_title")}</h2>
                        <p class="muted">{i18n.t("settings.sites_body")}</p>
                        <ActionError action=join/>
                        <ul class="sister-sites">{rows}</ul>
                    </section>
                }
            })}
        </Suspense>
    }
}
