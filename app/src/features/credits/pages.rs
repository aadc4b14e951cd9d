//! Buying credits: `/credits` (bundles, prices with VAT and the discount in force, a code
//! field), `/credits/{id}/{method?}` (the bundle and the payment-method blocks; a chosen method
//! goes straight to the provider), `/credits/repeat-order`, `/premium`, `/transactions` and
//! `/transactions/{id}` (the result), `/directdebit`, and the test provider's checkout page.
//! Every form is a server function's `ActionForm`: it works without JavaScript.

use domain::checkout::{format_rate, DiscountKind, PaymentStatus, PaymentSummary, Quote};
use domain::payment::{PaymentGroup, PaymentMethod};
use domain::site::{format_money, CreditPack};
use domain::widgets::{PaymentMethodSelected, PAYMENT_METHOD_SELECT_EVENT};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use super::pricing::{method_label, payment_blocks_props};
use super::server_fns::*;
use crate::i18n::{use_i18n, I18n};
use crate::ui::forms::ActionError;
use crate::widgets::ReactWidget;

fn money(i18n: &I18n, minor: i64, currency: &str) -> String {
    format_money(minor, currency, i18n.decimal_comma())
}

/// The line that names the discount in force.
fn discount_line(i18n: &I18n, quote_discount: &domain::checkout::Discount) -> String {
    let percent = quote_discount.percent.to_string();
    match quote_discount.kind {
        DiscountKind::Code => i18n.tf("credits.discount_code", &[("percent", &percent), ("code", &quote_discount.code)]),
        DiscountKind::Welcome => i18n.tf("credits.discount_welcome", &[("percent", &percent)]),
        DiscountKind::TimeBonus => i18n.tf("credits.discount_time_bonus", &[("percent", &percent)]),
    }
}

/// One bundle as a card: the price now, the list price struck through when discounted.
#[component]
fn OfferCard(pack: CreditPack, quote: Quote, href: String) -> impl IntoView {
    let i18n = use_i18n();
    let price = money(&i18n, quote.amount, &quote.currency);
    let per_credit = money(&i18n, (quote.amount + quote.credits / 2) / quote.credits.max(1), &quote.currency);
    let discounted = quote.amount < quote.list_price;
    let was = i18n.tf("credits.was", &[("price", &money(&i18n, quote.list_price, &quote.currency))]);
    let vat = i18n.tf("credits.vat_included", &[("rate", &format_rate(quote.vat_rate_bp, i18n.decimal_comma()))]);
    view! {
        <li>
            <a class="pack pack--link" class:pack--highlighted=pack.highlighted href=href data-credits=pack.credits data-testid="pack">
                {pack.highlighted.then(|| view! { <span class="pack__ribbon">{i18n.t("pricing.popular")}</span> })}
                <span class="pack__credits">{i18n.tf("credits.pack_credits", &[("credits", &pack.credits.to_string())])}</span>
                {discounted.then(|| view! { <s class="pack__was">{was}</s> })}
                <span class="pack__price" data-testid="pack-price">{price}</span>
                <span class="pack__unit">{i18n.tf("pricing.per_credit", &[("price", &per_credit)])}</span>
                <span class="pack__vat">{vat}</span>
                <span class="btn btn--primary btn--small pack__choose">{i18n.t("credits.choose")}</span>
            </a>
        </li>
    }
}

#[component]
pub fn CreditsPage() -> impl IntoView {
    let i18n = use_i18n();
    crate::features::account::member_or_login("/credits")?;
    let code = use_query_map().get_untracked().get("code").filter(|c| !c.trim().is_empty());
    let data = Resource::new_blocking(move || code.clone(), get_credits_page);
    Some(view! {
        <Title text=i18n.t("title.credits")/>
        <div class="container page credits-page">
            <header class="page__header">
                <h1 class="page__title">{i18n.t("credits.title")}</h1>
                <p class="page__lead">{i18n.t("credits.intro")}</p>
            </header>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                        Ok(d) => {
                            let code = d.code.clone();
                            view! {
                                <p class="credits__balance" data-testid="balance">{i18n.tf("credits.balance", &[("credits", &d.balance.to_string())])}</p>
                                {d.discount.as_ref().map(|disc| view! {
                                    <p class="notice notice--deal" role="status" data-testid="discount">{discount_line(&i18n, disc)}
                                        {(disc.minimum_order > 0).then(|| {
                                            let currency = d.packs.first().map(|(p, _)| p.currency.clone()).unwrap_or_default();
                                            format!(" · {}", i18n.tf("credits.discount_minimum", &[("amount", &money(&i18n, disc.minimum_order, &currency))]))
                                        })}
                                    </p>
                                })}
                                {d.code_error.as_ref().map(|e| view! { <p class="notice notice--error" role="alert" data-testid="code-error" data-code=e.code.as_str()>{i18n.error(e)}</p> })}
                                {if d.packs.is_empty() {
                                    view! { <p class="notice">{i18n.t("credits.empty")}</p> }.into_any()
                                } else {
                                    view! {
                                        <ul class="packs" data-testid="packs">
                                            {d.packs.into_iter().map(|(pack, quote)| {
                                                let href = crate::paths::checkout_with_code(pack.id, None, code.as_deref());
                                                view! { <OfferCard pack=pack quote=quote href=href/> }
                                            }).collect_view()}
                                        </ul>
                                    }.into_any()
                                }}
                                <form method="get" action="/credits" class="code-form" data-testid="code-form">
                                    <label for="discount-code">{i18n.t("credits.code_label")}</label>
                                    <div class="code-form__row">
                                        <input id="discount-code" name="code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" value=d.code.clone().unwrap_or_default()/>
                                        <button type="submit" class="btn btn--ghost">{i18n.t("credits.code_apply")}</button>
                                    </div>
                                    {d.code.as_ref().map(|_| view! { <a class="code-form__remove" href="/credits">{i18n.t("credits.code_remove")}</a> })}
                                </form>
                                <p class="credits__methods muted">
                                    {d.methods.iter().map(|m| method_label(&i18n, *m)).collect::<Vec<_>>().join(" · ")}
                                </p>
                                <p><a href="/transactions">{i18n.t("credits.transactions_link")}</a></p>
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </div>
    })
}

/// The payment-method blocks of the checkout page (an island): picking a method starts the
/// checkout at once and sends the browser to the provider.
#[island(lazy)]
fn CheckoutPicker(props_json: String, pack: i64, code: Option<String>, redirecting: String, errors: Vec<(String, String)>) -> impl IntoView {
    let (status, set_status) = signal(None::<(bool, String)>);
    let on_select = Callback::new(move |detail: String| {
        let Ok(event) = serde_json::from_str::<PaymentMethodSelected>(&detail) else { return };
        // One checkout at a time: a second click while the first is on its way starts nothing.
        if status.get_untracked().is_some_and(|(error, _)| !error) {
            return;
        }
        set_status.set(Some((false, redirecting.clone())));
        let (code, errors) = (code.clone(), errors.clone());
        leptos::task::spawn_local(async move {
            match start_checkout(pack, event.method.code().to_string(), code).await {
                Ok(url) => {
                    let _ = window().location().assign(&url);
                }
                Err(e) => {
                    let text = errors
                        .iter()
                        .find(|(k, _)| k == e.code.as_str())
                        .or_else(|| errors.iter().find(|(k, _)| k == "internal"))
                        .map(|(_, t)| t.clone())
                        .unwrap_or_default();
                    set_status.set(Some((true, text)));
                }
            }
        });
    });
    view! {
        <ReactWidget name="PaymentMethodBlocks" props=Signal::derive(move || props_json.clone()) event=PAYMENT_METHOD_SELECT_EVENT on_event=on_select class="widget--payment-methods"/>
        <div aria-live="polite" data-testid="checkout-status">
            {move || status.get().map(|(error, text)| view! { <p class=if error { "notice notice--error" } else { "notice" }>{text}</p> })}
        </div>
    }
}

#[component]
pub fn CheckoutPage() -> impl IntoView {
    let i18n = use_i18n();
    let params = use_params_map().get_untracked();
    let pack: i64 = params.get("id").and_then(|v| v.parse().ok()).unwrap_or(0);
    let chosen = params.get("method").and_then(|m| PaymentMethod::parse(&m));
    crate::features::account::member_or_login(&crate::paths::credits_pack(pack))?;
    let code = use_query_map().get_untracked().get("code").filter(|c| !c.trim().is_empty());
    let data = Resource::new_blocking(move || code.clone(), move |code| get_checkout_page(pack, code));
    let action = ServerAction::<StartCheckout>::new();
    Some(view! {
        <Title text=i18n.t("title.checkout")/>
        <div class="container container--narrow page checkout">
            <h1 class="page__title">{i18n.t("checkout.title")}</h1>
            <ActionError action=action/>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p><p><a href="/credits">{i18n.t("checkout.change_bundle")}</a></p> }.into_any(),
                        Ok(d) => {
                            let q = d.quote.clone();
                            let chosen = chosen.filter(|m| d.methods.contains(m));
                            let mut props = payment_blocks_props(&i18n, &d.country, chosen);
                            props.methods.retain(|o| d.methods.contains(&o.method));
                            let errors: Vec<(String, String)> = ["method_unavailable", "too_many_requests", "discount_used", "not_found", "internal"]
                                .into_iter()
                                .map(|k| (k.to_string(), i18n.error(&domain::ApiError::new(domain::ErrorCode::ALL.iter().copied().find(|c| c.as_str() == k).unwrap_or(domain::ErrorCode::Internal)))))
                                .collect();
                            let code = d.code.clone();
                            let (code_pay, code_picker, code_nojs) = (code.clone(), code.clone(), code.clone());
                            let pay_label = chosen.map(|m| i18n.tf("checkout.pay_with", &[("method", &method_label(&i18n, m))]));
                            let methods_title = if chosen.is_some() { i18n.t("checkout.other_methods") } else { i18n.t("payment.title") };
                            let nojs_buttons: Vec<(PaymentMethod, String)> = d.methods.iter().map(|m| (*m, i18n.tf("checkout.pay_with", &[("method", &method_label(&i18n, *m))]))).collect();
                            view! {
                                <section class="panel order" aria-labelledby="order-title" data-testid="order">
                                    <h2 id="order-title" class="order__bundle">{i18n.tf("checkout.bundle", &[("credits", &q.credits.to_string())])}</h2>
                                    <dl class="facts">
                                        {(q.amount < q.list_price).then(|| view! {
                                            <div><dt>{i18n.t("receipt.list_price")}</dt><dd><s>{money(&i18n, q.list_price, &q.currency)}</s></dd></div>
                                            <div><dt>{i18n.t("receipt.discount")}</dt><dd>{q.discount.as_ref().map(|disc| discount_line(&i18n, disc))}</dd></div>
                                        })}
                                        <div class="order__total"><dt>{i18n.t("checkout.total")}</dt><dd data-testid="order-total">{money(&i18n, q.amount, &q.currency)}</dd></div>
                                        <div><dt>{i18n.tf("receipt.vat", &[("rate", &format_rate(q.vat_rate_bp, i18n.decimal_comma()))])}</dt><dd>{money(&i18n, q.vat, &q.currency)}</dd></div>
                                    </dl>
                                    {chosen.zip(pay_label).map(|(m, label)| view! {
                                        <ActionForm action=action attr:class="order__pay">
                                            <input type="hidden" name="pack" value=q.pack_id/>
                                            <input type="hidden" name="method" value=m.code()/>
                                            {code_pay.map(|c| view! { <input type="hidden" name="code" value=c/> })}
                                            <button type="submit" class="btn btn--primary btn--block" data-testid="pay">{label}</button>
                                        </ActionForm>
                                    })}
                                </section>
                                <section class="checkout__methods" aria-labelledby="methods-title">
                                    <h2 id="methods-title" class="page__subtitle">{methods_title}</h2>
                                    <p class="muted">{i18n.t("checkout.choose_method")}</p>
                                    <CheckoutPicker props_json=serde_json::to_string(&props).unwrap_or_default() pack=q.pack_id code=code_picker redirecting=i18n.t("checkout.redirecting") errors=errors/>
                                    <noscript>
                                        <ActionForm action=action attr:class="method-buttons">
                                            <input type="hidden" name="pack" value=q.pack_id/>
                                            {code_nojs.map(|c| view! { <input type="hidden" name="code" value=c/> })}
                                            {nojs_buttons.into_iter().map(|(m, label)| view! {
                                                <button type="submit" name="method" value=m.code() class="btn btn--ghost">{label}</button>
                                            }).collect_view()}
                                        </ActionForm>
                                    </noscript>
                                    <p class="pricing__secure muted">{i18n.t("checkout.secure")}</p>
                                    <p><a href="/credits">{i18n.t("checkout.change_bundle")}</a></p>
                                </section>
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </div>
    })
}

#[component]
pub fn RepeatOrderPage() -> impl IntoView {
    let i18n = use_i18n();
    let member = crate::features::account::member_or_login("/credits/repeat-order")?;
    if !member.paid_user {
        #[cfg(feature = "ssr")]
        crate::call::redirect("/premium");
        return None;
    }
    let last = Resource::new_blocking(|| (), |_| get_last_order());
    let action = ServerAction::<RepeatOrder>::new();
    Some(view! {
        <Title text=i18n.t("title.repeat_order")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("repeat.title")}</h1>
            <p class="page__lead">{i18n.t("repeat.intro")}</p>
            <ActionError action=action/>
            <Suspense fallback=|| ()>
                {move || last.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Ok(Some(p)) => {
                            let label = i18n.tf("repeat.button", &[("credits", &p.credits.to_string()), ("method", &method_label(&i18n, p.method))]);
                            view! {
                                <section class="panel order" data-testid="repeat">
                                    <ActionForm action=action>
                                        <button type="submit" class="btn btn--primary btn--block" data-testid="repeat-order">{label}</button>
                                    </ActionForm>
                                </section>
                            }.into_any()
                        }
                        Ok(None) => view! { <p class="notice">{i18n.t("transactions.empty")}</p> }.into_any(),
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <p><a href="/credits">{i18n.t("repeat.other")}</a></p>
        </div>
    })
}

/// The payment-method blocks on `/premium`: picking a method opens the popular bundle's
/// checkout with that method.
#[island(lazy)]
fn MethodPicker(props_json: String, base: String) -> impl IntoView {
    let on_select = Callback::new(move |detail: String| {
        if let Ok(event) = serde_json::from_str::<PaymentMethodSelected>(&detail) {
            let _ = window().location().assign(&format!("{base}/{}", event.method.code()));
        }
    });
    view! { <ReactWidget name="PaymentMethodBlocks" props=Signal::derive(move || props_json.clone()) event=PAYMENT_METHOD_SELECT_EVENT on_event=on_select class="widget--payment-methods"/> }
}

#[component]
pub fn PremiumPage() -> impl IntoView {
    let i18n = use_i18n();
    let member = crate::features::account::member_or_login("/premium")?;
    let data = Resource::new_blocking(|| (), |_| get_credits_page(None));
    let benefits = ["premium.benefit_photos", "premium.benefit_chats", "premium.benefit_limits", "premium.benefit_match"];
    Some(view! {
        <Title text=i18n.t("title.premium")/>
        <div class="container page premium">
            <header class="page__header premium__hero">
                <h1 class="page__title">{i18n.t("premium.title")}</h1>
                <p class="page__lead">{i18n.t("premium.intro")}</p>
            </header>
            {member.paid_user.then(|| view! {
                <section class="notice notice--ok premium__member" data-testid="premium-member">
                    <p>{i18n.t("premium.already")}</p>
                    <a class="btn btn--primary btn--small" href="/credits/repeat-order">{i18n.t("premium.repeat_title")}</a>
                </section>
            })}
            <ul class="benefits">
                {benefits.into_iter().map(|k| view! { <li class="benefits__item"><crate::ui::icons::ShieldIcon/><span>{i18n.t(k)}</span></li> }).collect_view()}
            </ul>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                        Ok(d) => {
                            let popular = d.packs.iter().find(|(p, _)| p.highlighted).or(d.packs.first()).map(|(p, _)| p.id).unwrap_or(0);
                            let country = crate::context::use_page_ctx().country.clone();
                            let mut props = payment_blocks_props(&i18n, &country, None);
                            props.methods.retain(|o| d.methods.contains(&o.method));
                            view! {
                                {d.discount.as_ref().map(|disc| view! { <p class="notice notice--deal" role="status">{discount_line(&i18n, disc)}</p> })}
                                <h2 class="page__subtitle">{i18n.t("premium.packs_title")}</h2>
                                <ul class="packs" data-testid="packs">
                                    {d.packs.into_iter().map(|(pack, quote)| {
                                        let href = crate::paths::credits_pack(pack.id);
                                        view! { <OfferCard pack=pack quote=quote href=href/> }
                                    }).collect_view()}
                                </ul>
                                <section aria-labelledby="premium-methods">
                                    <h2 id="premium-methods" class="page__subtitle">{i18n.t("premium.methods_title")}</h2>
                                    <p class="muted">{i18n.t("premium.methods_hint")}</p>
                                    <MethodPicker props_json=serde_json::to_string(&props).unwrap_or_default() base=crate::paths::credits_pack(popular)/>
                                </section>
                            }.into_any()
                        }
                    }
                })}
            </Suspense>
        </div>
    })
}

fn status_label(i18n: &I18n, status: PaymentStatus) -> String {
    i18n.t(&format!("payment.status.{}", status.code()))
}

#[component]
pub fn TransactionsPage() -> impl IntoView {
    let i18n = use_i18n();
    crate::features::account::member_or_login("/transactions")?;
    let list = Resource::new_blocking(|| (), |_| get_transactions());
    Some(view! {
        <Title text=i18n.t("title.transactions")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("transactions.title")}</h1>
            <Suspense fallback=|| ()>
                {move || list.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Ok(list) if list.is_empty() => view! { <p class="notice">{i18n.t("transactions.empty")}</p><p><a class="btn btn--primary" href="/credits">{i18n.t("transactions.buy")}</a></p> }.into_any(),
                        Ok(list) => view! {
                            <div class="table-scroll">
                                <table class="transactions" data-testid="transactions">
                                    <thead><tr>
                                        <th scope="col">{i18n.t("transactions.col_date")}</th>
                                        <th scope="col">{i18n.t("transactions.col_bundle")}</th>
                                        <th scope="col">{i18n.t("transactions.col_amount")}</th>
                                        <th scope="col">{i18n.t("transactions.col_method")}</th>
                                        <th scope="col">{i18n.t("transactions.col_status")}</th>
                                    </tr></thead>
                                    <tbody>
                                        {list.into_iter().map(|p| view! {
                                            // `data-label` names each cell where phones show the rows as cards.
                                            <tr>
                                                <td data-label=i18n.t("transactions.col_date")>{i18n.date(p.created_at)}</td>
                                                <td data-label=i18n.t("transactions.col_bundle")><a href=crate::paths::transaction(p.id)>{i18n.tf("checkout.bundle", &[("credits", &p.credits.to_string())])}</a></td>
                                                <td data-label=i18n.t("transactions.col_amount")>{money(&i18n, p.amount, &p.currency)}</td>
                                                <td data-label=i18n.t("transactions.col_method")>{method_label(&i18n, p.method)}</td>
                                                <td data-label=i18n.t("transactions.col_status")>
                                                    <span class=format!("status status--{}", p.status.code())>{status_label(&i18n, p.status)}</span>
                                                    {(p.refunded > 0 && p.status == PaymentStatus::Paid).then(|| view! { " "<span class="muted" data-testid="refunded">{i18n.tf("transactions.refunded", &[("amount", &money(&i18n, p.refunded, &p.currency))])}</span> })}
                                                </td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any(),
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    })
}

/// Asks for an open payment's status every 2 seconds and reloads the page once it changed.
#[island(lazy)]
fn PaymentWatcher(id: i64, status: String) -> impl IntoView {
    #[cfg(feature = "hydrate")]
    {
        let busy = StoredValue::new(false);
        if let Ok(handle) = set_interval_with_handle(
            move || {
                if busy.get_value() {
                    return;
                }
                busy.set_value(true);
                let status = status.clone();
                leptos::task::spawn_local(async move {
                    if let Ok(d) = get_transaction(id).await {
                        if d.payment.status.code() != status {
                            let _ = window().location().reload();
                        }
                    }
                    busy.set_value(false);
                });
            },
            std::time::Duration::from_secs(2),
        ) {
            on_cleanup(move || handle.clear());
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (id, status);
}

#[component]
fn TransactionResult(d: TransactionData) -> impl IntoView {
    let i18n = use_i18n();
    let p: PaymentSummary = d.payment;
    let summary = i18n.tf(
        "transaction.summary",
        &[("credits", &p.credits.to_string()), ("amount", &money(&i18n, p.amount, &p.currency)), ("method", &method_label(&i18n, p.method))],
    );
    let order = i18n.tf("transaction.order", &[("id", &p.id.to_string())]);
    let body = match p.status {
        PaymentStatus::Open | PaymentStatus::Pending => view! {
            // Following the payment: the island asks every 2 s and reloads when it settles;
            // without JavaScript the page refreshes itself.
            <PaymentWatcher id=p.id status=p.status.code().to_string()/>
            <noscript><meta http-equiv="refresh" content="3"/></noscript>
            <div class="result result--pending" role="status" data-testid="result" data-status=p.status.code()>
                <span class="result__spinner" aria-hidden="true"></span>
                <h1 class="page__title">{i18n.t("transaction.pending_title")}</h1>
                <p>{i18n.t("transaction.pending_body")}</p>
                <p class="result__actions">
                    {(p.status == PaymentStatus::Open).then(|| p.checkout_url.clone()).flatten().map(|url| view! { <a class="btn btn--primary" href=url>{i18n.t("transaction.continue")}</a> })}
                    <a class="btn btn--ghost" href=crate::paths::transaction(p.id)>{i18n.t("transaction.refresh")}</a>
                </p>
            </div>
        }
        .into_any(),
        PaymentStatus::Paid => view! {
            <div class="result result--paid" role="status" data-testid="result" data-status="paid">
                <span class="result__icon" aria-hidden="true">"✓"</span>
                <h1 class="page__title">{i18n.t("transaction.paid_title")}</h1>
                <p data-testid="paid-body">{i18n.tf("transaction.paid_body", &[("credits", &p.credits.to_string()), ("balance", &d.balance.to_string())])}</p>
                {(p.refunded > 0).then(|| view! { <p data-testid="partly-refunded">{i18n.tf("transaction.partly_refunded", &[("amount", &money(&i18n, p.refunded, &p.currency))])}</p> })}
                {d.first_paid.then(|| view! { <p data-testid="now-premium">{i18n.t("transaction.premium")}</p> })}
                <p class="muted">{i18n.t("transaction.receipt_note")}" "
                    <a href=crate::paths::receipt_pdf(p.id) download="" data-testid="receipt-pdf">{i18n.t("transaction.receipt_pdf")}</a>
                </p>
                <p class="result__actions">
                    <a class="btn btn--primary" href="/members">{i18n.t("transaction.to_members")}</a>
                    <a class="btn btn--ghost" href="/chats">{i18n.t("transaction.to_chats")}</a>
                </p>
            </div>
        }
        .into_any(),
        PaymentStatus::Reversed | PaymentStatus::Refunded | PaymentStatus::ChargedBack => {
            let body = match p.status {
                PaymentStatus::Refunded => i18n.tf("transaction.refunded", &[("amount", &money(&i18n, p.refunded, &p.currency))]),
                PaymentStatus::ChargedBack => i18n.t("transaction.charged_back"),
                _ => i18n.t("transaction.reversed"),
            };
            view! {
                <div class="result result--failed" role="status" data-testid="result" data-status=p.status.code()>
                    <h1 class="page__title">{status_label(&i18n, p.status)}</h1>
                    <p>{body}</p>
                </div>
            }
            .into_any()
        }
        _ => {
            let card = p.method.group() == PaymentGroup::Card;
            let paypal = card && p.method != PaymentMethod::Paypal && d.methods.contains(&PaymentMethod::Paypal);
            view! {
                <div class="result result--failed" role="alert" data-testid="result" data-status=p.status.code()>
                    <span class="result__icon" aria-hidden="true">"!"</span>
                    <h1 class="page__title">{i18n.t("error.payment_failed")}</h1>
                    <p>{i18n.t("error.payment_failed_body")}</p>
                    <p class="result__actions">
                        <a class="btn btn--primary" href=crate::paths::checkout(p.pack_id, p.method) data-testid="retry">{i18n.t("transaction.retry")}</a>
                        {paypal.then(|| view! { <a class="btn btn--ghost" href=crate::paths::checkout(p.pack_id, PaymentMethod::Paypal) data-testid="paypal">{i18n.t("transaction.paypal")}</a> })}
                        <a class="btn btn--ghost" href=crate::paths::credits_pack(p.pack_id)>{i18n.t("transaction.other_method")}</a>
                    </p>
                </div>
            }
            .into_any()
        }
    };
    view! {
        {body}
        <p class="result__summary muted"><span>{order}</span>" · "<span>{summary}</span>" · "<span>{status_label(&i18n, p.status)}</span></p>
        <p><a href="/transactions">{i18n.t("credits.transactions_link")}</a></p>
    }
}

#[component]
pub fn TransactionPage() -> impl IntoView {
    let i18n = use_i18n();
    let id: i64 = use_params_map().get_untracked().get("id").and_then(|v| v.parse().ok()).unwrap_or(0);
    crate::features::account::member_or_login(&crate::paths::transaction(id))?;
    let data = Resource::new_blocking(|| (), move |_| get_transaction(id));
    Some(view! {
        <Title text=i18n.t("title.transaction")/>
        <div class="container container--narrow page transaction">
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| match result {
                    Ok(d) => view! { <TransactionResult d=d/> }.into_any(),
                    Err(e) => {
                        #[cfg(feature = "ssr")]
                        if e.code == domain::ErrorCode::NotFound {
                            if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
                                res.set_status(http::StatusCode::NOT_FOUND);
                            }
                        }
                        view! { <p class="notice notice--error" role="alert" data-testid="transaction-error">{use_i18n().error(&e)}</p> }.into_any()
                    }
                })}
            </Suspense>
        </div>
    })
}

#[component]
pub fn DirectDebitPage() -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let pack: Option<i64> = query.get("pack").and_then(|v| v.parse().ok());
    crate::features::account::member_or_login(&crate::paths::direct_debit(pack, None, None))?;
    let order: Option<i64> = query.get("order").and_then(|v| v.parse().ok());
    let code = query.get("code").filter(|c| !c.trim().is_empty());
    let (kept_iban, kept_phone) = (query.get("iban").unwrap_or_default(), query.get("phone").unwrap_or_default());
    let Some(pack) = pack else {
        return Some(
            view! {
                <Title text=i18n.t("title.directdebit")/>
                <div class="container container--narrow page">
                    <h1 class="page__title">{i18n.t("directdebit.title")}</h1>
                    <p class="notice">{i18n.t("directdebit.choose_bundle")}</p>
                    <p><a class="btn btn--primary" href="/credits">{i18n.t("transactions.buy")}</a></p>
                </div>
            }
            .into_any(),
        );
    };
    let data = Resource::new_blocking(move || code.clone(), move |code| get_direct_debit_page(pack, order, code));
    let (start, confirm) = (ServerAction::<StartDirectDebit>::new(), ServerAction::<ConfirmDirectDebit>::new());
    Some(view! {
        <Title text=i18n.t("title.directdebit")/>
        <div class="container container--narrow page directdebit">
            <h1 class="page__title">{i18n.t("directdebit.title")}</h1>
            <Suspense fallback=|| ()>
                {move || { let (kept_iban, kept_phone) = (kept_iban.clone(), kept_phone.clone()); data.get().map(move |result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                        Ok(d) => {
                            let q = d.quote.clone();
                            let amount = money(&i18n, q.amount, &q.currency);
                            let summary = view! {
                                <p class="order__line" data-testid="order">
                                    <strong>{i18n.tf("checkout.bundle", &[("credits", &q.credits.to_string())])}</strong>" · "{amount.clone()}
                                    {q.discount.as_ref().map(|disc| format!(" · {}", discount_line(&i18n, disc)))}
                                </p>
                            };
                            match d.pending.clone() {
                                None => view! {
                                    {summary}
                                    <p class="muted">{i18n.t("directdebit.intro")}</p>
                                    <ActionError action=start/>
                                    <ActionForm action=start attr:class="form panel" attr:data-testid="directdebit-form">
                                        <input type="hidden" name="pack" value=pack/>
                                        {d.code.clone().map(|c| view! { <input type="hidden" name="code" value=c/> })}
                                        <div class="field">
                                            <label for="dd-iban">{i18n.t("directdebit.iban")}</label>
                                            <input id="dd-iban" name="iban" type="text" required autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="42" value=kept_iban.clone() aria-describedby="dd-iban-hint"/>
                                            <p id="dd-iban-hint" class="field__hint">{i18n.t("directdebit.iban_hint")}</p>
                                        </div>
                                        <div class="field">
                                            <label for="dd-phone">{i18n.t("directdebit.phone")}</label>
                                            <input id="dd-phone" name="phone" type="tel" required autocomplete="tel" maxlength="24" value=kept_phone.clone() aria-describedby="dd-phone-hint"/>
                                            <p id="dd-phone-hint" class="field__hint">{i18n.t("directdebit.phone_hint")}</p>
                                        </div>
                                        <button type="submit" class="btn btn--primary btn--block">{i18n.t("directdebit.send_code")}</button>
                                    </ActionForm>
                                }.into_any(),
                                Some(p) => { let new_code = i18n.t("directdebit.new_code"); view! {
                                    {summary}
                                    <p class="notice" role="status" data-testid="code-sent">{i18n.tf("directdebit.code_sent", &[("phone", &p.phone)])}</p>
                                    <ActionError action=confirm/>
                                    <ActionForm action=confirm attr:class="form panel" attr:data-testid="directdebit-confirm">
                                        <input type="hidden" name="pack" value=pack/>
                                        <input type="hidden" name="order" value=p.id/>
                                        <div class="field">
                                            <label for="dd-code">{i18n.t("directdebit.code")}</label>
                                            <input id="dd-code" name="sms_code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="7" class="input--code"/>
                                        </div>
                                        <p class="muted">{i18n.tf("directdebit.mandate", &[("company", &d.company), ("amount", &amount), ("iban", &p.iban)])}</p>
                                        <button type="submit" class="btn btn--primary btn--block">{i18n.t("directdebit.confirm")}</button>
                                    </ActionForm>
                                    <p><a href=crate::paths::direct_debit(Some(pack), None, None)>{new_code}</a></p>
                                }.into_any() }
                            }
                        }
                    }
                })}}
            </Suspense>
            <p><a href=crate::paths::credits_pack(pack)>{i18n.t("checkout.other_methods")}</a></p>
        </div>
    }
    .into_any())
}

#[component]
pub fn TestCheckoutPage() -> impl IntoView {
    test_checkout_page()
}

/// The page, or nothing for a visitor (sent to log in first).
fn test_checkout_page() -> Option<AnyView> {
    let i18n = use_i18n();
    let id = use_params_map().get_untracked().get("id").unwrap_or_default();
    // The buyer's own page: a visitor logs in first (the address alone opens nothing).
    crate::features::account::member_or_login(&crate::paths::test_checkout(&id))?;
    let data = Resource::new_blocking(move || id.clone(), get_test_checkout);
    let action = ServerAction::<TestCheckoutOutcome>::new();
    Some(view! {
        <Title text=i18n.t("title.test_checkout")/>
        <div class="container container--narrow page testpay">
            <h1 class="page__title">{i18n.t("testpay.title")}</h1>
            <p class="notice notice--warning" role="note">{i18n.t("testpay.notice")}</p>
            <Suspense fallback=|| ()>
                {move || data.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Err(e) => {
                            #[cfg(feature = "ssr")]
                            if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
                                response.set_status(http::StatusCode::from_u16(e.code.http_status()).unwrap_or(http::StatusCode::NOT_FOUND));
                            }
                            view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any()
                        }
                        Ok(t) => view! {
                            <section class="panel">
                                <p class="testpay__description">{t.description.clone()}</p>
                                <dl class="facts">
                                    <div><dt>{i18n.t("testpay.amount")}</dt><dd data-testid="testpay-amount">{money(&i18n, t.amount, &t.currency)}</dd></div>
                                    {t.method.map(|m| view! { <div><dt>{i18n.t("testpay.method")}</dt><dd>{method_label(&i18n, m)}</dd></div> })}
                                </dl>
                                {if t.open {
                                    view! {
                                        <h2 class="page__subtitle">{i18n.t("testpay.choose")}</h2>
                                        <ActionForm action=action attr:class="testpay__outcomes">
                                            <input type="hidden" name="id" value=t.id.clone()/>
                                            <button type="submit" name="outcome" value="paid" class="btn btn--primary">{i18n.t("testpay.paid")}</button>
                                            <button type="submit" name="outcome" value="failed" class="btn btn--ghost">{i18n.t("testpay.failed")}</button>
                                            <button type="submit" name="outcome" value="canceled" class="btn btn--ghost">{i18n.t("testpay.canceled")}</button>
                                            <button type="submit" name="outcome" value="expired" class="btn btn--ghost">{i18n.t("testpay.expired")}</button>
                                            <button type="submit" name="outcome" value="pending" class="btn btn--ghost">{i18n.t("testpay.pending")}</button>
                                        </ActionForm>
                                    }.into_any()
                                } else {
                                    view! { <p class="notice">{i18n.t("testpay.done")}</p><p><a class="btn btn--primary" href=t.back.clone()>{i18n.t("testpay.back")}</a></p> }.into_any()
                                }}
                            </section>
                        }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
    .into_any())
}
