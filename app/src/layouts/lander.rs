//! Lander layout: a small header with the logo, the page, the footer (and the signup modal
//! every lander leads to), with the widgets' stylesheet in the head.

use leptos::prelude::*;

use crate::layouts::footer::Footer;
use crate::layouts::top_bar::Logo;

#[component]
pub fn LanderLayout(children: Children) -> impl IntoView {
    // The designs are drawn by the server with the widgets' classes: their stylesheet comes with
    // the page rather than when a widget mounts, so the first paint is the finished page.
    let widgets_css = crate::context::use_asset_urls().widgets_css.clone();
    view! {
        <leptos_meta::Stylesheet id="vonk-widgets" href=widgets_css/>
        <div class="layout layout--lander">
            <header class="lander-header"><Logo/></header>
            <main id="main" class="layout__main">{children()}</main>
            <Footer/>
            <crate::features::account::signup::SignupModalForLayout/>
        </div>
    }
}
