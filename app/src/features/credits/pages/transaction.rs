//! `/transactions/{id}`: one payment's result, watched until it settles.

use super::*;

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
    let summary =
        i18n.plural("transaction.summary", p.credits, &[("amount", &money(&i18n, p.amount, &p.currency)), ("method", &method_label(&i18n, p.method))]);
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
                <p data-testid="paid-body">{i18n.plural("transaction.paid_body", p.credits, &[("balance", &i18n.plural("transaction.paid_balance", d.balance, &[]))])}</p>
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
