//! `/pricing`: credit packs from the database, what things cost, and the payment methods
//! offered in the visitor's country (the PaymentMethodBlocks widget).

use domain::i18n::interpolate;
use domain::payment::{methods_for_country, PaymentMethod};
use domain::site::{format_money, CreditPack};
use domain::widgets::{PaymentMethodBlocksLabels, PaymentMethodBlocksProps, PaymentMethodOption, PaymentMethodSelected, PAYMENT_METHOD_SELECT_EVENT};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::context::use_page_ctx;
use crate::features::credits::server_fns::get_credit_packs;
use crate::i18n::{use_i18n, I18n};
use crate::ui::icons::{ChatIcon, GiftIcon, ShieldIcon};
use crate::widgets::ReactWidget;

/// A method's display name: translated for generic methods, the brand's own name otherwise.
pub fn method_label(i18n: &I18n, method: PaymentMethod) -> String {
    method.label_key().map(|k| i18n.t(k)).unwrap_or_else(|| method.brand_name().to_string())
}

/// The widget's props for a country, with texts in the page's language.
pub fn payment_blocks_props(i18n: &I18n, country: &str, selected: Option<PaymentMethod>) -> PaymentMethodBlocksProps {
    PaymentMethodBlocksProps {
        methods: methods_for_country(country)
            .into_iter()
            .map(|method| PaymentMethodOption { method, group: method.group(), label: method_label(i18n, method) })
            .collect(),
        selected,
        labels: PaymentMethodBlocksLabels {
            title: i18n.t("payment.title"),
            group_card: i18n.t("payment.group.card"),
            group_wallet: i18n.t("payment.group.wallet"),
            group_bank: i18n.t("payment.group.bank"),
            group_voucher: i18n.t("payment.group.voucher"),
            empty: i18n.t("payment.empty"),
        },
    }
}

#[component]
fn PackCard(pack: CreditPack) -> impl IntoView {
    let i18n = use_i18n();
    let comma = i18n.decimal_comma();
    let price = format_money(pack.price_minor, &pack.currency, comma);
    let per_credit = format_money(pack.price_per_credit_minor(), &pack.currency, comma);
    view! {
        <li class="pack" class:pack--highlighted=pack.highlighted data-credits=pack.credits>
            {pack.highlighted.then(|| view! { <span class="pack__ribbon">{i18n.t("pricing.popular")}</span> })}
            <span class="pack__credits">{i18n.plural("pricing.credits", pack.credits, &[])}</span>
            <span class="pack__price">{price}</span>
            <span class="pack__unit">{i18n.tf("pricing.per_credit", &[("price", &per_credit)])}</span>
        </li>
    }
}

/// The interactive part of the pricing page (an island: the only code the browser runs here):
/// the payment-method widget and the line that names the chosen method.
#[island(lazy)]
fn PaymentMethodPicker(props_json: String, hint: String, chosen_template: String, method_labels: Vec<(PaymentMethod, String)>) -> impl IntoView {
    let (selected, set_selected) = signal(None::<PaymentMethod>);
    let on_select = Callback::new(move |detail: String| {
        if let Ok(event) = serde_json::from_str::<PaymentMethodSelected>(&detail) {
            set_selected.set(Some(event.method));
        }
    });
    let chosen = move || match selected.get() {
        Some(method) => {
            let label = method_labels.iter().find(|(m, _)| *m == method).map(|(_, l)| l.as_str()).unwrap_or(method.code());
            interpolate(&chosen_template, &[("method", label)])
        }
        None => hint.clone(),
    };
    view! {
        <ReactWidget
            name="PaymentMethodBlocks"
            props=Signal::derive(move || props_json.clone())
            event=PAYMENT_METHOD_SELECT_EVENT
            on_event=on_select
            class="widget--payment-methods"
        />
        <p class="pricing__chosen" aria-live="polite" data-testid="chosen-method">{chosen}</p>
    }
}

#[component]
pub fn PricingPage() -> impl IntoView {
    let ctx = use_page_ctx();
    let i18n = use_i18n();
    let packs = Resource::new(|| (), |_| get_credit_packs());
    let props = payment_blocks_props(&i18n, &ctx.country, None);
    let method_labels: Vec<(PaymentMethod, String)> = props.methods.iter().map(|m| (m.method, m.label.clone())).collect();
    let props_json = serde_json::to_string(&props).unwrap_or_default();
    let costs = [
        ("pricing.cost_message", ctx.site.message_credits, view! { <ChatIcon/> }.into_any()),
        ("pricing.cost_photo", ctx.site.photo_credits, view! { <ShieldIcon/> }.into_any()),
        ("pricing.cost_gift", ctx.site.gift_credits, view! { <GiftIcon/> }.into_any()),
    ];
    let empty_text = i18n.t("pricing.empty");
    let error_text = i18n.t("error.generic");
    view! {
        <Title text=i18n.t("title.pricing")/>
        <div class="container page pricing">
            <header class="page__header">
                <h1 class="page__title">{i18n.t("pricing.title")}</h1>
                <p class="page__lead">{i18n.t("pricing.intro")}</p>
            </header>
            <Suspense fallback=move || view! { <p class="muted">{use_i18n().t("pricing.loading")}</p> }>
                {move || packs.get().map(|result| match result {
                    Ok(list) if list.is_empty() => view! { <p class="notice">{empty_text.clone()}</p> }.into_any(),
                    Ok(list) => view! {
                        <ul class="packs" data-testid="packs">
                            {list.into_iter().map(|pack| view! { <PackCard pack=pack/> }).collect_view()}
                        </ul>
                    }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{error_text.clone()}</p> }.into_any(),
                })}
            </Suspense>
            <p class="pricing__premium">{i18n.t("pricing.premium_note")}</p>

            <section class="pricing__costs" aria-labelledby="costs-title">
                <h2 id="costs-title" class="page__subtitle">{i18n.t("pricing.costs_title")}</h2>
                <ul class="costs">
                    {costs.into_iter().map(|(key, credits, icon)| view! {
                        <li class="cost">
                            <span class="cost__icon">{icon}</span>
                            <span class="cost__label">{i18n.t(key)}</span>
                            <span class="cost__value">{i18n.plural("pricing.cost_value", credits, &[])}</span>
                        </li>
                    }).collect_view()}
                </ul>
                {ctx.site.minimum_message_cost.clone().map(|(minor, currency)| view! {
                    <p class="muted" data-testid="minimum-message-cost">
                        {i18n.tf("pricing.minimum_message_cost", &[("amount", &domain::site::format_money(minor, &currency, i18n.decimal_comma()))])}
                    </p>
                })}
            </section>

            <section class="pricing__methods" aria-labelledby="methods-title">
                <h2 id="methods-title" class="page__subtitle">{i18n.t("pricing.methods_title")}</h2>
                <PaymentMethodPicker
                    props_json=props_json
                    hint=i18n.t("pricing.method_hint")
                    chosen_template=i18n.t("pricing.method_selected")
                    method_labels=method_labels
                />
                <p class="pricing__secure"><ShieldIcon/>{i18n.t("pricing.secure_note")}</p>
                <p class="muted">{i18n.plural("pricing.refund_note", ctx.site.refund_days, &[])}</p>
            </section>
        </div>
    }
}
