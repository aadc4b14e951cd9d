//! `/credits/{id}/{method?}`: a bundle and its payment-method blocks.

use super::*;

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
                            let errors: Vec<(String, String)> = ["method_unavailable", "too_many_requests", "discount_used", "not_found", "address_not_confirmed", "payments_blocked", "age_check_required", "payment_review", "internal"]
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
                                    <h2 id="order-title" class="order__bundle">{i18n.plural("checkout.bundle", q.credits, &[])}</h2>
                                    <dl class="facts">
                                        {(q.amount < q.list_price).then(|| view! {
                                            <div><dt>{i18n.t("receipt.list_price")}</dt><dd><s>{money(&i18n, q.list_price, &q.currency)}</s></dd></div>
                                            <div><dt>{i18n.t("receipt.discount")}</dt><dd>{q.discount.as_ref().map(|disc| offer_line(&i18n, disc, &d.offers, d.now))}</dd></div>
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
