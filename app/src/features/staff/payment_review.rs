//! Payments held for review (`server::fraud::payment_gate`) on `/staff/members`: the list of
//! members whose payments wait, shown without a query, and allowing one member's payments from
//! their file (support and admins; the reason goes to the staff log).

use domain::fraud::PaymentWaiting;
use domain::ApiError;
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::call::{fail, redirect, staff_call};
use crate::features::staff::StaffArea;
use crate::i18n::use_i18n;

/// The site's members whose payments wait for review (support and admins).
#[server(prefix = "/api/fn", endpoint = "staff_payment_reviews", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_payment_reviews() -> Result<Vec<PaymentWaiting>, ApiError> {
    let (c, member) = staff_call(StaffArea::Credits).await?;
    server::fraud::reviews(&c.state.db, &member, c.site.settings.id).await.map_err(fail)
}

/// Allows a held member's payments, with a reason (support and admins; logged).
#[server(prefix = "/api/fn", endpoint = "staff_allow_payments")]
pub async fn staff_allow_payments(id: i64, #[server(default)] reason: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Credits).await?;
    if let Err(error) = server::fraud::allow_payments(&c.state.db, &member, c.site.settings.id, id, &reason, c.now()).await {
        return Err(super::members::back_to_member::<StaffAllowPayments>(error, id));
    }
    redirect(&crate::paths::staff_member_saved(id));
    Ok(())
}

/// The members whose payments wait for review (for the roles that may allow them).
#[component]
pub(super) fn WaitingPayments() -> impl IntoView {
    let may = crate::context::use_page_ctx().member.as_ref().is_some_and(|m| m.staff.may(StaffArea::Credits));
    may.then(|| {
        let waiting = Resource::new_blocking(|| (), |_| staff_payment_reviews());
        view! {
            <Suspense fallback=|| ()>
                {move || waiting.get().and_then(Result::ok).filter(|list| !list.is_empty()).map(|list| {
                    let i18n = use_i18n();
                    let items = list.into_iter().map(|w| {
                        let i18n = use_i18n();
                        view! {
                            <li class="staff-found__item" data-testid="payment-waiting">
                                <a href=format!("/staff/members?q=%23{}", w.id) class="staff-found__name">{format!("{} (#{})", w.name, w.id)}</a>
                                <span class="staff-found__email">{w.email}</span>
                                <span class="muted">{i18n.tf("staff.members.payment_review", &[("score", &w.score.to_string()), ("date", &i18n.date(w.since))])}</span>
                            </li>
                        }
                    }).collect_view();
                    view! {
                        <section class="card staff-found" aria-labelledby="waiting-title">
                            <h2 id="waiting-title">{i18n.t("staff.members.waiting_title")}</h2>
                            <ul class="staff-found__list">{items}</ul>
                        </section>
                    }
                })}
            </Suspense>
        }
    })
}
