//! `/staff/photos`: photos under inspection, oldest first, with approve and reject.

use crate::features::account::server_fns::ReviewPhoto;
use domain::photo::photo_url;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::features::account::server_fns::photo_queue;
use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use domain::photo::QueuedPhoto;

#[component]
fn QueueItem(item: QueuedPhoto) -> impl IntoView {
    let i18n = use_i18n();
    let when = domain::date::from_unix(item.created_at).to_string();
    view! {
        <li class="review-card" data-testid="review-item">
            <a href=photo_url(item.id, false) target="_blank" rel="noopener" class="review-card__photo">
                <img src=photo_url(item.id, true) alt=i18n.tf("photos.of", &[("name", &item.name)]) loading="lazy"/>
            </a>
            <div class="review-card__meta">
                <a href=crate::paths::member(item.user_id)>{item.name.clone()}</a>
                <span class="muted">{when}</span>
                {item.private.then(|| view! { <span class="badge">{use_i18n().t("photos.private")}</span> })}
                <crate::features::staff::texts::Suggestion verdict=item.verdict testid="photo-suggestion"/>
            </div>
            <div class="review-card__actions">
                <ActionForm action={ServerAction::<ReviewPhoto>::new()}>
                    <input type="hidden" name="id" value=item.id.to_string()/>
                    <input type="hidden" name="approve" value="1"/>
                    <button type="submit" class="btn btn--primary btn--small" data-testid="approve">{use_i18n().t("staff.approve")}</button>
                </ActionForm>
                <ActionForm action={ServerAction::<ReviewPhoto>::new()}>
                    <input type="hidden" name="id" value=item.id.to_string()/>
                    <button type="submit" class="btn btn--ghost btn--small btn--danger-ghost" data-testid="reject">{use_i18n().t("staff.reject")}</button>
                </ActionForm>
            </div>
        </li>
    }
}

#[component]
pub fn PhotoReviewPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Photos) {
        return Some(refused);
    }
    let i18n = use_i18n();
    let saved = use_query_map().get_untracked().get("saved").filter(|s| s == "approved" || s == "rejected").map(|s| i18n.t(&format!("staff.{s}")));
    let queue = Resource::new_blocking(|| (), |_| photo_queue());
    Some(
        view! {
            <Title text=i18n.t("staff.title")/>
            <div class="container page">
                <h1>{i18n.t("staff.title")}</h1>
                {saved.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="saved">{text}</p> })}
                <crate::ui::forms::ActionError action={ServerAction::<ReviewPhoto>::new()}/>
                <Suspense fallback=|| ()>
                    {move || queue.get().map(|result| match result {
                        Ok(items) if items.is_empty() => view! { <p class="notice" data-testid="queue-empty">{use_i18n().t("staff.empty")}</p> }.into_any(),
                        Ok(items) => view! {
                            <p class="muted">{use_i18n().plural("staff.waiting", items.len() as i64, &[])}</p>
                            <ul class="review-grid">{items.into_iter().map(|item| view! { <QueueItem item=item/> }).collect_view()}</ul>
                        }.into_any(),
                        Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                    })}
                </Suspense>
            </div>
        }
        .into_any(),
    )
}
