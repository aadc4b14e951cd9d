//! `/{token}` → `/sign-in?token=…`: the one-tap way back in from a lifecycle mail
//! (`server::accounts::sign_in_links`). Opening the link changes nothing (mail scanners open
//! links too): the page greets the member by name and its one button signs in and opens the
//! page the mail was about. A link that no longer works says so and offers the login page.

use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[cfg(feature = "ssr")]
use crate::call::{call, fail, fail_back, redirect, set_cookie};

use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// The page's address for a link's token.
pub fn page(token: &str) -> String {
    format!("/sign-in?token={token}")
}

/// The name of the member the link signs in, while it works; nothing is used up.
#[server(prefix = "/api/fn", endpoint = "sign_in_link_name", input = leptos::server_fn::codec::GetUrl)]
pub async fn sign_in_link_name(token: String) -> Result<Option<String>, ApiError> {
    let c = call().await?;
    c.state.accounts.sign_in_link_name(c.site.settings.id, &token).await.map_err(fail)
}

/// Signs in with the link (once) and opens its page; staff and members with two-step login go
/// to the login page with that page kept.
#[server(prefix = "/api/fn", endpoint = "sign_in_with_link")]
pub async fn sign_in_with_link(token: String) -> Result<(), ApiError> {
    let c = call().await?;
    let back = page(&token.chars().filter(char::is_ascii_hexdigit).take(64).collect::<String>());
    if let Err(error) = c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await {
        return Err(fail_back::<SignInWithLink>(error, &back, &[]));
    }
    let previous = c.cookie(domain::constants::AUTH_COOKIE);
    match c.state.accounts.sign_in_with_link(c.site.settings.id, &token, previous.as_deref(), &c.client()).await {
        Ok(server::accounts::SignInLinkOutcome::Session { session, target }) => {
            set_cookie(crate::features::account::server_fns::session_cookie(&c, &session));
            redirect(&server::http::visitor::safe_return_path(Some(&target)));
        }
        Ok(server::accounts::SignInLinkOutcome::LogIn { target }) => {
            redirect(&crate::paths::login_then(&server::http::visitor::safe_return_path(Some(&target))))
        }
        Err(error) => return Err(fail_back::<SignInWithLink>(error, &back, &[])),
    }
    Ok(())
}

#[component]
pub fn SignInLinkPage() -> impl IntoView {
    let i18n = use_i18n();
    let token: String = use_query_map().get_untracked().get("token").unwrap_or_default().chars().filter(char::is_ascii_hexdigit).take(64).collect();
    let name = Resource::new_blocking(move || token.clone(), sign_in_link_name);
    let action = ServerAction::<SignInWithLink>::new();
    view! {
        <Title text=i18n.t("sign_in_link.title")/>
        <section class="result-page" data-testid="sign-in-link">
            <Suspense fallback=|| ()>
                {move || name.get().map(|result| match result {
                    Ok(Some(name)) => {
                        let token = use_query_map().get_untracked().get("token").unwrap_or_default();
                        view! {
                            <h1>{use_i18n().tf("sign_in_link.welcome", &[("name", &name)])}</h1>
                            <p>{use_i18n().t("sign_in_link.body")}</p>
                            <ActionError action=action/>
                            <ActionForm action=action>
                                <input type="hidden" name="token" value=token/>
                                <button type="submit" class="btn btn--primary" data-testid="sign-in-link-continue">{use_i18n().t("sign_in_link.continue")}</button>
                            </ActionForm>
                        }
                        .into_any()
                    }
                    _ => view! {
                        <h1>{use_i18n().t("sign_in_link.title")}</h1>
                        <p class="notice" role="alert">{use_i18n().t("error.link_expired")}</p>
                        <ActionError action=action/>
                        <a class="btn btn--primary" href="/login">{use_i18n().t("nav.login")}</a>
                    }
                    .into_any(),
                })}
            </Suspense>
        </section>
    }
}
