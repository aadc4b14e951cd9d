//! A member in a grid: portrait, name, age and place. Operator-run profiles show the site's
//! fictional icon.

use domain::search::MemberCard;
use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::ui::icons::HeartIcon;

/// How many cards at the top of a grid load their portrait at once, with high priority: the
/// first screen's images (the largest of them is what the visitor sees first); the rest load
/// lazily as they scroll into view.
pub const EAGER_CARDS: usize = 4;

/// The portrait, or the first letter on a coloured ground when there is no photo. `eager`: one
/// of the first screen's images, fetched at once and first.
#[component]
pub fn Portrait(name: String, src: Option<String>, #[prop(optional)] class: &'static str, #[prop(optional)] eager: bool) -> impl IntoView {
    match src {
        Some(file) if eager => {
            view! { <img class=format!("portrait {class}") src=crate::paths::media(&file) alt="" loading="eager" fetchpriority="high"/> }.into_any()
        }
        Some(file) => view! { <img class=format!("portrait {class}") src=crate::paths::media(&file) alt="" loading="lazy" decoding="async"/> }.into_any(),
        None => {
            let initial = crate::ui::initial(&name);
            view! { <span class=format!("portrait portrait--empty {class}") aria-hidden="true">{initial}</span> }.into_any()
        }
    }
}

/// The like button on a card: whether the member likes this profile. The grid around the cards
/// carries the forms (`CardLikeForms`). For a visitor, `signup` is where the heart leads: the
/// signup with that member and the like remembered (`/members/{id}/signup?then=like`, the
/// page's tracking kept), the like given when they come back.
#[derive(Debug, Clone, PartialEq)]
pub struct CardLike {
    pub liked: bool,
    pub signup: Option<String>,
}

impl CardLike {
    pub fn member(liked: bool) -> CardLike {
        CardLike { liked, signup: None }
    }
}

/// A heart in the card's corner: the submit button of the grid's like or unlike form (works
/// without JavaScript), which comes back to the same place in the list.
#[component]
fn CardLikeButton(id: i64, name: String, like: CardLike) -> impl IntoView {
    use crate::features::likes::server_fns::{CARD_LIKE, CARD_UNLIKE};
    let i18n = use_i18n();
    let label = if like.liked { i18n.tf("likes.unlike_name", &[("name", &name)]) } else { i18n.tf("likes.like_name", &[("name", &name)]) };
    let pressed = if like.liked { "true" } else { "false" };
    if let Some(href) = like.signup {
        return view! {
            <div class="member-card__like">
                <a href=href class="like-button" aria-label=label.clone() title=label data-signup-link="" data-testid="card-like">
                    <HeartIcon/>
                </a>
            </div>
        }
        .into_any();
    }
    view! {
        <div class="member-card__like">
            <button type="submit" form=if like.liked { CARD_UNLIKE } else { CARD_LIKE } name="id" value=id.to_string() class="like-button" class:like-button--on=like.liked aria-pressed=pressed aria-label=label.clone() title=label data-testid="card-like">
                <HeartIcon/>
            </button>
        </div>
    }
    .into_any()
}

#[component]
pub fn MemberCardView(
    card: MemberCard,
    /// A short label over the photo, such as "New" on a new like.
    #[prop(default = None)]
    badge: Option<String>,
    /// A like button for logged-in members.
    #[prop(default = None)]
    like: Option<CardLike>,
    /// One of the first cards of the page: its portrait loads at once (see [`EAGER_CARDS`]).
    #[prop(optional)]
    eager: bool,
) -> impl IntoView {
    let ctx = crate::context::use_page_ctx();
    let place = card.place();
    let like_button = like.map(|like| view! { <CardLikeButton id=card.id name=card.name.clone() like=like/> });
    view! {
        <li class="member-card" id=format!("m-{}", card.id)>
            <a href=crate::paths::member(card.id) class="member-card__link">
                <Portrait name=card.name.clone() src=card.thumb.clone() class="member-card__photo" eager=eager/>
                {badge.map(|b| view! { <span class="badge badge--main member-card__badge" data-testid="card-badge">{b}</span> })}
                // The heart is drawn by the stylesheet: a grid repeats it on most cards.
                {card.fictional.then(|| view! {
                    <span class="member-card__fictional" role="img" aria-label=ctx.site.fictional_singular.clone() title=ctx.site.fictional_singular.clone()></span>
                })}
                <span class="member-card__text">
                    <span class="member-card__name">{card.name.clone()}<span class="member-card__age">", " {card.age}</span></span>
                    <span class="member-card__place">{place}</span>
                </span>
            </a>
            {like_button}
        </li>
    }
}
