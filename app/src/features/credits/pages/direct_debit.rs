//! `/directdebit`: IBAN and phone, then the texted code.

use super::*;

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
                                    <strong>{i18n.plural("checkout.bundle", q.credits, &[])}</strong>" · "{amount.clone()}
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
