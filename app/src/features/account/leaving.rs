//! The company's leaving discount in the delete-account flow (`/settings`): offered once, above
//! the form that deletes the account. Taking it keeps the account and leads to `/credits` with
//! the member's own code filled in; afterwards the panel shows that code until it expires.

use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, member_call, redirect};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// What the panel shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeavingView {
    None,
    Offer { percent: i64 },
    Taken { code: String, percent: i64, expires_at: i64 },
}

#[server(prefix = "/api/fn", endpoint = "leaving_offer")]
pub async fn leaving_offer() -> Result<LeavingView, ApiError> {
    use server::payments::leaving::LeavingOffer;
    let (c, member) = member_call().await?;
    Ok(match c.state.payments.leaving_offer(&c.site, &member).await.map_err(fail)? {
        LeavingOffer::None => LeavingView::None,
        LeavingOffer::Offer(percent) => LeavingView::Offer { percent },
        LeavingOffer::Taken(t) => LeavingView::Taken { code: t.code, percent: t.percentage, expires_at: t.expires_at },
    })
}

/// Stays, with the leaving discount: the member's own code, on the bundles page.
#[server(prefix = "/api/fn", endpoint = "take_leaving_discount")]
pub async fn take_leaving_discount() -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let taken = c.state.payments.take_leaving_discount(&c.site, &member, c.now()).await.map_err(fail)?;
    redirect(&format!("/credits?code={}", domain::account::percent_encode(&taken.code)));
    Ok(())
}

/// The offer (or the code taken before) above the delete-account form.
#[component]
pub fn LeavingOfferPanel() -> impl IntoView {
    let offer = Resource::new_blocking(|| (), |_| leaving_offer());
    let take = ServerAction::<TakeLeavingDiscount>::new();
    view! {
        <Suspense fallback=|| ()>
            {move || offer.get().and_then(Result::ok).map(|view| {
                let i18n = use_i18n();
                match view {
                    LeavingView::None => ().into_any(),
                    LeavingView::Offer { percent } => view! {
                        <div class="notice notice--deal leaving-offer" data-testid="leaving-offer">
                            <h3 class="leaving-offer__title">{i18n.t("settings.leaving_title")}</h3>
                            <p>{i18n.tf("settings.leaving_body", &[("percent", &percent.to_string())])}</p>
                            <ActionError action=take/>
                            <ActionForm action=take>
                                <button type="submit" class="btn btn--primary" data-testid="leaving-take">{i18n.t("settings.leaving_take")}</button>
                            </ActionForm>
                        </div>
                    }.into_any(),
                    LeavingView::Taken { code, percent, expires_at } => view! {
                        <div class="notice notice--deal leaving-offer" data-testid="leaving-taken">
                            <p>{i18n.tf("settings.leaving_taken", &[("code", &code), ("percent", &percent.to_string()), ("date", &i18n.date(expires_at))])}</p>
                            <a class="btn btn--primary" href=format!("/credits?code={}", domain::account::percent_encode(&code))>{i18n.t("settings.leaving_use")}</a>
                        </div>
                    }.into_any(),
                }
            })}
        </Suspense>
    }
}
