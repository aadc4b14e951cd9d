//! `/notifications`: likes, matches and system notices, newest first. Opening the page marks
//! them read; the ones that were unread stay marked for this visit.

use domain::notifications::{Ago, NotificationKind};
use domain::search::MemberCard;
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

use crate::context::use_page_ctx;
use crate::features::members::card::Portrait;
use crate::i18n::{use_i18n, I18n};
use crate::ui::icons::{BellIcon, HeartIcon};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotificationView {
    pub id: i64,
    pub kind: NotificationKind,
    pub actor: Option<MemberCard>,
    pub at: i64,
    /// Unread until this visit.
    pub new: bool,
}

/// One page of notifications and where the next (older) one starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotificationsPage {
    pub items: Vec<NotificationView>,
    /// The `before` parameter of the older page, if there is one.
    pub older: Option<String>,
}

/// The member's notifications, a page at a time; reading them marks them all read.
#[server(prefix = "/api/fn", endpoint = "my_notifications")]
pub async fn my_notifications(before: Option<String>) -> Result<NotificationsPage, domain::ApiError> {
    use crate::call::{fail as public_error, member_call};
    use domain::notifications::{Cursor, NOTIFICATIONS_PAGE};
    let (c, member) = member_call().await?;
    let state = &c.state;
    let now = c.now();
    let before = before.as_deref().and_then(Cursor::parse);
    let mut list =
        state.notifications.page(member.id, domain::account::Ymd::from_unix(now), before, NOTIFICATIONS_PAGE as i64 + 1).await.map_err(public_error)?;
    let older = (list.len() > NOTIFICATIONS_PAGE).then(|| {
        list.truncate(NOTIFICATIONS_PAGE);
        list.last().map(|n| Cursor { at: n.created_at, id: n.id }.to_param())
    });
    // What the page shows is read now (older ones with it). A notification that arrived after
    // the list was read stays new; a page with nothing new writes nothing.
    if let Some(newest) = list.iter().filter(|n| !n.read).map(|n| n.id).max() {
        state.notifications.mark_read_through(member.id, newest, now).await.map_err(public_error)?;
    }
    let items = list.into_iter().map(|n| NotificationView { id: n.id, kind: n.kind, actor: n.actor, at: n.created_at, new: !n.read }).collect();
    Ok(NotificationsPage { items, older: older.flatten() })
}

/// The line's text and where it leads.
fn text_and_link(i18n: &I18n, site: &str, n: &NotificationView) -> (String, String) {
    let name = n.actor.as_ref().map(|a| a.name.as_str()).unwrap_or_default();
    let to_actor = n.actor.as_ref().map(|a| crate::paths::liked_member(a.id)).unwrap_or_else(|| "/likes".into());
    match n.kind {
        NotificationKind::Like => (i18n.tf("notifications.like", &[("name", name)]), to_actor),
        NotificationKind::Match => (i18n.tf("notifications.match", &[("name", name)]), to_actor),
        NotificationKind::PhotoApproved => (i18n.t("notifications.photo_approved"), "/profile".into()),
        NotificationKind::PhotoRejected => (i18n.t("notifications.photo_rejected"), "/profile".into()),
        NotificationKind::Welcome => (i18n.tf("notifications.welcome", &[("site", site)]), "/profile".into()),
    }
}

#[component]
fn NotificationRow(n: NotificationView, now: i64) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = use_page_ctx();
    let (text, href) = text_and_link(&i18n, &ctx.site.name, &n);
    let (key, count) = Ago::between(n.at, now).key();
    let when = i18n.tf(key, &[("count", &count.to_string())]);
    let icon = match &n.actor {
        Some(a) => view! { <Portrait name=a.name.clone() src=a.thumb.clone() class="notification__photo"/> }.into_any(),
        None => view! { <span class="notification__photo notification__photo--system" aria-hidden="true"><BellIcon/></span> }.into_any(),
    };
    let is_match = n.kind == NotificationKind::Match;
    view! {
        <li class="notification" class:notification--new=n.new data-testid="notification" data-kind=n.kind.code()>
            <a class="notification__link" href=href>
                {icon}
                <span class="notification__text">
                    <span class="notification__title">
                        {is_match.then(|| view! { <HeartIcon/> })}
                        {text}
                    </span>
                    <span class="notification__when">{when}</span>
                </span>
                {n.new.then(|| view! { <span class="notification__dot"><span class="visually-hidden">{use_i18n().t("likes.new")}</span></span> })}
            </a>
        </li>
    }
}

#[component]
pub fn NotificationsPage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    crate::features::account::member_or_login("/notifications")?;
    let now = ctx.now;
    let before = leptos_router::hooks::use_query_map().get_untracked().get("before");
    let list = Resource::new_blocking(move || before.clone(), my_notifications);
    Some(view! {
        <Title text=i18n.t("notifications.title")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("notifications.title")}</h1>
            <Suspense fallback=|| ()>
                {move || list.get().map(|result| match result {
                    Ok(page) if page.items.is_empty() => {
                        let i18n = use_i18n();
                        view! {
                            <div class="panel empty-state" data-testid="notifications-empty">
                                <p>{i18n.t("notifications.empty")}</p>
                                <a class="btn btn--primary" href="/members">{i18n.t("likes.find")}</a>
                            </div>
                        }.into_any()
                    }
                    Ok(page) => view! {
                        <ul class="notifications panel" data-testid="notifications" inner_html=crate::render::html_now(page.items.into_iter().map(|n| view! { <NotificationRow n=n now=now/> }).collect_view())></ul>
                        {page.older.map(|cursor| view! {
                            <nav class="pager" aria-label=use_i18n().t("notifications.title")>
                                <a class="btn btn--ghost" href=crate::paths::notifications_before(&cursor) rel="next" data-testid="older-notifications">{use_i18n().t("notifications.older")}</a>
                            </nav>
                        })}
                    }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    })
}
