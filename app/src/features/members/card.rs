//! A member in a grid: portrait, name, age and place. Operator-run profiles show the site's
//! fictional icon.

use domain::search::MemberCard;
use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::layouts::icons::HeartIcon;

/// The portrait, or the first letter on a coloured ground when there is no photo.
#[component]
pub fn Portrait(name: String, src: Option<String>, #[prop(optional)] class: &'static str) -> impl IntoView {
    match src {
        Some(file) => view! { <img class=format!("portrait {class}") src=format!("/media/{file}") alt="" loading="lazy" decoding="async"/> }.into_any(),
        None => {
            let initial = name.chars().next().map(|c| c.to_uppercase().to_string()).unwrap_or_default();
            view! { <span class=format!("portrait portrait--empty {class}") aria-hidden="true">{initial}</span> }.into_any()
        }
    }
}

#[component]
pub fn MemberCardView(
    card: MemberCard,
    /// A short label over the photo, such as "New" on a new like.
    #[prop(optional)]
    badge: Option<String>,
) -> impl IntoView {
    let i18n = use_i18n();
    let ctx = crate::context::use_page_ctx();
    let place = card.place();
    view! {
        <li class="member-card">
            <a href=format!("/members/{}", card.id) class="member-card__link" data-testid="member-card">
                <Portrait name=card.name.clone() src=card.thumb.clone() class="member-card__photo"/>
                {badge.map(|b| view! { <span class="badge badge--main member-card__badge" data-testid="card-badge">{b}</span> })}
                {card.fictional.then(|| view! {
                    <span class="member-card__fictional" title=ctx.site.fictional_singular.clone()>
                        <HeartIcon/><span class="visually-hidden">{ctx.site.fictional_singular.clone()}</span>
                    </span>
                })}
                <span class="member-card__text">
                    <span class="member-card__name">{card.name.clone()}<span class="member-card__age">", " {card.age}</span></span>
                    <span class="member-card__place">{place}</span>
                </span>
            </a>
            <span class="visually-hidden">{i18n.tf("profile.age", &[("age", &card.age.to_string())])}</span>
        </li>
    }
}
