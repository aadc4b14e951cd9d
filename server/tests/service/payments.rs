//! Buying credits on SQLite and PostgreSQL: prices and discounts, checkouts through the test
//! provider, webhooks that repeat, race and lie, the recovery job, ownership, direct debit, and
//! Mollie against a fake Mollie on loopback.

use crate::support;

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use domain::ErrorCode;
use server::accounts::Member;
use server::payments::provider::Provider;
use server::payments::{sms::SmsOutbox, Payments};
use server::{AppError, Db};
use support::shop::{all_explained, fake_mollie, pack_id, payments, provider_id, refused, set_status, sms_code};
use support::world::{world, World, NOW};

async fn ledger_rows(db: &Db, reference: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE reference = $1").bind(reference).fetch_one(db.pool()).await.unwrap();
    n
}

/// Pays through the test provider's page: the tester's choice, then the webhook it would send.
async fn pay(db: &Db, p: &Payments, payment: i64, outcome: PaymentStatus, now: i64) -> Option<PaymentStatus> {
    let tr = provider_id(db, payment).await;
    p.test_provider().unwrap().choose(&tr, outcome).await.unwrap();
    p.webhook("test", &tr, now).await.unwrap()
}

on_both_databases!(a_bundle_with_the_time_bonus_makes_a_premium_member_once, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna: Member = w.member("anna@example.nl", "female").await;
    let start_credits = anna.credits;

    // Within four hours of signup: the time bonus applies to every bundle.
    let offer = p.offer(&w.site, &anna, None, None, "NL", NOW + 60).await.unwrap();
    assert_eq!(offer.discount.as_ref().map(|d| d.code.as_str()), Some("TIMEBONUS25"));
    assert_eq!(offer.time_bonus_left, Some(14_400 - 60));
    let (pack, quote) = offer.packs.iter().find(|(pack, _)| pack.credits == 60).unwrap();
    assert_eq!((quote.list_price, quote.amount, quote.vat_rate_bp), (1995, 1496, 2100));
    assert!(offer.methods.contains(&PaymentMethod::Ideal) && offer.methods.contains(&PaymentMethod::DirectDebit));
    assert!(!offer.methods.contains(&PaymentMethod::Blik));

    // A method not offered in the country is refused and stores nothing.
    assert_eq!(refused(p.start_checkout(&w.site, &anna, pack.id, PaymentMethod::Blik, None, "NL", "nl", NOW + 60).await), ErrorCode::MethodUnavailable);
    assert_eq!(refused(p.start_checkout(&w.site, &anna, 999_999, PaymentMethod::Ideal, None, "NL", "nl", NOW + 60).await), ErrorCode::NotFound);
    assert!(p.payments(anna.id, 50).await.unwrap().is_empty());

    let started = p.start_checkout(&w.site, &anna, pack.id, PaymentMethod::Ideal, None, "NL", "nl", NOW + 60).await.unwrap();
    assert!(started.checkout_url.starts_with("/checkout/test/tst_"), "{}", started.checkout_url);
    let open = p.payment(anna.id, started.payment_id).await.unwrap();
    assert_eq!((open.status, open.amount, open.discount_code.as_deref()), (PaymentStatus::Open, 1496, Some("TIMEBONUS25")));

    assert_eq!(pay(&w.db, &p, started.payment_id, PaymentStatus::Paid, NOW + 120).await, Some(PaymentStatus::Paid));
    let anna = w.reload(anna.id).await;
    assert!(anna.paid_user, "the first bundle makes a premium member");
    assert_eq!(anna.credits, start_credits + 60);
    assert_eq!(ledger_rows(&w.db, &format!("payment:{}", started.payment_id)).await, 1);
    all_explained(&w.db).await;

    // The receipt went out once, with the company's details and the VAT.
    let receipts: Vec<String> = std::fs::read_dir(w.mail.path())
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .filter(|m| m.contains("betaalbewijs"))
        .collect();
    assert_eq!(receipts.len(), 1);
    assert!(receipts[0].contains(&w.site.company.kvk) && receipts[0].contains("14,96"), "{}", receipts[0]);

    // Premium now: no time bonus, no welcome discount; the repeat order is the last one.
    let offer = p.offer(&w.site, &anna, None, None, "NL", NOW + 180).await.unwrap();
    assert_eq!(offer.discount, None);
    let last = p.last_order(anna.id).await.unwrap().unwrap();
    assert_eq!((last.pack_id, last.method), (pack.id, PaymentMethod::Ideal));
});

on_both_databases!(the_same_webhook_ten_times_and_racing_the_result_page_books_once, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 150).await;
    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Visa, None, "NL", "nl", NOW).await.unwrap();
    let tr = provider_id(&w.db, started.payment_id).await;
    p.test_provider().unwrap().choose(&tr, PaymentStatus::Paid).await.unwrap();

    // Ten webhooks and ten result-page reads at once.
    let mut set = tokio::task::JoinSet::new();
    for i in 0..20 {
        let (p, tr) = (p.clone(), tr.clone());
        let id = started.payment_id;
        set.spawn(async move {
            if i % 2 == 0 {
                p.webhook("test", &tr, NOW + 5).await.unwrap().unwrap()
            } else {
                p.sync(id, NOW + 5).await.unwrap()
            }
        });
    }
    while let Some(status) = set.join_next().await {
        assert_eq!(status.unwrap(), PaymentStatus::Paid);
    }
    // And ten more, one after the other.
    for _ in 0..10 {
        assert_eq!(p.webhook("test", &tr, NOW + 10).await.unwrap(), Some(PaymentStatus::Paid));
    }
    assert_eq!(ledger_rows(&w.db, &format!("payment:{}", started.payment_id)).await, 1);
    assert_eq!(w.reload(anna.id).await.credits, anna.credits + 150);
    all_explained(&w.db).await;
});

on_both_databases!(unknown_lying_and_mismatched_webhooks_book_nothing, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 60).await;

    // An id nobody knows, another provider's name, an absurd id: nothing happens, no hint.
    assert_eq!(p.webhook("test", "tst_doesnotexist", NOW).await.unwrap(), None);
    assert_eq!(p.webhook("mollie", "tr_abc", NOW).await.unwrap(), None);
    assert_eq!(p.webhook("test", &"x".repeat(500), NOW).await.unwrap(), None);

    // The webhook comes, but the provider says the payment is still open: nothing is booked.
    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    let tr = provider_id(&w.db, started.payment_id).await;
    assert_eq!(p.webhook("test", &tr, NOW).await.unwrap(), Some(PaymentStatus::Open));
    assert_eq!(ledger_rows(&w.db, &format!("payment:{}", started.payment_id)).await, 0);

    // The provider says paid, but for another amount: not booked.
    sqlx::query("UPDATE test_checkouts SET amount = 1, status = 'paid' WHERE id = $1").bind(&tr).execute(w.db.pool()).await.unwrap();
    assert_eq!(p.webhook("test", &tr, NOW).await.unwrap(), Some(PaymentStatus::Open));
    assert_eq!(w.reload(anna.id).await.credits, anna.credits);
    all_explained(&w.db).await;
});

on_both_databases!(statuses_only_move_forward_and_a_failure_gives_the_code_back, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 60).await;
    let first = p.start_checkout(&w.site, &anna, pack, PaymentMethod::CreditCard, None, "NL", "nl", NOW).await.unwrap();
    // While that one is open, the time bonus is taken: a second checkout gets the welcome
    // discount, and a third none.
    let second = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Paypal, None, "NL", "nl", NOW).await.unwrap();
    assert_eq!(p.payment(anna.id, second.payment_id).await.unwrap().discount_code.as_deref(), Some("WELCOME"));
    let plain = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Paypal, None, "NL", "nl", NOW).await.unwrap();
    assert_eq!(p.payment(anna.id, plain.payment_id).await.unwrap().amount, 1995);
    assert_eq!(pay(&w.db, &p, second.payment_id, PaymentStatus::Canceled, NOW).await, Some(PaymentStatus::Canceled));

    assert_eq!(pay(&w.db, &p, first.payment_id, PaymentStatus::Failed, NOW).await, Some(PaymentStatus::Failed));
    // Failed stays failed, whatever is reported later.
    assert_eq!(p.apply(first.payment_id, PaymentStatus::Paid, NOW).await.unwrap(), PaymentStatus::Failed);
    let tr = provider_id(&w.db, first.payment_id).await;
    sqlx::query("UPDATE test_checkouts SET status = 'paid' WHERE id = $1").bind(&tr).execute(w.db.pool()).await.unwrap();
    assert_eq!(p.webhook("test", &tr, NOW).await.unwrap(), Some(PaymentStatus::Failed));
    assert_eq!(w.reload(anna.id).await.credits, anna.credits);

    // The time bonus came back with the failure: a new checkout gets it again.
    let third = p.start_checkout(&w.site, &anna, pack, PaymentMethod::CreditCard, None, "NL", "nl", NOW + 30).await.unwrap();
    assert_eq!(p.payment(anna.id, third.payment_id).await.unwrap().discount_code.as_deref(), Some("TIMEBONUS25"));
    all_explained(&w.db).await;
});

on_both_databases!(discount_codes_follow_their_rules, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let site = w.site.settings.id;
    for (code, pct, min, country) in [("ZOMER40", 40, 0, None), ("GROOT30", 30, 4000, None), ("BELG50", 50, 0, Some("BE"))] {
        sqlx::query("INSERT INTO discount_codes (site_id, code, percentage, minimum_order, country) VALUES ($1, $2, $3, $4, $5)")
            .bind(site)
            .bind(code)
            .bind(pct)
            .bind(min)
            .bind(country)
            .execute(w.db.pool())
            .await
            .unwrap();
    }
    let later = NOW + 5 * 3600; // past the time bonus, still in the welcome hours
    let offer = |typed: &'static str| {
        let (p, w, anna) = (p.clone(), &w, anna.clone());
        async move { p.offer(&w.site, &anna, None, Some(typed), "NL", later).await }
    };
    assert_eq!(refused(offer("NIETBESTAAND").await), ErrorCode::DiscountNotFound);
    assert_eq!(refused(offer("BELG50").await), ErrorCode::DiscountNotFound, "a code for another country");
    assert_eq!(refused(offer("<b>").await), ErrorCode::DiscountNotFound);
    // Typed in lower case with spaces; it beats the 15 % welcome discount.
    let summer = offer(" zomer40 ").await.unwrap();
    assert_eq!(summer.discount.as_ref().map(|d| (d.code.as_str(), d.percent)), Some(("ZOMER40", 40)));
    // A minimum order: the small bundles keep the welcome discount (15 %), the big ones get 30 %.
    let big = offer("GROOT30").await.unwrap();
    let price = |credits: i64| big.packs.iter().find(|(pack, _)| pack.credits == credits).map(|(_, q)| q.amount).unwrap();
    assert_eq!((price(25), price(150)), (846, 3146));

    let pack = pack_id(&w, &p, 60).await;
    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, Some("zomer40"), "NL", "nl", later).await.unwrap();
    assert_eq!(p.payment(anna.id, started.payment_id).await.unwrap().amount, 1197);
    // Once per member: already taken by the open payment, and after it is paid.
    assert_eq!(refused(offer("ZOMER40").await), ErrorCode::DiscountUsed);
    pay(&w.db, &p, started.payment_id, PaymentStatus::Paid, later).await;
    assert_eq!(refused(p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, Some("ZOMER40"), "NL", "nl", later).await), ErrorCode::DiscountUsed);
    // Another member may use it.
    let bea = w.member("bea@example.nl", "female").await;
    assert!(p.offer(&w.site, &bea, None, Some("ZOMER40"), "NL", later).await.is_ok());
});

on_both_databases!(recovery_books_missed_webhooks_and_expires_stale_payments, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 25).await;
    let missed = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    let stale = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Paypal, None, "NL", "nl", NOW).await.unwrap();
    // The provider has it paid, but the webhook never came.
    let tr = provider_id(&w.db, missed.payment_id).await;
    sqlx::query("UPDATE test_checkouts SET status = 'paid' WHERE id = $1").bind(&tr).execute(w.db.pool()).await.unwrap();

    // Too early: nothing is re-read yet.
    assert_eq!(p.recover(NOW + 60).await.unwrap().checked, 0);
    let run = p.recover(NOW + 601).await.unwrap();
    assert_eq!((run.checked, run.paid, run.expired), (2, 1, 0));
    assert_eq!(p.payment(anna.id, missed.payment_id).await.unwrap().status, PaymentStatus::Paid);
    // A day later the other one is still open at the provider: expired.
    let run = p.recover(NOW + 86_400 + 700).await.unwrap();
    assert_eq!((run.checked, run.expired), (1, 1));
    assert_eq!(p.payment(anna.id, stale.payment_id).await.unwrap().status, PaymentStatus::Expired);
    // Running again changes nothing.
    assert_eq!(p.recover(NOW + 90_000 + 700).await.unwrap(), Default::default());
    assert_eq!(ledger_rows(&w.db, &format!("payment:{}", missed.payment_id)).await, 1);
    assert_eq!(w.reload(anna.id).await.credits, anna.credits + 25);
    all_explained(&w.db).await;
});

on_both_databases!(a_member_sees_only_their_own_payments, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let pack = pack_id(&w, &p, 25).await;
    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    assert_eq!(p.payment(anna.id, started.payment_id).await.unwrap().id, started.payment_id);
    assert_eq!(refused(p.payment(bart.id, started.payment_id).await), ErrorCode::NotFound);
    assert!(p.payments(bart.id, 50).await.unwrap().is_empty());
    assert_eq!(p.payments(anna.id, 50).await.unwrap().len(), 1);
});

on_both_databases!(direct_debit_with_iban_sms_code_reversal_and_monthly_limit, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 60).await;
    let site = &w.site;

    assert_eq!(refused(p.start_direct_debit(site, &anna, pack, "NL91ABNA0417164301", "0612345678", None, "NL", NOW).await), ErrorCode::IbanInvalid);
    assert_eq!(refused(p.start_direct_debit(site, &anna, pack, "NL91ABNA0417164300", "12", None, "NL", NOW).await), ErrorCode::PhoneInvalid);
    assert!(p.sms().sent_to("+31612345678").is_empty(), "a refused form texts nothing");

    let pending = p.start_direct_debit(site, &anna, pack, "nl91 abna 0417 1643 00", "06-12345678", None, "NL", NOW).await.unwrap();
    assert_eq!(pending.iban_masked, "NL91 •••• •••• 4300");
    let texts = p.sms().sent_to("+31612345678");
    assert_eq!(texts.len(), 1);
    let code = sms_code(&texts[0]);
    assert!(code.chars().all(|c| c.is_ascii_digit()), "{}", texts[0]);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    assert_eq!(refused(p.confirm_direct_debit(site, &anna, pending.id, wrong, "NL", NOW + 30).await), ErrorCode::SmsCodeInvalid);
    assert_eq!(refused(p.confirm_direct_debit(site, &anna, pending.id, "12ab", "NL", NOW + 30).await), ErrorCode::SmsCodeInvalid);
    // Another member cannot use Anna's order.
    let bart = w.member("bart@example.nl", "male").await;
    assert_eq!(refused(p.confirm_direct_debit(site, &bart, pending.id, &code, "NL", NOW + 30).await), ErrorCode::SmsCodeInvalid);

    let paid = p.confirm_direct_debit(site, &anna, pending.id, &code, "NL", NOW + 40).await.unwrap();
    // A second submit answers the same payment.
    assert_eq!(p.confirm_direct_debit(site, &anna, pending.id, &code, "NL", NOW + 41).await.unwrap(), paid);
    let payment = p.payment(anna.id, paid).await.unwrap();
    assert_eq!((payment.status, payment.method, payment.amount), (PaymentStatus::Paid, PaymentMethod::DirectDebit, 1496));
    let after = w.reload(anna.id).await;
    assert!(after.paid_user);
    assert_eq!(after.credits, anna.credits + 60);

    // Five wrong tries use an order up, even for the right code.
    let second = p.start_direct_debit(site, &after, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + 100).await.unwrap();
    let code2 = sms_code(&p.sms().sent_to("+31612345678")[1]);
    let wrong2 = if code2 == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        assert_eq!(refused(p.confirm_direct_debit(site, &after, second.id, wrong2, "NL", NOW + 110).await), ErrorCode::SmsCodeInvalid);
    }
    assert_eq!(refused(p.confirm_direct_debit(site, &after, second.id, &code2, "NL", NOW + 120).await), ErrorCode::SmsCodeInvalid);

    // The month's limit (150.00 by default): 19.95 + 99.95 fits, another 44.95 does not.
    let big = pack_id(&w, &p, 400).await;
    let third = p.start_direct_debit(site, &after, big, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + 200).await.unwrap();
    let code3 = sms_code(&p.sms().sent_to("+31612345678")[2]);
    p.confirm_direct_debit(site, &after, third.id, &code3, "NL", NOW + 210).await.unwrap();
    let mid = pack_id(&w, &p, 150).await;
    assert_eq!(refused(p.start_direct_debit(site, &after, mid, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + 300).await), ErrorCode::DirectDebitLimit);

    // The bank reverses the first debit: its credits go and direct debit closes.
    let before = w.reload(anna.id).await.credits;
    assert_eq!(p.reverse(paid, NOW + 400).await.unwrap(), PaymentStatus::Reversed);
    assert_eq!(p.reverse(paid, NOW + 401).await.unwrap(), PaymentStatus::Reversed, "a second reversal changes nothing");
    assert_eq!(w.reload(anna.id).await.credits, before - 60);
    let small = pack_id(&w, &p, 25).await;
    assert_eq!(
        refused(p.start_direct_debit(site, &after, small, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + 500).await),
        ErrorCode::DirectDebitBlocked
    );
    all_explained(&w.db).await;
});

on_both_databases!(parallel_direct_debit_confirmations_never_pass_the_monthly_cap, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    // A paid member: no welcome discount or time bonus changes the price.
    sqlx::query("UPDATE users SET paid_user = TRUE WHERE id = $1").bind(anna.id).execute(w.db.pool()).await.unwrap();
    let anna = w.reload(anna.id).await;
    let site = w.site.clone();
    // Five orders of 99.95 against the default cap of 150.00 a month: each fits alone.
    let big = pack_id(&w, &p, 400).await;
    let mut orders = Vec::new();
    for i in 0..5 {
        let pending = p.start_direct_debit(&site, &anna, big, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + i).await.unwrap();
        let code = sms_code(&p.sms().sent_to("+31612345678")[i as usize]);
        orders.push((pending.id, code));
    }
    // All confirmed at the same moment.
    let confirmations: Vec<_> = orders
        .into_iter()
        .map(|(order, code)| {
            let (p, site, anna) = (p.clone(), site.clone(), anna.clone());
            tokio::spawn(async move { p.confirm_direct_debit(&site, &anna, order, &code, "NL", NOW + 60).await })
        })
        .collect();
    let (mut paid, mut over_cap) = (0, 0);
    for confirmation in confirmations {
        match confirmation.await.unwrap() {
            Ok(_) => paid += 1,
            Err(AppError::Refused(e)) if e.code == ErrorCode::DirectDebitLimit => over_cap += 1,
            Err(other) => panic!("{other:?}"),
        }
    }
    assert_eq!((paid, over_cap), (1, 4), "one order fits the month's 150.00");
    let (count, sum): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payments WHERE user_id = $1 AND method = 'direct_debit'")
            .bind(anna.id)
            .fetch_one(w.db.pool())
            .await
            .unwrap();
    assert_eq!((count, sum), (1, 9995));
    assert_eq!(w.reload(anna.id).await.credits, anna.credits + 400);
    all_explained(&w.db).await;
});

// ---------------------------------------------------------------------------------------------
// Mollie against a fake Mollie on loopback.

#[tokio::test]
async fn mollie_creates_reads_back_and_maps_failures() {
    let (db, _dir) = support::sqlite().await;
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let (base, fake) = fake_mollie().await;
    let provider = Provider::Mollie(server::payments::mollie::Mollie::new("test_fakemollie000000000000000000".into(), base.clone()));
    let p =
        Payments::new(w.db.clone(), provider, w.accounts.clone(), support::links(), SmsOutbox::Files(sms.path().to_path_buf()), "https://vonk.example".into());
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 60).await;

    // Mollie has no Sofort or giropay any more: not offered when Mollie is the provider.
    let methods = p.methods("DE");
    assert!(!methods.contains(&PaymentMethod::Sofort) && !methods.contains(&PaymentMethod::Giropay) && methods.contains(&PaymentMethod::Paypal));

    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Mastercard, None, "NL", "nl", NOW).await.unwrap();
    assert_eq!(started.checkout_url, "https://www.mollie.com/checkout/select-method/tr_fake1");
    let body = fake.lock().unwrap().created_bodies[0].clone();
    assert_eq!(body["amount"], serde_json::json!({"currency": "EUR", "value": "14.96"}));
    assert_eq!(body["method"], "creditcard", "card brands are card payments");
    assert_eq!(body["webhookUrl"], "https://vonk.example/webhooks/payments/mollie");
    assert_eq!(body["redirectUrl"], format!("https://vonk.example/transactions/{}", started.payment_id));
    assert_eq!(body["locale"], "nl_NL");
    assert_eq!(body["metadata"]["payment_id"], started.payment_id);

    // Webhook while open; then paid (authorized first counts as pending).
    assert_eq!(p.webhook("mollie", "tr_fake1", NOW).await.unwrap(), Some(PaymentStatus::Open));
    set_status(&fake, "tr_fake1", "authorized");
    assert_eq!(p.webhook("mollie", "tr_fake1", NOW).await.unwrap(), Some(PaymentStatus::Pending));
    set_status(&fake, "tr_fake1", "paid");
    for _ in 0..3 {
        assert_eq!(p.webhook("mollie", "tr_fake1", NOW).await.unwrap(), Some(PaymentStatus::Paid));
    }
    assert_eq!(w.reload(anna.id).await.credits, anna.credits + 60);
    // Mollie later says something else: a paid payment stays paid.
    set_status(&fake, "tr_fake1", "failed");
    assert_eq!(p.webhook("mollie", "tr_fake1", NOW).await.unwrap(), Some(PaymentStatus::Paid));
    // An id that is not Mollie's shape never reaches Mollie; an unknown one changes nothing.
    assert_eq!(p.webhook("mollie", "tr_nope", NOW).await.unwrap(), None);

    // Mollie refuses a method that is not enabled on the account: the member is told to pick another.
    assert_eq!(refused(p.start_checkout(&w.site, &anna, pack, PaymentMethod::Paysafecard, None, "NL", "nl", NOW).await), ErrorCode::MethodUnavailable);
    assert_eq!(p.payments(anna.id, 1).await.unwrap()[0].status, PaymentStatus::Failed);

    // Failure answers: a 5xx is our "try later" (the payment fails, nothing is booked)...
    fake.lock().unwrap().fail_with = Some(503);
    let err = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap_err();
    assert!(matches!(err, AppError::Internal(_)), "{err:?}");
    let failed = p.payments(anna.id, 1).await.unwrap().remove(0);
    assert_eq!(failed.status, PaymentStatus::Failed);
    // ... and a webhook while Mollie is down answers an error, so Mollie retries later.
    fake.lock().unwrap().fail_with = None;
    let second = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    let tr2 = provider_id(&w.db, second.payment_id).await;
    fake.lock().unwrap().fail_with = Some(500);
    assert!(p.webhook("mollie", &tr2, NOW).await.is_err());
    fake.lock().unwrap().fail_with = None;
    // A wrong key is a configuration fault, not the member's: an internal error.
    let wrong_key = Payments::new(
        w.db.clone(),
        Provider::Mollie(server::payments::mollie::Mollie::new("test_wrongkey".into(), base)),
        w.accounts.clone(),
        support::links(),
        SmsOutbox::Files(sms.path().to_path_buf()),
        "https://vonk.example".into(),
    );
    assert!(matches!(wrong_key.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await, Err(AppError::Internal(_))));
    all_explained(&w.db).await;
}

/// A booked purchase tells the buyer's open chats the new balance (the footer shows it without
/// a reload), once, and tells no other member anything. On PostgreSQL the signal goes through
/// `NOTIFY`, so a chat open on another node hears it too.
async fn a_booked_purchase_reaches_the_buyers_open_chats(w: World, url: &str) {
    use server::chat::bus::{Bus, Outgoing};
    let sms = tempfile::tempdir().unwrap();
    let bus = Bus::start(w.db.clone(), url);
    bus.listening().await;
    let p = payments(&w, sms.path()).with_bus(bus.clone());
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    let mut annas = bus.subscribe(anna.id);
    let mut brams = bus.subscribe(bram.id);

    let pack = pack_id(&w, &p, 150).await;
    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    assert_eq!(pay(&w.db, &p, started.payment_id, PaymentStatus::Paid, NOW + 5).await, Some(PaymentStatus::Paid));
    let got = tokio::time::timeout(std::time::Duration::from_secs(5), annas.rx.recv()).await.expect("a push within 5 s").unwrap();
    let Outgoing::Json(json) = got else { panic!("expected the balance, got {got:?}") };
    let push: domain::chat_socket::Push = serde_json::from_str(&json).unwrap();
    assert_eq!(push, domain::chat_socket::Push::Balance { credits: anna.credits + 150 });

    // The same webhook again books nothing and says nothing.
    let tr = provider_id(&w.db, started.payment_id).await;
    assert_eq!(p.webhook("test", &tr, NOW + 10).await.unwrap(), Some(PaymentStatus::Paid));
    for rx in [&mut annas.rx, &mut brams.rx] {
        if let Ok(Some(other)) = tokio::time::timeout(std::time::Duration::from_millis(300), rx.recv()).await {
            panic!("nothing more was due, got {other:?}");
        }
    }
}

#[tokio::test]
async fn a_booked_purchase_reaches_the_buyers_open_chats_sqlite() {
    let (db, _dir) = support::sqlite().await;
    a_booked_purchase_reaches_the_buyers_open_chats(world(db).await, "sqlite://unused").await;
}

#[tokio::test]
async fn a_booked_purchase_reaches_the_buyers_open_chats_postgres() {
    let cluster = support::PgCluster::start();
    let db = cluster.db().await;
    a_booked_purchase_reaches_the_buyers_open_chats(world(db.clone()).await, &cluster.url).await;
    db.close().await;
}

on_both_databases!(the_receipt_pdf_says_what_the_mail_says_in_the_members_language_to_that_member_only, |db: Db| async move {
    let w = world(db).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let bram = w.member("bram@example.nl", "male").await;
    sqlx::query("UPDATE users SET language = 'pl' WHERE id = $1").bind(anna.id).execute(w.db.pool()).await.unwrap();
    let pack = pack_id(&w, &p, 150).await;
    let started = p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "pl", NOW).await.unwrap();

    // Not paid yet: no receipt.
    assert_eq!(refused(p.receipt_pdf(anna.id, started.payment_id).await), ErrorCode::NotFound);
    assert_eq!(pay(&w.db, &p, started.payment_id, PaymentStatus::Paid, NOW + 5).await, Some(PaymentStatus::Paid));

    let pdf = p.receipt_pdf(anna.id, started.payment_id).await.unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "a PDF file");
    // To look at it: RECEIPT_PDF_OUT=/tmp/receipt.pdf cargo test -p server --test payments receipt_pdf
    if let Ok(path) = std::env::var("RECEIPT_PDF_OUT") {
        std::fs::write(path, &pdf).unwrap();
    }
    let text = support::pdf_text(&pdf);
    let receipt = w.accounts.receipt(&w.site, anna.id, &p.payment(anna.id, started.payment_id).await.unwrap()).await.unwrap();
    assert_eq!(receipt.locale, domain::Locale::Pl);
    // Every line of the mail, in Polish with its own letters, and the seller.
    assert!(text.contains(&receipt.title), "the title {:?} in {text}", receipt.title);
    for (label, value) in &receipt.rows {
        assert!(text.contains(label.as_str()) && text.contains(value.as_str()), "{label}: {value} in {text}");
    }
    for line in &receipt.company {
        assert!(text.contains(line.as_str()), "{line} in {text}");
    }
    assert!(text.contains(&format!("#{}", started.payment_id)) && text.contains("150"));
    assert!(receipt.rows.iter().any(|(label, _)| label.chars().any(|c| "ąćęłńóśźż".contains(c))), "Polish labels: {:?}", receipt.rows);
    // The site's name heads it (this site has no logo).
    assert!(text.contains(&w.site.settings.name));

    // Another member, an unknown id: not found, whatever the id.
    assert_eq!(refused(p.receipt_pdf(bram.id, started.payment_id).await), ErrorCode::NotFound);
    assert_eq!(refused(p.receipt_pdf(anna.id, started.payment_id + 1000).await), ErrorCode::NotFound);
});

on_both_databases!(direct_debit_and_a_first_payment_wait_for_a_confirmed_address, |db: Db| async move {
    let (w, _sms, p) = support::shop::shop(db).await;
    let anna = w.member("anna@example.nl", "female").await;
    let pack = pack_id(&w, &p, 60).await;
    let unconfirm = |id: i64| {
        let db = w.db.clone();
        async move { sqlx::query("UPDATE users SET status = 'not_confirmed' WHERE id = $1").bind(id).execute(db.pool()).await.unwrap() }
    };
    let confirm = |id: i64| {
        let db = w.db.clone();
        async move { sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(id).execute(db.pool()).await.unwrap() }
    };

    // Direct debit: no code texted to a member whose address is not confirmed.
    unconfirm(anna.id).await;
    let anna = w.reload(anna.id).await;
    assert_eq!(refused(p.start_direct_debit(&w.site, &anna, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW).await), ErrorCode::AddressNotConfirmed);
    assert!(p.sms().sent_to("+31612345678").is_empty());
    // Confirmed, the code comes; an address that is no longer confirmed when the code is
    // typed (a changed address) still stops the mandate, and no payment is made.
    confirm(anna.id).await;
    let anna = w.reload(anna.id).await;
    let pending = p.start_direct_debit(&w.site, &anna, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW).await.unwrap();
    let code = sms_code(&p.sms().sent_to("+31612345678")[0]);
    unconfirm(anna.id).await;
    assert_eq!(refused(p.confirm_direct_debit(&w.site, &anna, pending.id, &code, "NL", NOW + 10).await), ErrorCode::AddressNotConfirmed);
    let (payments_made,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM payments WHERE user_id = $1").bind(anna.id).fetch_one(w.db.pool()).await.unwrap();
    assert_eq!(payments_made, 0);

    // A card payment by default does not wait; when the site asks, the first one does.
    let anna = w.reload(anna.id).await;
    p.start_checkout(&w.site, &anna, pack, PaymentMethod::Visa, None, "NL", "nl", NOW).await.unwrap();
    let mut strict = w.site.clone();
    strict.settings.first_payment_needs_confirmed_address = true;
    assert_eq!(refused(p.start_checkout(&strict, &anna, pack, PaymentMethod::Visa, None, "NL", "nl", NOW).await), ErrorCode::AddressNotConfirmed);
    assert_eq!(refused(p.start_checkout(&strict, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await), ErrorCode::AddressNotConfirmed);
    confirm(anna.id).await;
    let anna = w.reload(anna.id).await;
    p.start_checkout(&strict, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW).await.unwrap();
    // A member who paid before is not asked again.
    let paying = Member { paid_user: true, status: domain::account::UserStatus::NotConfirmed, ..anna.clone() };
    p.start_checkout(&strict, &paying, pack, PaymentMethod::Visa, None, "NL", "nl", NOW).await.unwrap();
});
