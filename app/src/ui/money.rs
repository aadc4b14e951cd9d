//! The money field of staff forms (a refund, a bundle's price, a minimum order, a message's
//! minimum cost). It reads what is typed with `domain::money::parse_amount`, the reading the
//! server function applies again: a text that is not an amount (`0,001`, `1.000,50`) is
//! marked and explained in place and the form is not sent; without JavaScript the server's
//! refusal says the same.

use leptos::prelude::*;

/// A labelled money input posting as `name`. `invalid` is the translated refusal
/// (`validation.amount_invalid`); `hint`, when not empty, is shown under the field.
#[island(lazy)]
pub fn MoneyField(name: String, label: String, value: String, placeholder: String, required: bool, invalid: String, hint: String) -> impl IntoView {
    let wrong = RwSignal::new(false);
    let id: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described = if hint.is_empty() { error_id.clone() } else { format!("{hint_id} {error_id}") };
    let message = StoredValue::new(invalid);
    // Checked when the field is left or changed; once marked, every keystroke checks again so
    // the mark goes as soon as the amount reads.
    let check = move |ev: leptos::ev::Event, always: bool| {
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsCast;
            let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
            if !always && !wrong.get_untracked() {
                return;
            }
            let bad = matches!(domain::money::parse_amount(&input.value()), Err(domain::money::AmountError::NotAnAmount));
            input.set_custom_validity(&if bad { message.get_value() } else { String::new() });
            wrong.set(bad);
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (ev, always);
    };
    view! {
        <label class="field">
            <span class="field__label">{label}</span>
            <input
                type="text"
                inputmode="decimal"
                autocomplete="off"
                name=name
                maxlength=domain::money::AMOUNT_MAX_CHARS.to_string()
                value=value
                placeholder=(!placeholder.is_empty()).then_some(placeholder)
                required=required
                aria-invalid=move || wrong.get().then_some("true")
                aria-describedby=described
                on:change=move |ev| check(ev, true)
                on:input=move |ev| check(ev, false)
            />
            {(!hint.is_empty()).then(|| view! { <span class="field__hint" id=hint_id>{hint}</span> })}
            <span class="field__error" role="alert" id=error_id>{move || wrong.get().then(|| message.get_value())}</span>
        </label>
    }
}
