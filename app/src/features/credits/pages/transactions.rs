//! `/transactions`: the member's payments.

use super::*;

pub(super) fn status_label(i18n: &I18n, status: PaymentStatus) -> String {
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
                                                <td data-label=i18n.t("transactions.col_bundle")><a href=crate::paths::transaction(p.id)>{i18n.plural("checkout.bundle", p.credits, &[])}</a></td>
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
