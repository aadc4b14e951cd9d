//! Staff pages (roles beyond SPEC §6: admin, support, moderator, finance, operator, granted by
//! admins on `/staff/members` or with `vonk staff grant <email> <role>`): the staff home with the
//! links each role may follow, complaints, members, photo review, held messages, payments,
//! prices, the site's settings. Everyone else — visitors, members, staff without the role —
//! gets the not-found page, so the pages do not announce themselves; the server functions check
//! again.

pub mod chat_photos;
pub mod chat_settings;
pub mod complaints;
pub mod contact_weeks;
pub mod figures;
pub mod held;
pub mod jobs;
pub mod mails;
pub mod member_conversations;
pub mod members;
pub mod operators;
pub mod payment_review;
pub mod payments;
pub mod photos;
pub mod postbacks;
pub mod pricing;
pub mod site;
pub mod site_setup;
pub mod splits;
pub mod texts;

use leptos::prelude::*;

pub use domain::staff::StaffArea;

/// Every staff address and the area that opens it: the pages (each calls [`refuse_outside`]
/// with its area) and the files and streams beside them. The HTTP tests ask each one as every
/// role, a member and a visitor, and check that every `/staff` page is listed here.
pub const STAFF_ADDRESSES: [(&str, StaffArea); 22] = [
    ("/staff", StaffArea::Home),
    ("/staff/complaints", StaffArea::Complaints),
    ("/staff/members", StaffArea::Members),
    (member_conversations::PAGE, StaffArea::Members),
    ("/staff/photos", StaffArea::Photos),
    (texts::PAGE, StaffArea::Photos),
    (chat_photos::PAGE, StaffArea::Photos),
    ("/staff/held", StaffArea::Held),
    ("/staff/chats", StaffArea::Console),
    ("/staff/chats/events", StaffArea::Console),
    ("/staff/operators.csv", StaffArea::OperatorFigures),
    ("/staff/payments", StaffArea::Payments),
    ("/staff/payments/sales.csv", StaffArea::Payments),
    ("/staff/pricing", StaffArea::Pricing),
    ("/staff/site", StaffArea::Site),
    ("/staff/jobs", StaffArea::Jobs),
    (postbacks::PAGE, StaffArea::Figures),
    (figures::PAGE, StaffArea::Figures),
    (figures::CSV, StaffArea::Figures),
    (figures::MEMBERS_PAGE, StaffArea::Figures),
    (splits::PAGE, StaffArea::Figures),
    ("/staff/mails", StaffArea::Site),
];

/// For a staff page: staff with a role that opens `area` and two-step login on get `None` and see
/// the page; with the role but without two-step login, a page that says to switch it on first
/// (403); everyone else — a visitor too, so the page does not announce itself with a login form —
/// the not-found answer (404 and its notice).
pub fn refuse_outside(area: StaffArea) -> Option<AnyView> {
    match crate::context::use_page_ctx().member.as_ref() {
        Some(m) if m.staff.may(area) && m.two_step => None,
        Some(m) if m.staff.may(area) => Some(view! { <TwoStepFirst/> }.into_any()),
        _ => Some(view! { <crate::features::site::error_page::NotFoundPage/> }.into_any()),
    }
}

/// Staff without two-step login: what to do before the staff pages open.
#[component]
fn TwoStepFirst() -> impl IntoView {
    let i18n = crate::i18n::use_i18n();
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(http::StatusCode::FORBIDDEN);
    }
    view! {
        <leptos_meta::Title text=i18n.t("staff.two_step.title")/>
        <div class="container container--narrow page" data-testid="staff-two-step-first">
            <h1>{i18n.t("staff.two_step.title")}</h1>
            <p class="notice">{i18n.t("error.two_step_required")}</p>
            <p><a class="btn btn--primary" href="/settings#two-step">{i18n.t("staff.two_step.set_up")}</a></p>
        </div>
    }
}
