//! Default layout: top navigation, warning banners (age check, activation reminder, disabled notification mails, profile photo, push opt-in), the page, footer with disclaimer, entry warning.

use leptos::prelude::*;

use crate::features::account::signup::SignupModalForLayout;
use crate::features::likes::popup::{LikePopup, LikePopupLabels};
use crate::layouts::activation_reminder::ActivationReminder;
use crate::layouts::entry_warning::EntryWarning;
use crate::layouts::footer::Footer;
use crate::layouts::notifications_alert::NotificationsAlert;
use crate::layouts::photo_alert::PhotoAlert;
use crate::layouts::top_bar::TopBar;
use crate::render::at_once;

#[component]
pub fn DefaultLayout(children: Children) -> impl IntoView {
    view! {
        <div class="layout layout--default">
            {at_once(view! {
                <a class="skip-link" href="#main">{crate::i18n::use_i18n().t("nav.skip")}</a>
                <TopBar/>
                <crate::layouts::time_bonus::TimeBonus/>
                <crate::layouts::age_alert::AgeAlert/>
                <ActivationReminder/>
                <NotificationsAlert/>
                <PhotoAlert/>
                <crate::layouts::push_alert::PushOptIn/>
            })}
            <main id="main" class="layout__main">{children()}</main>
            {at_once(view! {
                <Footer/>
                <EntryWarning/>
                <SignupModalForLayout/>
                <MemberLikePopup/>
            })}
        </div>
    }
}

/// The like popup for members: `?t=N` on any page, due auto-likes in the member area.
#[component]
fn MemberLikePopup() -> impl IntoView {
    let ctx = crate::context::use_page_ctx();
    let i18n = crate::i18n::use_i18n();
    let path = leptos_router::hooks::use_location().pathname.get_untracked();
    ctx.member.as_ref().map(|m| {
        let auto = m.auto_like && domain::notifications::in_member_area(&path);
        let labels = LikePopupLabels { title: i18n.t("likes.liked_you"), view_profile: i18n.t("swipe.view_profile"), close: i18n.t("auth.close") };
        view! { <LikePopup auto=auto labels=labels/> }
    })
}
