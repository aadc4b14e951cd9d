//! `/staff/held`: members whose first messages were held as spam (see `domain::spam`), the
//! longest waiting first, with what they wrote and to how many members; staff release them
//! (paid for and delivered then) or block the member.

use domain::spam::HeldSender;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

/// The members with held messages; staff only.
#[server(prefix = "/api/fn", endpoint = "staff_held", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_held() -> Result<Vec<HeldSender>, ApiError> {
    let (c, member) = staff_call(StaffArea::Held).await?;
    c.state.chat.held_for_review(&member, c.site.settings.id).await.map_err(fail)
}

/// Releases a member's held messages (each paid for now and delivered); staff only, logged.
#[server(prefix = "/api/fn", endpoint = "staff_release_held")]
pub async fn staff_release_held(sender: i64) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Held).await?;
    let released = match c.state.chat.release_review(&member, &c.site, sender, c.now()).await {
        Ok(released) => released,
        Err(error) => return Err(fail_back::<StaffReleaseHeld>(error, crate::paths::STAFF_HELD, &[])),
    };
    redirect(&format!("{}?released={}&unpaid={}", crate::paths::STAFF_HELD, released.delivered, released.unpaid));
    Ok(())
}

/// Blocks a member whose messages were held (with the reason, as on `/staff/members`); their
/// held messages are never delivered. Staff only, logged.
#[server(prefix = "/api/fn", endpoint = "staff_block_held")]
pub async fn staff_block_held(sender: i64, reason: String) -> Result<(), ApiError> {
    let (c, member) = staff_call(StaffArea::Held).await?;
    let change = server::staff::MemberChange::Block(reason);
    if let Err(error) = c.state.staff.change_member(&member, c.site.settings.id, sender, change, c.now()).await {
        return Err(fail_back::<StaffBlockHeld>(error, crate::paths::STAFF_HELD, &[]));
    }
    redirect(&format!("{}?blocked=1", crate::paths::STAFF_HELD));
    Ok(())
}

#[component]
fn HeldItem(item: HeldSender) -> impl IntoView {
    let i18n = use_i18n();
    let when = |at: i64| domain::date::from_unix(at).to_string();
    let counts = i18n.plural("staff.held.counts", item.held, &[("recipients", &i18n.plural("staff.held.recipients", item.recipients, &[]))]);
    let span = format!("{} – {}", when(item.first_at), when(item.last_at));
    let reason = i18n.t("staff.held.reason_default");
    let (release, block, reason_label) = (i18n.t("staff.held.release"), i18n.t("staff.held.block"), i18n.t("staff.members.reason"));
    view! {
        <li class="card held-item" data-testid="held-item">
            <div class="held-item__who">
                <a href=crate::paths::member(item.sender)>{item.name.clone()}</a>
                <span class="muted">{item.email.clone()}</span>
            </div>
            <p class="muted">{counts}" · "{span}</p>
            <blockquote class="held-item__text">{item.sample.clone()}</blockquote>
            <div class="held-item__actions">
                <ActionForm action={ServerAction::<StaffReleaseHeld>::new()}>
                    <input type="hidden" name="sender" value=item.sender.to_string()/>
                    <button type="submit" class="btn btn--primary btn--small" data-testid="release">{release}</button>
                </ActionForm>
                <ActionForm action={ServerAction::<StaffBlockHeld>::new()} attr:class="held-item__block">
                    <input type="hidden" name="sender" value=item.sender.to_string()/>
                    <label class="field">
                        <span class="field__label">{reason_label}</span>
                        <input type="text" name="reason" required value=reason maxlength=domain::account::STAFF_REASON_MAX_CHARS.to_string()/>
                    </label>
                    <button type="submit" class="btn btn--ghost btn--small btn--danger-ghost" data-testid="block">{block}</button>
                </ActionForm>
            </div>
        </li>
    }
}

#[component]
pub fn HeldReviewPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Held) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let number = |key: &str| query.get(key).and_then(|v| v.parse::<i64>().ok());
    let saved = match (number("released"), number("unpaid"), query.get("blocked").is_some()) {
        (_, _, true) => Some(i18n.t("staff.held.blocked")),
        (Some(released), unpaid, _) => {
            let mut text = i18n.plural("staff.held.released", released, &[]);
            if let Some(unpaid) = unpaid.filter(|n| *n > 0) {
                text = format!("{text} {}", i18n.plural("staff.held.unpaid", unpaid, &[]));
            }
            Some(text)
        }
        _ => None,
    };
    let list = Resource::new_blocking(|| (), |_| staff_held());
    view! {
        <Title text=i18n.t("staff.held.title")/>
        <div class="container page">
            <h1>{i18n.t("staff.held.title")}</h1>
            <p class="muted">{i18n.t("staff.held.intro")}" "<a href="/staff/site#spam">{i18n.t("staff.held.settings")}</a></p>
            {saved.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="saved">{text}</p> })}
            <ActionError action={ServerAction::<StaffReleaseHeld>::new()}/>
            <ActionError action={ServerAction::<StaffBlockHeld>::new()}/>
            <Suspense fallback=|| ()>
                {move || list.get().map(|result| match result {
                    Ok(items) if items.is_empty() => view! { <p class="notice" data-testid="held-empty">{use_i18n().t("staff.held.empty")}</p> }.into_any(),
                    Ok(items) => view! { <ul class="held-list">{items.into_iter().map(|item| view! { <HeldItem item=item/> }).collect_view()}</ul> }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
            <crate::features::staff::contact_weeks::ContactWeeks/>
        </div>
    }
    .into_any()
}
