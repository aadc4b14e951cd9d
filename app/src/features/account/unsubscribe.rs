//! `/unsubscribe?token=…[&kind=…]`: the page behind the unsubscribe link in every mail's footer
//! (with `kind`, a lifecycle mail's: only that kind stops). Opening
//! it changes nothing (link scanners open links too); the button does, through the `unsubscribe`
//! server function (mail programs' one-click POST has its own endpoint, RFC 8058).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::context::use_page_ctx;
use crate::features::account::server_fns::Unsubscribe;
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

#[component]
pub fn UnsubscribePage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let done = query.get("done").is_some();
    let token: String = query.get("token").unwrap_or_default().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').take(100).collect();
    // A lifecycle mail's link names its kind: the page offers to stop that kind only.
    let kind = query.get("kind").and_then(|k| domain::lifecycle::LifecycleKind::parse(&k));
    let action = ServerAction::<Unsubscribe>::new();
    view! {
        <Title text=i18n.t("unsubscribe.title")/>
        <div class="auth-page">
            <div class="auth-card">
                <h1 class="auth-card__title">{i18n.t("unsubscribe.title")}</h1>
                {if done {
                    view! { <p class="notice notice--ok" role="status" data-testid="unsubscribed">{i18n.t("unsubscribe.done")}</p> }.into_any()
                } else {
                    view! {
                        <p class="auth-card__intro">
                            {match kind {
                                Some(kind) => i18n.tf("unsubscribe.body_kind", &[("site", &ctx.site.name), ("what", &i18n.t(&format!("lifecycle.{}.what", kind.as_str())))]),
                                None => i18n.tf("unsubscribe.body", &[("site", &ctx.site.name)]),
                            }}
                        </p>
                        <ActionError action=action/>
                        <ActionForm action=action attr:class="form">
                            <input type="hidden" name="token" value=token.clone()/>
                            {kind.map(|k| view! { <input type="hidden" name="kind" value=k.as_str()/> })}
                            <button type="submit" class="btn btn--primary btn--block">{use_i18n().t("unsubscribe.submit")}</button>
                        </ActionForm>
                    }
                    .into_any()
                }}
            </div>
        </div>
    }
}
