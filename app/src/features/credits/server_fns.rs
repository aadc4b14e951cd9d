//! Server functions of buying credits. Thin: find the member and their country, call
//! `server::payments`, map errors. Every amount comes from the server; a form only names a
//! bundle, a method and perhaps a discount code.

use domain::checkout::{Discount, PaymentSummary, Quote};
use domain::payment::PaymentMethod;
use domain::site::CreditPack;
use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, fail_back, member_call, redirect};

/// `/credits`: the bundles for the member's country with today's prices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreditsData {
    pub balance: i64,
    pub paid_user: bool,
    pub packs: Vec<(CreditPack, Quote)>,
    pub discount: Option<Discount>,
    /// The automatic offers (time bonus, welcome discount): now and what follows.
    pub offers: domain::offers::Offers,
    pub now: i64,
    pub methods: Vec<PaymentMethod>,
    /// The typed code, when it applies.
    pub code: Option<String>,
    /// Why a typed code does not apply ('Code niet gevonden', 'Code reeds gebruikt').
    pub code_error: Option<ApiError>,
}

/// `/credits/{id}/{method?}`: one bundle's price and the methods to pay it with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckoutData {
    pub quote: Quote,
    pub methods: Vec<PaymentMethod>,
    pub code: Option<String>,
    pub country: String,
    /// The automatic offers, for the discount's "until when" and what follows.
    pub offers: domain::offers::Offers,
    pub now: i64,
}

/// `/transactions/{id}`: a payment and the member's balance now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionData {
    pub payment: PaymentSummary,
    pub balance: i64,
    pub paid_user: bool,
    /// A paid payment that was the member's first: it made them premium.
    pub first_paid: bool,
    pub methods: Vec<PaymentMethod>,
}

/// `/directdebit`: the bundle's price, the company that collects, and the order waiting for
/// its code (after the first step).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DirectDebitData {
    pub quote: Quote,
    pub company: String,
    pub pending: Option<PendingDebit>,
    pub code: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingDebit {
    pub id: i64,
    pub iban: String,
    pub phone: String,
}

/// The test provider's checkout page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCheckoutData {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    pub description: String,
    pub method: Option<PaymentMethod>,
    pub open: bool,
    pub back: String,
}

#[cfg(feature = "ssr")]
fn typed(code: &Option<String>) -> Option<&str> {
    code.as_deref().map(str::trim).filter(|c| !c.is_empty())
}

#[cfg(feature = "ssr")]
async fn country(c: &crate::call::Call, member: &server::accounts::Member) -> Result<String, ApiError> {
    c.state.payments.buyer_country(member.id, &c.country()).await.map_err(fail)
}

/// One bundle's price; a typed code that no longer applies (used meanwhile) falls back to the
/// automatic discount.
#[cfg(feature = "ssr")]
async fn quote_or_automatic(
    c: &crate::call::Call,
    member: &server::accounts::Member,
    pack: i64,
    code: &Option<String>,
    country: &str,
) -> Result<Quote, ApiError> {
    let p = &c.state.payments;
    match p.quote(&c.site, member, pack, typed(code), country, c.now()).await {
        Ok(q) => Ok(q),
        Err(server::AppError::Refused(e)) if e.field.is_some() => p.quote(&c.site, member, pack, None, country, c.now()).await.map_err(fail),
        Err(e) => Err(fail(e)),
    }
}

/// The code the member typed, when it is the discount in force.
#[cfg(feature = "ssr")]
fn typed_code(discount: Option<&Discount>) -> Option<String> {
    discount.filter(|d| d.kind == domain::checkout::DiscountKind::Code).map(|d| d.code.clone())
}

#[server(prefix = "/api/fn", endpoint = "credits_page")]
pub async fn get_credits_page(code: Option<String>) -> Result<CreditsData, ApiError> {
    let (c, member) = member_call().await?;
    let country = country(&c, &member).await?;
    let now = c.now();
    let p = &c.state.payments;
    let visitor = c.visitor();
    let (offer, code_error) = match p.offer(&c.site, &member, visitor.as_deref(), typed(&code), &country, now).await {
        Ok(offer) => (offer, None),
        Err(server::AppError::Refused(e)) if typed(&code).is_some() => {
            (p.offer(&c.site, &member, visitor.as_deref(), None, &country, now).await.map_err(fail)?, Some(e))
        }
        Err(e) => return Err(fail(e)),
    };
    let code = code_error.is_none().then(|| typed_code(offer.discount.as_ref())).flatten();
    Ok(CreditsData {
        balance: member.credits,
        paid_user: member.paid_user,
        packs: offer.packs,
        discount: offer.discount,
        offers: offer.offers,
        now,
        methods: offer.methods,
        code,
        code_error,
    })
}

#[server(prefix = "/api/fn", endpoint = "checkout_page")]
pub async fn get_checkout_page(pack: i64, code: Option<String>) -> Result<CheckoutData, ApiError> {
    let (c, member) = member_call().await?;
    let country = country(&c, &member).await?;
    let p = &c.state.payments;
    let quote = quote_or_automatic(&c, &member, pack, &code, &country).await?;
    let code = typed_code(quote.discount.as_ref());
    // The offers as the price saw them: the checkout's discount is the offer now when its kind is.
    let now = c.now();
    let offers = domain::offers::offers(&c.site.settings.offer_rules(), member.signup_date, now, member.paid_user, |_| false);
    Ok(CheckoutData { methods: p.methods(&country), quote, code, country, offers, now })
}

/// Starts paying: answers the provider's checkout page (a form without JavaScript is sent
/// there). Direct debit has its own form.
#[server(prefix = "/api/fn", endpoint = "start_checkout")]
pub async fn start_checkout(pack: i64, method: String, code: Option<String>) -> Result<String, ApiError> {
    let (c, member) = member_call().await?;
    let back = format!("{}/{}", crate::paths::credits_pack(pack), domain::account::percent_encode(&method));
    let result: Result<String, server::AppError> = async {
        let method = PaymentMethod::parse(&method).ok_or(domain::ErrorCode::MethodUnavailable)?;
        c.state.rate_limiter.check_member(server::http::rate_limit::Limit::Checkout, member.id, c.now()).await?;
        let country = c.state.payments.buyer_country(member.id, &c.country()).await?;
        if method == PaymentMethod::DirectDebit {
            return Ok(crate::paths::direct_debit(Some(pack), None, typed(&code)));
        }
        let locale = server::http::visitor::locale(&c.parts.headers, &c.site);
        let started = c.state.payments.start_checkout(&c.site, &member, pack, method, typed(&code), &country, locale.code(), c.now()).await?;
        Ok(started.checkout_url)
    }
    .await;
    match result {
        Ok(url) => {
            if crate::call::accepts_html() {
                redirect(&url);
            }
            Ok(url)
        }
        Err(e) => Err(fail_back::<StartCheckout>(e, &back, &[("code", code.as_deref().unwrap_or_default())])),
    }
}

/// The repeat order: the member's last paid bundle and method, in one click.
#[server(prefix = "/api/fn", endpoint = "repeat_order")]
pub async fn repeat_order() -> Result<String, ApiError> {
    let (c, member) = member_call().await?;
    let last = c.state.payments.last_order(member.id).await.map_err(fail)?.ok_or_else(|| ApiError::new(domain::ErrorCode::NotFound))?;
    start_checkout(last.pack_id, last.method.code().to_string(), None).await
}

#[server(prefix = "/api/fn", endpoint = "last_order")]
pub async fn get_last_order() -> Result<Option<PaymentSummary>, ApiError> {
    let (c, member) = member_call().await?;
    c.state.payments.last_order(member.id).await.map_err(fail)
}

/// A payment of the member's. An open one is read from the provider first, so the result page
/// settles it even when the webhook is late (or races it: the booking happens once).
#[server(prefix = "/api/fn", endpoint = "transaction")]
pub async fn get_transaction(id: i64) -> Result<TransactionData, ApiError> {
    let (c, member) = member_call().await?;
    let p = &c.state.payments;
    let payment = p.payment(member.id, id).await.map_err(fail)?;
    if payment.status.is_open() {
        if let Err(error) = p.sync(id, c.now()).await {
            tracing::warn!(payment = id, %error, "the result page could not read the payment");
        }
    }
    let payment = p.payment(member.id, id).await.map_err(fail)?;
    let me = c.state.accounts.member(member.id).await.map_err(fail)?.ok_or_else(|| ApiError::new(domain::ErrorCode::AuthenticationRequired))?;
    let country = country(&c, &member).await?;
    let first_paid = payment.status == domain::checkout::PaymentStatus::Paid && p.first_paid(member.id, id).await.map_err(fail)?;
    Ok(TransactionData { payment, balance: me.credits, paid_user: me.paid_user, first_paid, methods: p.methods(&country) })
}

#[server(prefix = "/api/fn", endpoint = "transactions")]
pub async fn get_transactions() -> Result<Vec<PaymentSummary>, ApiError> {
    let (c, member) = member_call().await?;
    c.state.payments.payments(member.id, 100).await.map_err(fail)
}

#[server(prefix = "/api/fn", endpoint = "direct_debit_page")]
pub async fn get_direct_debit_page(pack: i64, order: Option<i64>, code: Option<String>) -> Result<DirectDebitData, ApiError> {
    let (c, member) = member_call().await?;
    let country = country(&c, &member).await?;
    let p = &c.state.payments;
    let quote = quote_or_automatic(&c, &member, pack, &code, &country).await?;
    let pending = match order {
        Some(order) => p.pending_direct_debit(member.id, order, c.now()).await.map_err(fail)?.map(|d| PendingDebit {
            id: d.id,
            iban: d.iban_masked,
            phone: d.phone_masked,
        }),
        None => None,
    };
    let code = typed_code(quote.discount.as_ref());
    Ok(DirectDebitData { quote, company: c.site.company.name.clone(), pending, code })
}

/// Direct debit, step one: IBAN and mobile number; texts the code and shows step two.
#[server(prefix = "/api/fn", endpoint = "start_direct_debit")]
pub async fn start_direct_debit(pack: i64, iban: String, phone: String, code: Option<String>) -> Result<i64, ApiError> {
    let (c, member) = member_call().await?;
    let back = crate::paths::direct_debit(Some(pack), None, None);
    let kept = [("iban", iban.as_str()), ("phone", phone.as_str()), ("code", code.as_deref().unwrap_or_default())];
    let result: Result<i64, server::AppError> = async {
        c.state.rate_limiter.check_member(server::http::rate_limit::Limit::Checkout, member.id, c.now()).await?;
        let country = c.state.payments.buyer_country(member.id, &c.country()).await?;
        Ok(c.state.payments.start_direct_debit(&c.site, &member, pack, &iban, &phone, typed(&code), &country, c.now()).await?.id)
    }
    .await;
    match result {
        Ok(order) => {
            redirect(&crate::paths::direct_debit(Some(pack), Some(order), typed(&code)));
            Ok(order)
        }
        Err(e) => Err(fail_back::<StartDirectDebit>(e, &back, &kept)),
    }
}

/// Direct debit, step two: the texted code; the right one books the bundle.
#[server(prefix = "/api/fn", endpoint = "confirm_direct_debit")]
pub async fn confirm_direct_debit(pack: i64, order: i64, sms_code: String) -> Result<i64, ApiError> {
    let (c, member) = member_call().await?;
    let back = crate::paths::direct_debit(Some(pack), Some(order), None);
    let result: Result<i64, server::AppError> = async {
        let country = c.state.payments.buyer_country(member.id, &c.country()).await?;
        c.state.payments.confirm_direct_debit(&c.site, &member, order, &sms_code, &country, c.now()).await
    }
    .await;
    match result {
        Ok(payment) => {
            redirect(&crate::paths::transaction(payment));
            Ok(payment)
        }
        Err(e) => Err(fail_back::<ConfirmDirectDebit>(e, &back, &[])),
    }
}

/// The test provider's page (only while it is the configured provider), for the buyer alone:
/// another member, or a visitor holding the address, gets not-found.
#[server(prefix = "/api/fn", endpoint = "test_checkout")]
pub async fn get_test_checkout(id: String) -> Result<TestCheckoutData, ApiError> {
    let (c, member) = member_call().await?;
    let (_, checkout) = c.state.payments.own_test_checkout(member.id, &id).await.map_err(fail)?.ok_or_else(|| ApiError::new(domain::ErrorCode::NotFound))?;
    Ok(TestCheckoutData {
        id: checkout.id,
        amount: checkout.amount,
        currency: checkout.currency,
        description: checkout.description,
        method: PaymentMethod::parse(&checkout.method),
        open: checkout.status.is_open(),
        back: checkout.redirect_url,
    })
}

/// The buyer's outcome on the test provider's page; the buyer returns to our result page.
#[server(prefix = "/api/fn", endpoint = "test_checkout_outcome")]
pub async fn test_checkout_outcome(id: String, outcome: String) -> Result<String, ApiError> {
    let (c, member) = member_call().await?;
    let (provider, _) = c.state.payments.own_test_checkout(member.id, &id).await.map_err(fail)?.ok_or_else(|| ApiError::new(domain::ErrorCode::NotFound))?;
    let outcome = domain::checkout::PaymentStatus::parse(&outcome).ok_or_else(|| ApiError::new(domain::ErrorCode::BadRequest))?;
    let back = provider.choose(&id, outcome).await.map_err(fail)?;
    redirect(&back);
    Ok(back)
}

/// The time-bonus modal's close button stores the dismissal (SPEC §4).
#[server(prefix = "/api/fn", endpoint = "dismiss_time_bonus")]
pub async fn dismiss_time_bonus() -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.dismiss_alert(member.id, "time_bonus").await.map_err(fail)
}

/// The credit packs of the site this request is for, for the visitor's country, at the prices
/// this visitor or member is shown (`/pricing`).
#[server(prefix = "/api/fn", endpoint = "credit_packs")]
pub async fn get_credit_packs() -> Result<Vec<CreditPack>, ApiError> {
    let c = crate::call::call().await?;
    let member = c.viewer();
    c.state.payments.priced_packs(c.site.settings.id, member.as_ref(), c.visitor().as_deref(), &c.country(), c.now()).await.map_err(fail)
}
