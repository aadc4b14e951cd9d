//! Lander layout: a small header with the logo, the page, the footer (and the signup modal
//! every lander leads to).

use leptos::prelude::*;

use crate::layouts::footer::Footer;
use crate::layouts::top_bar::Logo;

#[component]
pub fn LanderLayout(children: Children) -> impl IntoView {
    view! {
        <div class="layout layout--lander">
            <header class="lander-header"><Logo/></header>
            <main id="main" class="layout__main">{children()}</main>
            <Footer/>
            <crate::features::account::signup::SignupModalForLayout/>
        </div>
    }
}
