//! `/staff/texts`: changed profile texts waiting for review (`server::moderation`), for
//! moderators and admins. Each text is shown as text beside the one others see now; staff tick
//! one or many and approve them, turn them down with a reason, or turn them down and block the
//! writer. A morning's queue goes by keyboard: Tab to a text, Space to tick it, then A approves,
//! R rejects and B rejects and blocks ([`DecisionKeys`]; the buttons also carry them as access
//! keys for a page without its script). A configured classifier puts likely refusals first and
//! suggests a reason.

use std::collections::BTreeMap;

use domain::moderation::{QueuedText, Reason, Verdict};
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};
use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;

pub const PAGE: &str = "/staff/texts";

#[server(prefix = "/api/fn", endpoint = "staff_text_queue", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_text_queue() -> Result<Vec<QueuedText>, ApiError> {
    let (c, staff) = staff_call(StaffArea::Photos).await?;
    c.state.staff.text_queue(&staff, c.site.settings.id).await.map_err(fail)
}

/// Decides on the ticked texts (`texts[{member}]={moment of change}`): `approve`, `reject` or
/// `block` with a reason code. Nothing ticked, or a rejection without a reason, is refused.
#[server(prefix = "/api/fn", endpoint = "staff_review_texts")]
pub async fn staff_review_texts(
    #[server(default)] texts: BTreeMap<String, String>,
    decision: String,
    #[server(default)] reason: String,
) -> Result<usize, ApiError> {
    let (c, staff) = staff_call(StaffArea::Photos).await?;
    let chosen: Vec<(i64, i64)> = texts.iter().filter_map(|(member, at)| Some((member.parse().ok()?, at.parse().ok()?))).collect();
    let refused = |code: domain::ErrorCode| Err(fail_back::<StaffReviewTexts>(code, PAGE, &[]));
    if chosen.is_empty() {
        return refused(domain::ErrorCode::Required);
    }
    let Some(decision) = domain::moderation::Decision::parse(&decision, &reason) else {
        return refused(domain::ErrorCode::ChoiceInvalid);
    };
    let decided = c.state.staff.review_texts(&staff, c.site.settings.id, &chosen, decision, c.now()).await.map_err(fail)?;
    redirect(&format!("{PAGE}?decided={decided}"));
    Ok(decided)
}

/// The queue's keys: A, R or B press the decision button that carries it (`data-key`), unless
/// a modifier is held or the key goes into a field (the reason's list, a text box).
#[island(lazy)]
fn DecisionKeys(hint: String) -> impl IntoView {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let keys = window_event_listener(leptos::ev::keydown, |event: web_sys::KeyboardEvent| {
            if event.ctrl_key() || event.meta_key() || event.alt_key() || event.repeat() {
                return;
            }
            let typing = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| {
                let tag = el.tag_name().to_ascii_lowercase();
                tag == "select" || tag == "textarea" || (tag == "input" && el.get_attribute("type").as_deref() != Some("checkbox"))
            });
            let key = event.key().to_ascii_lowercase();
            if typing || !matches!(key.as_str(), "a" | "r" | "b") {
                return;
            }
            let button =
                document().query_selector(&format!("button[data-key=\"{key}\"]")).ok().flatten().and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(button) = button {
                event.prevent_default();
                button.click();
            }
        });
        on_cleanup(move || keys.remove());
    }
    // Effects run in the browser only: the hint says when the keys work.
    let ready = RwSignal::new(false);
    Effect::new(move |_| ready.set(true));
    view! { <p class="field__hint" data-keys=move || ready.get().then_some("on")>{hint}</p> }
}

/// A review queue's decision: the reason for turning down, the three buttons with their keys,
/// and the keys' hint (the text and chat-photo queues).
#[component]
pub(super) fn DecisionBar(keys: String) -> impl IntoView {
    let i18n = use_i18n();
    let reasons =
        Reason::all().map(|r| view! { <option value=r.as_str()>{use_i18n().t(&format!("moderation.reason.{}", r.as_str()))}</option> }).collect_view();
    view! {
        <div class="text-review__decide">
            <label class="field">
                <span class="field__label">{i18n.t("staff.texts.reason")}</span>
                <select name="reason">
                    <option value="">{i18n.t("staff.texts.reason_none")}</option>
                    {reasons}
                </select>
            </label>
            <button type="submit" name="decision" value="approve" class="btn btn--primary" accesskey="a" data-key="a">{i18n.t("staff.texts.approve")}</button>
            <button type="submit" name="decision" value="reject" class="btn btn--ghost" accesskey="r" data-key="r">{i18n.t("staff.texts.reject")}</button>
            <button type="submit" name="decision" value="block" class="btn btn--danger" accesskey="b" data-key="b">{i18n.t("staff.texts.block")}</button>
        </div>
        <DecisionKeys hint=keys/>
    }
}

/// A classifier's suggestion in a review queue: the likely reason and its score (none when it
/// suggests nothing).
#[component]
pub(super) fn Suggestion(verdict: Option<Verdict>, testid: &'static str) -> impl IntoView {
    verdict.and_then(|v| v.reason.map(|r| (v.score, r))).map(|(score, reason)| {
        let i18n = use_i18n();
        let reason = i18n.t(&format!("moderation.reason.{}", reason.as_str()));
        view! { <p class="badge badge--wait" data-testid=testid>{i18n.tf("staff.texts.suggested", &[("reason", &reason), ("score", &score.to_string())])}</p> }
    })
}

#[component]
fn TextItem(item: QueuedText) -> impl IntoView {
    let i18n = use_i18n();
    let id = format!("text-{}", item.user_id);
    view! {
        <li class="text-review__item" data-testid="text-item">
            <input type="checkbox" id=id.clone() name=format!("texts[{}]", item.user_id) value=item.changed_at.to_string()/>
            <div class="text-review__body">
                <label for=id class="text-review__who">{item.name.clone()}" (#"{item.user_id}")"</label>
                <p class="text-review__text">{item.text.clone()}</p>
                {item.shown.clone().map(|shown| view! { <p class="muted text-review__shown">{use_i18n().t("staff.texts.shown_now")}": "{shown}</p> })}
                <Suggestion verdict=item.verdict testid="text-suggestion"/>
                <span class="muted">{i18n.date(item.changed_at)}" · "<a href=format!("/staff/members?q=%23{}", item.user_id)>{use_i18n().t("staff.texts.member_file")}</a></span>
            </div>
        </li>
    }
}

/// A review queue's page under its title: its intro, how many were just decided, a refusal, then
/// the waiting items in `form` (or that none wait). `keys` is the page's locale prefix
/// (`{keys}.intro`, `.decided`, `.empty`); `class` the container's. The text and chat-photo
/// queues.
#[component]
pub(super) fn ReviewQueue<S, T, F>(
    keys: &'static str,
    class: &'static str,
    action: ServerAction<S>,
    queue: Resource<Result<Vec<T>, ApiError>>,
    form: F,
) -> impl IntoView
where
    S: leptos::server_fn::ServerFn<Error = ApiError> + Clone + Send + Sync + 'static,
    S::Output: Send + Sync + 'static,
    T: Clone + Send + Sync + serde::Serialize + serde::de::DeserializeOwned + 'static,
    F: Fn(Vec<T>) -> AnyView + Send + Sync + 'static,
{
    let i18n = use_i18n();
    let decided = use_query_map().get_untracked().get("decided").and_then(|d| d.parse::<i64>().ok());
    view! {
        <Title text=i18n.t(&format!("{keys}.title"))/>
        <div class=class>
            <p><a href="/staff">{i18n.t("staff.home.title")}</a></p>
            <h1>{i18n.t(&format!("{keys}.title"))}</h1>
            <p class="muted">{i18n.t(&format!("{keys}.intro"))}</p>
            {decided.map(|n| view! { <p class="notice notice--ok" role="status" data-testid="saved">{use_i18n().plural(&format!("{keys}.decided"), n, &[])}</p> })}
            <ActionError action=action/>
            <Suspense fallback=|| ()>
                {move || queue.get().map(|result| match result {
                    Ok(items) if items.is_empty() => view! { <p class="notice" data-testid="queue-empty">{use_i18n().t(&format!("{keys}.empty"))}</p> }.into_any(),
                    Ok(items) => form(items),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
}

#[component]
pub fn TextReviewPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Photos) {
        return refused;
    }
    let queue = Resource::new_blocking(|| (), |_| staff_text_queue());
    let action = ServerAction::<StaffReviewTexts>::new();
    let form = move |items: Vec<QueuedText>| {
        let i18n = use_i18n();
        view! {
            <ActionForm action=action attr:class="form text-review" attr:data-testid="text-review">
                <p class="muted">{i18n.plural("staff.texts.waiting", items.len() as i64, &[])}</p>
                <ul class="text-review__list">{items.into_iter().map(|item| view! { <TextItem item=item/> }).collect_view()}</ul>
                <DecisionBar keys=i18n.t("staff.texts.keys")/>
            </ActionForm>
        }
        .into_any()
    };
    view! { <ReviewQueue keys="staff.texts" class="container container--narrow page" action=action queue=queue form=form/> }.into_any()
}
