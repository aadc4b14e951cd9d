//! The test provider's checkout page, where the buyer picks the outcome.

use super::*;

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
                        Err(e) => view! { <crate::ui::forms::RefusedNotice error=e/> }.into_any(),
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
