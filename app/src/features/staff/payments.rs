//! `/staff/payments`: staff find payments (member, id, status, method, dates), open one to see
//! its timeline and refund it (whole or in part; a chargeback's block lifted there too), and read the sales report per month or quarter for the VAT return (per
//! country, VAT rate and currency; what was taken back subtracted), also as CSV at
//! `/staff/payments/sales.csv?period=…` (`server::http::staff_routes`). The searches are plain
//! GET forms: the page works without JavaScript and a search can be bookmarked.

use domain::checkout::PaymentStatus;
use domain::payment::{PaymentMethod, StaffPayment};
use domain::sales::ReportRow;
use domain::ApiError;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, redirect, staff_call};
use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::{use_i18n, I18n};
use crate::ui::forms::{ActionError, TextArea};
use crate::ui::money::MoneyField;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimelineView {
    pub at: i64,
    pub kind: String,
    pub credits: i64,
    pub amount: i64,
    pub spent: i64,
    pub note: String,
}

/// The payment staff opened: its timeline and what can be done with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenPayment {
    pub payment: StaffPayment,
    pub timeline: Vec<TimelineView>,
    /// What is left to refund (0: nothing can be refunded).
    pub left: i64,
    /// Whether the site's refund period still runs (after it a reason is needed), and its days.
    pub in_period: bool,
    pub refund_days: i64,
    /// A chargeback blocked the member's card and direct-debit payments.
    pub member_blocked: bool,
    /// The refund form's idempotency key: sending the same form again is the same refund.
    pub key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaymentsPage {
    pub found: Vec<StaffPayment>,
    pub open: Option<OpenPayment>,
    /// The report's period and the periods to choose from (this month back a year, this quarter back two years).
    pub period: String,
    pub periods: Vec<String>,
    pub sales: Vec<ReportRow>,
}

/// A date typed as `YYYY-MM-DD` as unix seconds at its start (None when empty or not a date).
#[cfg(feature = "ssr")]
fn day_start(text: &str) -> Option<i64> {
    let day = domain::account::Ymd::parse(text.trim())?;
    Some(domain::date::to_unix(i64::from(day.year), day.month, day.day, 0, 0))
}

/// Everything on the page for one query; staff only (others get `not_found`). Unknown
/// statuses, methods, dates and periods are ignored rather than refused: a search never fails.
#[server(prefix = "/api/fn", endpoint = "staff_payments", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_payments(
    member: String,
    payment: String,
    status: String,
    method: String,
    from: String,
    to: String,
    id: Option<i64>,
    period: String,
) -> Result<PaymentsPage, ApiError> {
    use server::payments::staff::PaymentFilter;
    let (c, me) = staff_call(StaffArea::Payments).await?;
    let site = c.site.settings.id;
    let payments = &c.state.payments;
    let filter = PaymentFilter {
        member: Some(member).filter(|m| !m.trim().is_empty()),
        payment: payment.trim().trim_start_matches('#').parse().ok(),
        status: PaymentStatus::parse(&status),
        method: PaymentMethod::parse(&method),
        from: day_start(&from),
        until: day_start(&to).map(|start| start + 86_400),
    };
    let found = payments.staff_find(&me, site, &filter).await.map_err(fail)?;
    let open = match id {
        Some(id) => match payments.staff_payment(&me, site, id).await.map_err(fail)? {
            Some((payment, timeline)) => {
                let refundable = domain::refund::Refundable {
                    status: PaymentStatus::parse(&payment.status).unwrap_or(PaymentStatus::Failed),
                    amount: payment.amount,
                    refunded: payment.refunded,
                    paid_at: payment.paid_at.unwrap_or(0),
                };
                let refund_days = c.site.settings.refund_days;
                let left = if refundable.status == PaymentStatus::Paid { refundable.left() } else { 0 };
                Some(OpenPayment {
                    member_blocked: payments.payments_blocked(payment.member_id).await.map_err(fail)?,
                    timeline: timeline
                        .into_iter()
                        .map(|e| TimelineView { at: e.at, kind: e.kind.to_string(), credits: e.credits, amount: e.amount, spent: e.spent, note: e.note })
                        .collect(),
                    payment,
                    left,
                    in_period: refundable.in_period(c.now(), refund_days),
                    refund_days,
                    key: server::accounts::tokens::new_token(),
                })
            }
            None => None,
        },
        None => None,
    };
    use domain::sales::Period;
    let this_month = Period::month_of(c.now());
    let period = Period::parse(&period).unwrap_or(this_month);
    let mut periods = Vec::new();
    let mut month = this_month;
    for _ in 0..12 {
        periods.push(month.code());
        month = month.previous();
    }
    let mut quarter = match this_month {
        Period::Month { year, month } => Period::Quarter { year, quarter: (month - 1) / 3 + 1 },
        q => q,
    };
    for _ in 0..8 {
        periods.push(quarter.code());
        quarter = quarter.previous();
    }
    let sales = payments.sales_report(&me, site, period).await.map_err(fail)?;
    Ok(PaymentsPage { found, open, period: period.code(), periods, sales })
}

/// Staff refund a payment: `amount` as typed (`12,50`; empty: all that is left), a reason
/// (needed after the refund period), and the form's idempotency key. Answers on the payment's
/// page with what happened.
#[server(prefix = "/api/fn", endpoint = "staff_refund_payment")]
pub async fn staff_refund_payment(payment: i64, amount: String, reason: String, key: String) -> Result<(), ApiError> {
    let (c, me) = staff_call(StaffArea::Refunds).await?;
    let page = format!("/staff/payments?id={payment}");
    let id = payment.to_string();
    let kept = [("id", id.as_str())];
    let amount = match domain::refund::parse_amount(&amount) {
        Ok(amount) => amount,
        Err(error) => return Err(fail_back::<StaffRefundPayment>(error, &page, &kept)),
    };
    match c.state.payments.refund(&me, c.site.settings.id, payment, amount, &reason, &key, c.now()).await {
        Ok(done) => {
            let state = done.state.code();
            redirect(&format!("{page}&refund={state}&amount={}&taken={}&spent={}#payment", done.amount, done.credits.taken, done.credits.spent));
            Ok(())
        }
        Err(error) => Err(fail_back::<StaffRefundPayment>(error, &page, &kept)),
    }
}

/// Staff lift the block a chargeback put on a member's card and direct-debit payments.
#[server(prefix = "/api/fn", endpoint = "staff_lift_payment_block")]
pub async fn staff_lift_payment_block(member: i64, payment: i64) -> Result<(), ApiError> {
    let (c, me) = staff_call(StaffArea::Refunds).await?;
    let page = format!("/staff/payments?id={payment}");
    match c.state.payments.lift_payment_block(&me, c.site.settings.id, member, c.now()).await {
        Ok(_) => {
            redirect(&format!("{page}&lifted=1#payment"));
            Ok(())
        }
        Err(error) => Err(fail_back::<StaffLiftPaymentBlock>(error, &page, &[])),
    }
}

fn money(i18n: &I18n, minor: i64, currency: &str) -> String {
    domain::site::format_money(minor, currency, i18n.decimal_comma())
}

fn method_label(i18n: &I18n, code: &str) -> String {
    match PaymentMethod::parse(code) {
        Some(m) => m.label_key().map(|k| i18n.t(k)).unwrap_or_else(|| m.brand_name().to_string()),
        None => code.to_string(),
    }
}

/// The search form; its fields keep what was searched.
#[component]
fn SearchForm(query: leptos_router::params::ParamsMap) -> impl IntoView {
    let i18n = use_i18n();
    let get = |k: &str| query.get(k).unwrap_or_default();
    let (status, method) = (get("status"), get("method"));
    view! {
        <form method="get" action="/staff/payments" class="form staff-payments__search" role="search" data-testid="payments-search">
            <label class="field"><span class="field__label">{i18n.t("staff.payments.member")}</span><input type="text" name="member" value=get("member") maxlength="254"/></label>
            <label class="field"><span class="field__label">{i18n.t("staff.payments.id")}</span><input type="text" name="payment" inputmode="numeric" value=get("payment") maxlength="20"/></label>
            <label class="field"><span class="field__label">{i18n.t("staff.payments.status")}</span>
                <select name="status">
                    <option value="">{i18n.t("staff.payments.any")}</option>
                    {PaymentStatus::ALL.into_iter().map(|s| view! { <option value=s.code() selected=status == s.code()>{use_i18n().t(&format!("payment.status.{}", s.code()))}</option> }).collect_view()}
                </select>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.payments.method")}</span>
                <select name="method">
                    <option value="">{i18n.t("staff.payments.any")}</option>
                    {PaymentMethod::ALL.into_iter().map(|m| view! { <option value=m.code() selected=method == m.code()>{method_label(&use_i18n(), m.code())}</option> }).collect_view()}
                </select>
            </label>
            <label class="field"><span class="field__label">{i18n.t("staff.payments.from")}</span><input type="date" name="from" value=get("from")/></label>
            <label class="field"><span class="field__label">{i18n.t("staff.payments.to")}</span><input type="date" name="to" value=get("to")/></label>
            <input type="hidden" name="period" value=get("period")/>
            <button type="submit" class="btn btn--primary">{i18n.t("staff.payments.search")}</button>
        </form>
    }
}

#[component]
fn Found(found: Vec<StaffPayment>, link: String) -> impl IntoView {
    let i18n = use_i18n();
    if found.is_empty() {
        return view! { <p class="notice" data-testid="payments-none">{i18n.t("staff.payments.none")}</p> }.into_any();
    }
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label=i18n.t("staff.payments.title")>
            <table class="staff-log" data-testid="payments-found">
                <thead><tr>
                    <th scope="col">{i18n.t("staff.payments.id")}</th>
                    <th scope="col">{i18n.t("staff.payments.date")}</th>
                    <th scope="col">{i18n.t("staff.payments.who")}</th>
                    <th scope="col">{i18n.t("staff.payments.amount")}</th>
                    <th scope="col">{i18n.t("staff.payments.method")}</th>
                    <th scope="col">{i18n.t("staff.payments.status")}</th>
                </tr></thead>
                <tbody>
                    {found.into_iter().map(|p| {
                        let i18n = use_i18n();
                        view! {
                            <tr data-testid="payment-row">
                                <td><a href=format!("{link}id={}#payment", p.id)>{format!("#{}", p.id)}</a></td>
                                <td>{i18n.date(p.created_at)}</td>
                                <td><a href=crate::paths::member(p.member_id)>{p.member_name}</a>" "<span class="muted">{p.email}</span></td>
                                <td>{money(&i18n, p.amount, &p.currency)}" · "{i18n.plural("staff.payments.credits", p.credits, &[])}</td>
                                <td>{method_label(&i18n, &p.method)}</td>
                                <td>{i18n.t(&format!("payment.status.{}", p.status))}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}

/// The timeline steps whose labels count credits (counted texts `staff.payments.event.{kind}#…`).
const COUNTED_EVENTS: [&str; 5] = ["booked", "credits_back", "refund", "provider_refund", "chargeback"];

/// One step of the timeline as a line of text.
fn event_label(i18n: &I18n, e: &TimelineView, currency: &str) -> String {
    let amount = money(i18n, e.amount, currency);
    let key = format!("staff.payments.event.{}", e.kind);
    // The steps that move credits say how many, in the form that number takes.
    let mut label = if COUNTED_EVENTS.contains(&e.kind.as_str()) {
        i18n.plural(&key, e.credits.abs(), &[("amount", &amount)])
    } else {
        i18n.tf(&key, &[("amount", &amount)])
    };
    if e.spent > 0 {
        label = format!("{label} {}", i18n.plural("staff.payments.spent", e.spent, &[]));
    }
    label
}

/// What the last refund or lift did (from the query the form answered with).
fn result_notice(i18n: &I18n, query: &leptos_router::params::ParamsMap, currency: &str) -> Option<String> {
    let number = |k: &str| query.get(k).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
    if query.get("lifted").is_some() {
        return Some(i18n.t("staff.refund.lifted"));
    }
    let amount = money(i18n, number("amount"), currency);
    match query.get("refund").as_deref() {
        Some("done") => {
            let mut text = i18n.plural("staff.refund.done", number("taken"), &[("amount", &amount)]);
            if number("spent") > 0 {
                text = format!("{text} {}", i18n.plural("staff.payments.spent", number("spent"), &[]));
            }
            Some(text)
        }
        Some("requested") => Some(i18n.tf("staff.refund.pending", &[("amount", &amount)])),
        _ => None,
    }
}

#[component]
fn Timeline(open: OpenPayment, query: leptos_router::params::ParamsMap) -> impl IntoView {
    let i18n = use_i18n();
    let OpenPayment { payment, timeline, left, in_period, refund_days, member_blocked, key } = open;
    let title = i18n.tf("staff.payments.payment", &[("id", &payment.id.to_string())]);
    let summary = format!(
        "{} · {} · {} · {} ({}) · {}",
        money(&i18n, payment.amount, &payment.currency),
        i18n.plural("staff.payments.credits", payment.credits, &[]),
        method_label(&i18n, &payment.method),
        i18n.t(&format!("country.{}", payment.country)),
        domain::checkout::format_rate(payment.vat_rate_bp, i18n.decimal_comma()),
        i18n.t(&format!("payment.status.{}", payment.status)),
    );
    let notice = result_notice(&i18n, &query, &payment.currency);
    let currency = payment.currency.clone();
    let refund_form = (left > 0).then(|| {
        let i18n = use_i18n();
        let reason_hint = if in_period { i18n.plural("staff.refund.reason_optional", refund_days, &[]) } else { i18n.plural("staff.refund.reason_needed", refund_days, &[]) };
        view! {
            <ActionForm action={ServerAction::<StaffRefundPayment>::new()} attr:class="form refund-form" attr:data-testid="refund-form">
                <h3>{i18n.t("staff.refund.title")}</h3>
                <p class="muted">{i18n.tf("staff.refund.left", &[("amount", &money(&i18n, left, &currency))])}</p>
                <input type="hidden" name="payment" value=payment.id.to_string()/>
                <input type="hidden" name="key" value=key/>
                <MoneyField
                    name="amount".to_string()
                    label=i18n.t("staff.refund.amount")
                    value=String::new()
                    placeholder=domain::site::format_money(left, &currency, i18n.decimal_comma())
                    required=false
                    invalid=i18n.t("validation.amount_invalid")
                    hint=i18n.t("staff.refund.amount_hint")
                />
                <label class="field">
                    <span class="field__label">{i18n.t("staff.refund.reason")}</span>
                    <TextArea attr:name="reason" attr:rows="2" attr:maxlength=domain::refund::REFUND_REASON_MAX.to_string() attr:required=!in_period attr:aria-describedby="refund-reason-hint"/>
                    <span class="field__hint" id="refund-reason-hint">{reason_hint}</span>
                </label>
                <button type="submit" class="btn btn--primary" data-testid="refund">{i18n.t("staff.refund.submit")}</button>
            </ActionForm>
        }
    });
    let lift = member_blocked.then(|| {
        let i18n = use_i18n();
        view! {
            <div class="notice notice--error refund-block" data-testid="payments-blocked">
                <p>{i18n.t("staff.refund.blocked")}</p>
                <ActionForm action={ServerAction::<StaffLiftPaymentBlock>::new()}>
                    <input type="hidden" name="member" value=payment.member_id.to_string()/>
                    <input type="hidden" name="payment" value=payment.id.to_string()/>
                    <button type="submit" class="btn btn--ghost btn--small" data-testid="lift-block">{i18n.t("staff.refund.lift")}</button>
                </ActionForm>
            </div>
        }
    });
    let currency = payment.currency.clone();
    view! {
        <section class="card" id="payment" aria-labelledby="payment-title" data-testid="payment-timeline">
            <h2 id="payment-title">{title}</h2>
            {notice.map(|text| view! { <p class="notice notice--ok" role="status" data-testid="refund-result">{text}</p> })}
            <ActionError action={ServerAction::<StaffRefundPayment>::new()}/>
            <ActionError action={ServerAction::<StaffLiftPaymentBlock>::new()}/>
            <p><a href=crate::paths::member(payment.member_id)>{payment.member_name.clone()}</a>" · "{payment.email.clone()}</p>
            <p class="muted">{summary}</p>
            <ol class="timeline" data-testid="timeline">
                {timeline.into_iter().map(|e| {
                    let i18n = use_i18n();
                    let label = event_label(&i18n, &e, &currency);
                    let note = (!e.note.is_empty()).then(|| view! { <q class="muted">{e.note.clone()}</q> });
                    view! { <li><span class="muted">{i18n.date(e.at)}</span>" "{label}" "{note}</li> }
                }).collect_view()}
            </ol>
            {lift}
            {refund_form}
        </section>
    }
}

#[component]
fn SalesReport(period: String, periods: Vec<String>, rows: Vec<ReportRow>, query: leptos_router::params::ParamsMap) -> impl IntoView {
    let i18n = use_i18n();
    let keep: Vec<(String, String)> = ["member", "payment", "status", "method", "from", "to"]
        .into_iter()
        .filter_map(|k| query.get(k).filter(|v| !v.is_empty()).map(|v| (k.to_string(), v)))
        .collect();
    let csv = format!("/staff/payments/sales.csv?period={period}");
    let table = if rows.is_empty() {
        view! { <p class="notice" data-testid="sales-none">{i18n.t("staff.payments.no_sales")}</p> }.into_any()
    } else {
        view! {
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="sales-title">
                <table class="staff-log" data-testid="sales-report">
                    <thead><tr>
                        <th scope="col">{i18n.t("staff.payments.country")}</th>
                        <th scope="col">{i18n.t("staff.payments.vat_rate")}</th>
                        <th scope="col">{i18n.t("staff.payments.payments")}</th>
                        <th scope="col">{i18n.t("staff.payments.gross")}</th>
                        <th scope="col">{i18n.t("staff.payments.reversed")}</th>
                        <th scope="col">{i18n.t("staff.payments.net")}</th>
                        <th scope="col">{i18n.t("staff.payments.vat")}</th>
                        <th scope="col">{i18n.t("staff.payments.total")}</th>
                    </tr></thead>
                    <tbody>
                        {rows.into_iter().map(|r| {
                            let i18n = use_i18n();
                            view! {
                                <tr data-testid="sales-row">
                                    <td>{i18n.t(&format!("country.{}", r.country))}</td>
                                    <td>{domain::checkout::format_rate(r.vat_rate_bp, i18n.decimal_comma())}</td>
                                    <td>{r.payments.to_string()}</td>
                                    <td>{money(&i18n, r.gross, &r.currency)}</td>
                                    <td>{(r.reversals > 0).then(|| format!("−{} ({})", money(&i18n, r.reversed_gross, &r.currency), r.reversals))}</td>
                                    <td>{money(&i18n, r.total_net(), &r.currency)}</td>
                                    <td>{money(&i18n, r.total_vat(), &r.currency)}</td>
                                    <td>{money(&i18n, r.total(), &r.currency)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        }
        .into_any()
    };
    view! {
        <section class="card" id="sales" aria-labelledby="sales-title">
            <h2 id="sales-title">{i18n.t("staff.payments.sales")}</h2>
            <p class="muted">{i18n.t("staff.payments.sales_intro")}</p>
            <form method="get" action="/staff/payments#sales" class="form staff-payments__period" data-testid="sales-period">
                {keep.into_iter().map(|(k, v)| view! { <input type="hidden" name=k value=v/> }).collect_view()}
                <label class="field"><span class="field__label">{i18n.t("staff.payments.period")}</span>
                    <select name="period">
                        {periods.into_iter().map(|p| { let selected = p == period; view! { <option value=p.clone() selected=selected>{p.clone()}</option> } }).collect_view()}
                    </select>
                </label>
                <button type="submit" class="btn">{i18n.t("staff.payments.show")}</button>
            </form>
            {table}
            <p><a href=csv download="sales.csv">{i18n.t("staff.payments.csv")}</a></p>
        </section>
    }
}

#[component]
pub fn StaffPaymentsPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Payments) {
        return refused;
    }
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let get = {
        let query = query.clone();
        move |k: &str| query.get(k).unwrap_or_default()
    };
    let args = (get("member"), get("payment"), get("status"), get("method"), get("from"), get("to"), get("id").parse::<i64>().ok(), get("period"));
    let page = Resource::new_blocking(
        move || args.clone(),
        |(member, payment, status, method, from, to, id, period)| staff_payments(member, payment, status, method, from, to, id, period),
    );
    // Links to a payment keep the search.
    let link = {
        let kept: Vec<String> = ["member", "payment", "status", "method", "from", "to", "period"]
            .into_iter()
            .filter_map(|k| query.get(k).filter(|v| !v.is_empty()).map(|v| format!("{k}={}", domain::account::percent_encode(&v))))
            .collect();
        format!("/staff/payments?{}", kept.into_iter().map(|k| k + "&").collect::<String>())
    };
    view! {
        <Title text=i18n.t("staff.payments.title")/>
        <div class="container page staff-payments">
            <h1>{i18n.t("staff.payments.title")}</h1>
            <SearchForm query=query.clone()/>
            <Suspense fallback=|| ()>
                {move || page.get().map(|result| match result {
                    Ok(p) => view! {
                        {p.open.map(|open| view! { <Timeline open=open query=query.clone()/> })}
                        <Found found=p.found link=link.clone()/>
                        <SalesReport period=p.period periods=p.periods rows=p.sales query=query.clone()/>
                    }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}
