//! `/premium`: what premium brings, and a method picked there opens the popular bundle.

use super::*;

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
