//! `/credits`: the bundles with their prices now, and the code field.

use super::*;

/// One bundle as a card: the price now, the list price struck through when discounted.
#[component]
pub(super) fn OfferCard(pack: CreditPack, quote: Quote, href: String) -> impl IntoView {
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
                <span class="pack__credits">{i18n.plural("credits.pack_credits", pack.credits, &[])}</span>
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
                                <p class="credits__balance" data-testid="balance">{i18n.plural("credits.balance", d.balance, &[])}</p>
                                {d.discount.as_ref().map(|disc| view! {
                                    <p class="notice notice--deal" role="status" data-testid="discount">{offer_line(&i18n, disc, &d.offers, d.now)}
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
