//! The nine lander designs as the server renders them: the same elements, classes and images as
//! the React widgets in `react-widgets/src/widgets/Landers` draw in their first state, so the page
//! looks finished before any script runs and a widget mounting over it moves nothing (issue 37:
//! the lander's layout shift). The site's stylesheet imports the designs' (`Landers.css`).
//! Element for element (test ids too) this follows `Landers.tsx` and `shared.tsx`; the
//! Playwright test of the landers' layout shift fails when the two part ways.

use domain::lander::Design;
use domain::widgets::{LanderProfile, LanderProps};
use leptos::prelude::*;

/// "Sanne, 29".
fn name_age(p: &LanderProfile) -> String {
    format!("{}, {}", p.name, p.age)
}

/// The member's photo (`big`: the larger one), or their initial. Eager images are the ones the
/// first screen shows, so they are also fetched first.
fn photo(p: &LanderProfile, class: &'static str, eager: bool, big: bool) -> AnyView {
    let src = if big { p.large.clone().or_else(|| p.photo.clone()) } else { p.photo.clone() };
    let (width, height) = if big { ("480", "640") } else { ("240", "240") };
    match src {
        Some(src) => view! {
            <img class=class src=src alt="" loading=if eager { "eager" } else { "lazy" } fetchpriority=eager.then_some("high")
                decoding="async" draggable="false" width=width height=height/>
        }
        .into_any(),
        None => view! { <span class=format!("{class} vw-lander__initial") aria-hidden="true">{crate::ui::initial(&p.name)}</span> }.into_any(),
    }
}

fn headline(props: &LanderProps) -> impl IntoView {
    view! {
        <h1 class="vw-lander__headline ">{props.labels.headline.clone()}</h1>
        <p class="vw-lander__intro">{props.labels.intro.clone()}</p>
    }
}

fn online_count(props: &LanderProps) -> impl IntoView {
    view! {
        <p class="vw-lander__count">
            <span class="vw-lander__dot" aria-hidden="true"></span>" "{props.labels.members_online.text(props.online_count.into(), &[])}
        </p>
    }
}

fn featured(props: &LanderProps) -> Option<impl IntoView> {
    let p = props.featured.as_ref()?;
    Some(view! {
        <a class="vw-lander__featured" href=p.href.clone() data-signup-link="" data-testid="lander-featured">
            {photo(p, "vw-lander__featured-photo", true, true)}
            <span class="vw-lander__featured-text">
                <strong>{name_age(p)}</strong>
                <span>{p.place.clone()}</span>
                {p.online.then(|| view! {
                    <span class="vw-lander__online"><span class="vw-lander__dot" aria-hidden="true"></span>" "{props.labels.online.clone()}</span>
                })}
            </span>
        </a>
    })
}

fn signup_button(props: &LanderProps, class: &str) -> impl IntoView {
    view! { <a class=format!("vw-lander__cta {class}") href=props.signup_href.clone() data-signup-link="" data-testid="lander-signup">{props.labels.cta.clone()}</a> }
}

fn login_line(props: &LanderProps) -> impl IntoView {
    view! { <p class="vw-lander__login">{props.labels.have_account.clone()}" "<a href=props.login_href.clone()>{props.labels.login.clone()}</a></p> }
}

fn signup_block(props: &LanderProps, class: &str) -> impl IntoView {
    view! {
        {signup_button(props, class)}
        <p class="vw-lander__free">{props.labels.free.clone()}</p>
        {login_line(props)}
    }
}

/// A member's tile; `online` is the label when the design marks who is online.
fn tile(p: &LanderProfile, class: &'static str, eager: bool, online: Option<&str>) -> impl IntoView {
    view! {
        <a class=format!("vw-lander__tile {class}") href=p.href.clone() data-signup-link="" data-testid="lander-profile">
            {photo(p, "vw-lander__tile-photo", eager, false)}
            <span class="vw-lander__tile-text">
                <span class="vw-lander__tile-name">{name_age(p)}</span>
                <span class="vw-lander__tile-place">{p.place.clone()}</span>
            </span>
            {online.filter(|_| p.online).map(|label| view! {
                <span class="vw-lander__online"><span class="vw-lander__dot" aria-hidden="true"></span>" "{label.to_string()}</span>
            })}
        </a>
    }
}

/// The clip's poster (`CLIP_SCRIPT` loads the clip itself once the page has loaded), or the
/// portraits.
fn clip(props: &LanderProps, class: &'static str) -> AnyView {
    if let Some(clip) = &props.clip {
        return view! {
            <video class=class poster=clip.poster.clone() autoplay="" muted="" loop="" playsinline="" preload="none" aria-hidden="true" data-testid="lander-clip"
                data-clip-src=clip.src.clone()></video>
        }
        .into_any();
    }
    let slides: Vec<&LanderProfile> = props.profiles.iter().filter(|p| p.large.is_some() || p.photo.is_some()).take(4).collect();
    view! {
        <div class=format!("{class} vw-lander__slides") aria-hidden="true" data-testid="lander-slides">
            {slides.into_iter().enumerate().map(|(i, p)| view! {
                <img src=p.large.clone().or_else(|| p.photo.clone()).unwrap_or_default() alt="" loading=if i == 0 { "eager" } else { "lazy" }
                    style=format!("animation-delay: {}s;", i * 3)/>
            }).collect_view()}
        </div>
    }
    .into_any()
}

fn live_tiles(props: &LanderProps, count: usize) -> impl IntoView {
    view! {
        <ul class="vw-lander__live" aria-label=props.labels.live_now.clone()>
            {props.profiles.iter().take(count).enumerate().map(|(i, p)| view! {
                <li>
                    <a class="vw-lander__cam" href=p.href.clone() data-signup-link="" data-testid="lander-live">
                        {photo(p, "vw-lander__cam-photo", false, true)}
                        <span class="vw-lander__badge">{props.labels.live.clone()}</span>
                        <span class="vw-lander__cam-name">{name_age(p)}</span>
                        <span class="vw-lander__cam-watch">{props.labels.watching.text(12 + (p.id * 7 + i as i64 * 13).rem_euclid(80), &[])}</span>
                    </a>
                </li>
            }).collect_view()}
        </ul>
    }
}

fn icon(name: &str) -> impl IntoView {
    let d = match name {
        "lock" => "M7 10V7a5 5 0 0 1 10 0v3h1.5A1.5 1.5 0 0 1 20 11.5v8a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 19.5v-8A1.5 1.5 0 0 1 5.5 10zm2 0h6V7a3 3 0 0 0-6 0z",
        "heart" => "M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.5 4.5 7 4.5c2 0 3.6 1.1 5 2.9 1.4-1.8 3-2.9 5-2.9 3.5 0 5.5 3.5 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z",
        _ => "M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4A2.5 2.5 0 0 1 4 13.5z",
    };
    view! { <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false"><path fill="currentColor" d=d></path></svg> }
}

/// Where a pin goes on the map: the widget's `pinAt`.
fn pin_at(p: &LanderProfile, i: usize) -> String {
    let x = 12 + (p.id * 37 + i as i64 * 53).rem_euclid(76);
    let y = 14 + (p.id * 61 + i as i64 * 29).rem_euclid(68);
    format!("left: {x}%; top: {y}%;")
}

/// Starts the landers' clips once the page has loaded and the browser is idle, so the clip never
/// competes with the page for the connection; not for visitors who save data, are on 2G or ask
/// for less motion (they keep the poster). The widget's `Clip` does the same where it mounts.
pub const CLIP_SCRIPT: &str = r#"(function(){var v=document.querySelectorAll('video[data-clip-src]'),c=navigator.connection||{};
if(!v.length||c.saveData||/2g$/.test(c.effectiveType||'')||(window.matchMedia&&matchMedia('(prefers-reduced-motion: reduce)').matches))return;
function go(){(window.requestIdleCallback||function(f){setTimeout(f,200)})(function(){v.forEach(function(e){if(e.getAttribute('src'))return;e.muted=!0;e.src=e.getAttribute('data-clip-src');var p=e.play();p&&p.catch&&p.catch(function(){})})})}
document.readyState=='complete'?go():addEventListener('load',go,{once:!0})})();"#;

/// The design in its first state: what its widget draws before anyone touches it.
pub fn design(design: Design, props: &LanderProps) -> AnyView {
    let l = &props.labels;
    let profiles = &props.profiles;
    match design {
        Design::AloneTonight => view! {
            <div class="vw-lander vw-lander--night" data-design="alonetonight">
                <div class="vw-lander__moon" aria-hidden="true"></div>
                <div class="vw-lander__narrow">
                    {featured(props)}
                    {headline(props)}
                    {online_count(props)}
                    <ul class="vw-lander__row">
                        {profiles.iter().take(6).enumerate().map(|(i, p)| view! { <li>{tile(p, "vw-lander__tile--round", i < 3, Some(&l.online))}</li> }).collect_view()}
                    </ul>
                    {signup_block(props, "vw-lander__cta--glow")}
                </div>
            </div>
        }
        .into_any(),
        Design::Collage => view! {
            <div class="vw-lander vw-lander--collage" data-design="collagelanding">
                <ul class="vw-lander__collage" aria-label=l.nearby.clone()>
                    {profiles.iter().take(8).enumerate().map(|(i, p)| view! {
                        <li style=format!("--tilt: {}deg;", (i as i64 * 37) % 13 - 6)>{tile(p, "vw-lander__tile--polaroid", i < 4, None)}</li>
                    }).collect_view()}
                </ul>
                <div class="vw-lander__card">
                    {headline(props)}
                    {signup_block(props, "")}
                </div>
            </div>
        }
        .into_any(),
        Design::Gallery => view! {
            <div class="vw-lander vw-lander--gallery" data-design="gallery">
                <div class="vw-lander__wide">
                    {featured(props)}
                    {headline(props)}
                    <ul class="vw-lander__grid" aria-label=l.nearby.clone()>
                        {profiles.iter().take(12).enumerate().map(|(i, p)| view! { <li>{tile(p, "vw-lander__tile--card", i < 4, Some(&l.online))}</li> }).collect_view()}
                    </ul>
                    {login_line(props)}
                </div>
                <div class="vw-lander__sticky">{signup_button(props, "")}</div>
            </div>
        }
        .into_any(),
        Design::Icons => {
            let points = [("lock", &l.point_discreet, &l.point_discreet_body), ("heart", &l.point_match, &l.point_match_body), ("chat", &l.point_chat, &l.point_chat_body)];
            view! {
                <div class="vw-lander vw-lander--icons" data-design="iconslanding">
                    <div class="vw-lander__narrow">
                        {headline(props)}
                        <ul class="vw-lander__faces">
                            {profiles.iter().take(5).map(|p| view! { <li>{tile(p, "vw-lander__tile--face", true, None)}</li> }).collect_view()}
                        </ul>
                        <ul class="vw-lander__points">
                            {points.into_iter().map(|(name, title, body)| view! {
                                <li>
                                    <span class="vw-lander__point-icon">{icon(name)}</span>
                                    <span><strong>{title.clone()}</strong><span>{body.clone()}</span></span>
                                </li>
                            }).collect_view()}
                        </ul>
                        {signup_button(props, "")}
                        {login_line(props)}
                    </div>
                </div>
            }
            .into_any()
        }
        Design::Map => {
            let pins: Vec<&LanderProfile> = profiles.iter().take(7).collect();
            view! {
                <div class="vw-lander vw-lander--map" data-design="maplanding">
                    <div class="vw-lander__narrow">
                        {headline(props)}
                        <div class="vw-lander__map" role="img" aria-label=l.nearby.clone()>
                            <span class="vw-lander__you" aria-hidden="true"></span>
                            {pins.iter().enumerate().map(|(i, p)| view! {
                                <span class="vw-lander__pin" style=pin_at(p, i) aria-hidden="true">{photo(p, "vw-lander__pin-photo", true, false)}</span>
                            }).collect_view()}
                        </div>
                        <ul class="vw-lander__list">
                            {pins.iter().take(4).map(|p| view! { <li>{tile(p, "vw-lander__tile--line", false, Some(&l.online))}</li> }).collect_view()}
                        </ul>
                        {signup_button(props, "")}
                        {login_line(props)}
                    </div>
                </div>
            }
            .into_any()
        }
        Design::SocialNetwork => view! {
            <div class="vw-lander vw-lander--social" data-design="socialnetwork">
                <div class="vw-lander__feed">
                    {featured(props)}
                    {headline(props)}
                    {signup_button(props, "")}
                    {profiles.iter().filter(|p| p.photo.is_some()).take(4).enumerate().map(|(i, p)| view! {
                        <article class="vw-lander__post" aria-labelledby=format!("vw-lander-post-{}", p.id)>
                            <header>
                                {photo(p, "vw-lander__avatar", i < 2, false)}
                                <span><strong id=format!("vw-lander-post-{}", p.id)>{name_age(p)}</strong><span>{p.place.clone()}</span></span>
                            </header>
                            {photo(p, "vw-lander__post-photo", i == 0, true)}
                            <footer>
                                <a href=p.href.clone() data-signup-link="">{l.react_like.clone()}</a>
                                <a href=p.href.clone() data-signup-link="">{l.react_message.clone()}</a>
                            </footer>
                        </article>
                    }).collect_view()}
                    {login_line(props)}
                </div>
            </div>
        }
        .into_any(),
        Design::TransitionsVideo => view! {
            <div class="vw-lander vw-lander--transitions" data-design="transitionsvideolanding">
                {clip(props, "vw-lander__backdrop")}
                <div class="vw-lander__over">
                    {headline(props)}
                    {online_count(props)}
                    {signup_button(props, "vw-lander__cta--glow")}
                    {login_line(props)}
                </div>
            </div>
        }
        .into_any(),
        Design::Video => view! {
            <div class="vw-lander vw-lander--video" data-design="video">
                <div class="vw-lander__wide vw-lander__split">
                    <div class="vw-lander__frame">
                        {clip(props, "vw-lander__frame-clip")}
                        <span class="vw-lander__badge">{l.live.clone()}</span>
                    </div>
                    <div>
                        {headline(props)}
                        {online_count(props)}
                        {signup_button(props, "")}
                        {login_line(props)}
                    </div>
                </div>
                <div class="vw-lander__wide">
                    <h2 class="vw-lander__sub">{l.live_now.clone()}</h2>
                    {live_tiles(props, 4)}
                </div>
            </div>
        }
        .into_any(),
        Design::TinderSwipe => {
            let cards: Vec<&LanderProfile> = profiles.iter().take(10).collect();
            let stack = cards.first().map(|card| {
                view! {
                    <div class="vw-lander__stack" role="group" tabindex="0" aria-label=l.swipe_stack.clone()>
                        {cards.get(1).map(|next| photo(next, "vw-lander__stack-next", false, true))}
                        <div class="vw-lander__stack-card" data-testid="lander-swipe-card" data-id=card.id>
                            {photo(card, "vw-lander__stack-photo", true, true)}
                            <span class="vw-lander__stack-text"><strong>{name_age(card)}</strong><span>{card.place.clone()}</span></span>
                        </div>
                    </div>
                    <div class="vw-lander__stack-buttons">
                        <button type="button" class="vw-lander__round vw-lander__round--pass">{l.swipe_pass.clone()}</button>
                        <button type="button" class="vw-lander__round vw-lander__round--like">{l.swipe_like.clone()}</button>
                    </div>
                    {signup_block(props, "vw-lander__cta--quiet")}
                }
            });
            let done = stack.is_none().then(|| {
                view! {
                    <div class="vw-lander__swipe-done" data-testid="lander-swipe-done">
                        <h2>{l.swipe_done.clone()}</h2>
                        {signup_button(props, "")}
                        {login_line(props)}
                    </div>
                }
            });
            view! {
                <div class="vw-lander vw-lander--swipe" data-design="tinderswipe">
                    <div class="vw-lander__narrow">
                        {headline(props)}
                        {stack}
                        {done}
                    </div>
                </div>
            }
            .into_any()
        }
    }
}
