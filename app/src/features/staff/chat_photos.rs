//! `/staff/chat-photos`: members' chat photos waiting for review (`server::chat::photo_review`),
//! for moderators and admins. Which photos wait is the site's setting (`/staff/site#chat-photos`:
//! a share, or all; shown to the recipient meanwhile or not), and a configured classifier flags
//! photos that always wait, hidden and first. Staff tick one or many and approve them, turn them
//! down with a reason (the recipient no longer sees the photo; its sender is told beside it) or
//! turn them down and block the sender, by the same keys as the text queue.

use std::collections::BTreeMap;

use domain::moderation::{queued_photo_path, QueuedChatPhoto};
use domain::ApiError;
use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};
use crate::features::staff::texts::{DecisionBar, ReviewQueue, Suggestion};
use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;

pub const PAGE: &str = "/staff/chat-photos";

#[server(prefix = "/api/fn", endpoint = "staff_chat_photo_queue", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_chat_photo_queue() -> Result<Vec<QueuedChatPhoto>, ApiError> {
    let (c, staff) = staff_call(StaffArea::Photos).await?;
    c.state.chat.photo_queue(&staff, c.site.settings.id).await.map_err(fail)
}

/// Decides on the ticked photos (`photos[{message}]=on`): `approve`, `reject` or `block` with a
/// reason code. Nothing ticked, or a rejection without a reason, is refused.
#[server(prefix = "/api/fn", endpoint = "staff_review_chat_photos")]
pub async fn staff_review_chat_photos(
    #[server(default)] photos: BTreeMap<String, String>,
    decision: String,
    #[server(default)] reason: String,
) -> Result<usize, ApiError> {
    let (c, staff) = staff_call(StaffArea::Photos).await?;
    let chosen: Vec<i64> = photos.keys().filter_map(|id| id.parse().ok()).collect();
    let refused = |code: domain::ErrorCode| Err(fail_back::<StaffReviewChatPhotos>(code, PAGE, &[]));
    if chosen.is_empty() {
        return refused(domain::ErrorCode::Required);
    }
    let Some(decision) = domain::moderation::Decision::parse(&decision, &reason) else {
        return refused(domain::ErrorCode::ChoiceInvalid);
    };
    let decided = c.state.chat.review_photos(&staff, c.site.settings.id, &chosen, decision, c.now()).await.map_err(fail)?;
    redirect(&format!("{PAGE}?decided={decided}"));
    Ok(decided)
}

#[component]
fn PhotoItem(item: QueuedChatPhoto) -> impl IntoView {
    let i18n = use_i18n();
    let id = format!("photo-{}", item.message_id);
    let sent = i18n.tf("staff.chat_photos.sent", &[("sender", &item.sender_name), ("recipient", &item.recipient_name)]);
    view! {
        <li class="review-card chat-photo-review" data-testid="chat-photo-item">
            <img src=queued_photo_path(item.message_id) alt=i18n.tf("staff.chat_photos.photo_of", &[("name", &item.sender_name)]) loading="lazy" width="240" height="240"/>
            <div class="text-review__body">
                <span class="chat-photo-review__pick">
                    <input type="checkbox" id=id.clone() name=format!("photos[{}]", item.message_id) value="on"/>
                    <label for=id class="text-review__who">{sent}</label>
                </span>
                <span class="muted">{i18n.date(item.sent_at)}</span>
                {item.hidden.then(|| view! { <span class="badge badge--wait">{use_i18n().t("staff.chat_photos.hidden")}</span> })}
                <Suggestion verdict=item.verdict testid="photo-suggestion"/>
                <a href=format!("/staff/members?q=%23{}", item.sender_id)>{i18n.t("staff.texts.member_file")}</a>
            </div>
        </li>
    }
}

#[component]
pub fn ChatPhotoReviewPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Photos) {
        return refused;
    }
    let queue = Resource::new_blocking(|| (), |_| staff_chat_photo_queue());
    let action = ServerAction::<StaffReviewChatPhotos>::new();
    let form = move |items: Vec<QueuedChatPhoto>| {
        let i18n = use_i18n();
        view! {
            <ActionForm action=action attr:class="form text-review" attr:data-testid="chat-photo-review">
                <p class="muted">{i18n.plural("staff.chat_photos.waiting", items.len() as i64, &[])}</p>
                <ul class="review-grid">{items.into_iter().map(|item| view! { <PhotoItem item=item/> }).collect_view()}</ul>
                <DecisionBar keys=i18n.t("staff.chat_photos.keys")/>
            </ActionForm>
        }
        .into_any()
    };
    view! { <ReviewQueue keys="staff.chat_photos" class="container page" action=action queue=queue form=form/> }.into_any()
}
