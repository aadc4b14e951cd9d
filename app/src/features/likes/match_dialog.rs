//! SPEC §2: the full-screen match dialog ('New like!') with the profile photo and one button
//! that closes it. The button is a link to the page without the `match` parameter, so the dialog
//! needs no JavaScript.

use leptos::prelude::*;

use crate::features::members::card::Portrait;
use crate::i18n::use_i18n;

#[component]
pub fn MatchDialog(name: String, photo: Option<String>, close_href: String) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <div class="match-dialog" role="dialog" aria-modal="true" aria-labelledby="match-title" data-testid="match-dialog">
            <div class="match-dialog__body">
                <Portrait name=name.clone() src=photo class="match-dialog__photo"/>
                <h2 id="match-title" class="match-dialog__title">{i18n.t("likes.match_title")}</h2>
                <p>{i18n.tf("likes.match_body", &[("name", &name)])}</p>
                <a class="btn btn--light btn--large" href=close_href autofocus data-testid="match-close">{i18n.t("likes.match_close")}</a>
            </div>
        </div>
    }
}
