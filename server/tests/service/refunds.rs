//! Money after the sale, on SQLite and PostgreSQL: staff refunds in full and in part through the
//! test provider and a fake Mollie (idempotent on both sides, one refund when asked twice at
//! once), the refund period, credits taken back never below zero, the credit note, refunds made
//! in the provider's dashboard and chargebacks heard through the webhook (the chargeback blocks
//! card payments until staff lift it), the recovery job asking a silent provider again, and the
//! sales report subtracting it all. The ledger explains every balance after each step.

use crate::support;

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use domain::refund::RefundState;
use domain::sales::Period;
use domain::ErrorCode;
use server::accounts::Member;
use server::payments::Payments;
use server::Db;
use support::shop::{add_to, all_explained, buy, fake_mollie, mollie_payments, pack_id, payments, provider_id, refused, set_status};
use support::world::{world, World, NOW};

const DAY: i64 = 86_400;

fn key(n: u32) -> String {
    format!("{n:0>32}")
}

async fn balance(w: &World, id: i64) -> i64 {
    w.reload(id).await.credits
}

async fn staff(w: &World) -> Member {
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "baas@example.nl", domain::staff::StaffRole::Admin).await;
    w.reload(boss.id).await
}

async fn amount_of(db: &Db, payment: i64) -> i64 {
    let (amount,): (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(payment).fetch_one(db.pool()).await.unwrap();
    amount
}

async fn status(db: &Db, payment: i64) -> (String, i64) {
    sqlx::query_as("SELECT status, refunded FROM payments WHERE id = $1").bind(payment).fetch_one(db.pool()).await.unwrap()
}

fn credit_notes(w: &World) -> Vec<String> {
    std::fs::read_dir(w.mail.path()).unwrap().flatten().map(|e| std::fs::read_to_string(e.path()).unwrap()).filter(|m| m.contains("creditnota")).collect()
}

/// Spends `n` credits of the member's as a message would (a ledger booking).
async fn spend(db: &Db, member: i64, n: i64, reference: &str) {
    let mut tx = db.begin().await.unwrap();
    server::credits::book(&mut tx, server::credits::Entry { user_id: member, delta: -n, reason: server::credits::Reason::Spend, reference }, NOW)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

on_both_databases!(staff_refund_in_full_and_in_part_once, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let boss = staff(&w).await;
    let anna = w.member("anna@example.nl", "female").await;
    let site = w.site.settings.id;
    let start = balance(&w, anna.id).await;

    // A bundle of 60, refunded in full; Anna used 20 of them already.
    let first = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW).await;
    let (amount,): (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(first).fetch_one(db.pool()).await.unwrap();
    spend(&db, anna.id, start + 20, "message:1").await;
    assert_eq!(balance(&w, anna.id).await, 40);
    // A member cannot refund; nor can staff of another site, nor anyone for an unknown payment.
    assert_eq!(refused(p.refund(&anna, site, first, None, "", &key(1), NOW + 60).await), ErrorCode::NotFound);
    assert_eq!(refused(p.refund(&boss, site + 1, first, None, "", &key(1), NOW + 60).await), ErrorCode::NotFound);
    assert_eq!(refused(p.refund(&boss, site, 999_999, None, "", &key(1), NOW + 60).await), ErrorCode::NotFound);
    assert_eq!(refused(p.refund(&boss, site, first, None, "", "<script>", NOW + 60).await), ErrorCode::BadRequest);
    assert_eq!(refused(p.refund(&boss, site, first, Some(amount + 1), "", &key(1), NOW + 60).await), ErrorCode::RefundAmountInvalid);
    let done = p.refund(&boss, site, first, None, "", &key(1), NOW + 60).await.unwrap();
    assert_eq!((done.amount, done.state, done.credits.taken, done.credits.spent, done.status), (amount, RefundState::Done, 40, 20, PaymentStatus::Refunded));
    assert_eq!(balance(&w, anna.id).await, 0, "never below zero");
    // The same request again (a replay, a second click) is the same refund.
    let again = p.refund(&boss, site, first, None, "", &key(1), NOW + 61).await.unwrap();
    assert_eq!(again.refund_id, done.refund_id);
    assert_eq!(refused(p.refund(&boss, site, first, None, "", &key(2), NOW + 62).await), ErrorCode::NotRefundable);
    assert_eq!(status(&db, first).await, ("refunded".into(), amount));
    // Premium stays; one credit note, in Dutch, stating the credits already used.
    assert!(w.reload(anna.id).await.paid_user);
    let notes = credit_notes(&w);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("Al gebruikte credits"), "{}", notes[0]);
    all_explained(&db).await;

    // A second bundle refunded in two halves: the credits follow the money, 30 + 30.
    let second = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 100).await;
    let amount2 = amount_of(&db, second).await;
    let half = amount2 / 2;
    let a = p.refund(&boss, site, second, Some(half), "", &key(3), NOW + 200).await.unwrap();
    assert_eq!((a.credits.taken, a.status), (30, PaymentStatus::Paid));
    let member_view = p.payment(anna.id, second).await.unwrap();
    assert_eq!((member_view.status, member_view.refunded), (PaymentStatus::Paid, half));
    let b = p.refund(&boss, site, second, Some(amount2 - half), "", &key(4), NOW + 300).await.unwrap();
    assert_eq!((b.credits.taken, b.status), (30, PaymentStatus::Refunded));
    assert_eq!(balance(&w, anna.id).await, 0);
    all_explained(&db).await;

    // Two staff refund a third bundle at the same moment, each with their own form: one refund.
    let third = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 400).await;
    let (k5, k6, k7) = (key(5), key(6), key(7));
    let (x, y) = tokio::join!(p.refund(&boss, site, third, None, "", &k5, NOW + 500), p.refund(&boss, site, third, None, "", &k6, NOW + 500));
    assert_eq!(u8::from(x.is_ok()) + u8::from(y.is_ok()), 1, "{x:?} {y:?}");
    // And the same form sent twice at once: one refund too.
    let fourth = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 600).await;
    let (x, y) = tokio::join!(p.refund(&boss, site, fourth, None, "", &k7, NOW + 700), p.refund(&boss, site, fourth, None, "", &k7, NOW + 700));
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x.refund_id, y.refund_id);
    assert!(x.state == RefundState::Done || y.state == RefundState::Done, "{x:?} {y:?}");
    let (rows,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM refunds WHERE payment_id IN ($1, $2)").bind(third).bind(fourth).fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows, 2);
    let (test_refunded,): (i64,) = sqlx::query_as("SELECT CAST(COALESCE(SUM(refunded), 0) AS BIGINT) FROM test_checkouts").fetch_one(db.pool()).await.unwrap();
    let paid_back = amount + amount2 + amount_of(&db, third).await + amount_of(&db, fourth).await;
    assert_eq!(test_refunded, paid_back, "the provider paid back four bundles, not more");
    all_explained(&db).await;

    // After the refund period only with a reason; a failed payment is not refundable.
    let old = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 800).await;
    let late = NOW + 800 + (w.site.settings.refund_days + 1) * DAY;
    assert_eq!(refused(p.refund(&boss, site, old, None, " ", &key(8), late).await), ErrorCode::ReasonRequired);
    assert_eq!(p.refund(&boss, site, old, None, "Coulance <b>na klacht</b>", &key(8), late).await.unwrap().state, RefundState::Done);
    let failed = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Failed, NOW + 900).await;
    assert_eq!(refused(p.refund(&boss, site, failed, None, "", &key(9), NOW + 901).await), ErrorCode::NotRefundable);

    // The timeline shows the refunds and the credit notes; the staff log the refunds.
    let (_, timeline) = p.staff_payment(&boss, site, old).await.unwrap().unwrap();
    let refund = timeline.iter().find(|e| e.kind == "refund").unwrap();
    assert_eq!((refund.amount, refund.note.as_str()), (amount_of(&db, old).await, "Coulance <b>na klacht</b>"));
    assert!(timeline.iter().any(|e| e.kind == "credit_note"));
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'payment_refund'").fetch_one(db.pool()).await.unwrap();
    assert_eq!(logged, 6);

    // The month's report: five bundles paid, four back (one in two halves); the late refund
    // is in the next month's report.
    let last = amount_of(&db, old).await;
    let month = p.sales_report(&boss, site, Period::month_of(NOW)).await.unwrap();
    let row = &month[0];
    assert_eq!((row.payments, row.gross, row.reversals, row.reversed_gross, row.total()), (5, paid_back + last, 5, paid_back, last));
    let next = p.sales_report(&boss, site, Period::month_of(late)).await.unwrap();
    assert_eq!((next[0].payments, next[0].reversals, next[0].total()), (0, 1, -last));
    all_explained(&db).await;
});

on_both_databases!(dashboard_refunds_and_chargebacks_arrive_by_webhook, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let boss = staff(&w).await;
    let anna = w.member("anna@example.nl", "female").await;
    let site = w.site.settings.id;
    let test = p.test_provider().unwrap();

    // Someone refunds half in the test provider's dashboard: heard once, however often reported.
    let first = buy(&db, &p, &w, &anna, 60, PaymentMethod::CreditCard, PaymentStatus::Paid, NOW).await;
    let (amount,): (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(first).fetch_one(db.pool()).await.unwrap();
    let tr = provider_id(&db, first).await;
    let before = balance(&w, anna.id).await;
    test.outside_change(&tr, false, amount / 2).await.unwrap();
    for _ in 0..3 {
        assert_eq!(p.webhook("test", &tr, NOW + 60).await.unwrap(), Some(PaymentStatus::Paid));
    }
    assert_eq!(balance(&w, anna.id).await, before - 30);
    assert_eq!(status(&db, first).await, ("paid".into(), amount / 2));
    assert_eq!(credit_notes(&w).len(), 1);
    all_explained(&db).await;

    // Then the bank charges back the rest: the credits go, card payments stop, the staff log says so.
    test.outside_change(&tr, true, 0).await.unwrap();
    let (x, y) = tokio::join!(p.webhook("test", &tr, NOW + 120), p.webhook("test", &tr, NOW + 120));
    assert_eq!((x.unwrap(), y.unwrap()), (Some(PaymentStatus::ChargedBack), Some(PaymentStatus::ChargedBack)));
    assert_eq!(balance(&w, anna.id).await, before - 60);
    assert_eq!(status(&db, first).await, ("charged_back".into(), amount));
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'payment_chargeback'").fetch_one(db.pool()).await.unwrap();
    assert_eq!(logged, 1);
    assert_eq!(credit_notes(&w).len(), 1, "no credit note for a chargeback");
    let pack = pack_id(&w, &p, 60).await;
    assert_eq!(refused(p.start_checkout(&w.site, &anna, pack, PaymentMethod::Visa, None, "NL", "nl", NOW + 200).await), ErrorCode::PaymentsBlocked);
    assert_eq!(
        refused(p.start_direct_debit(&w.site, &anna, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + 200).await),
        ErrorCode::PaymentsBlocked
    );
    // iDEAL still works; nothing can be refunded of a charged-back payment.
    assert!(p.start_checkout(&w.site, &anna, pack, PaymentMethod::Ideal, None, "NL", "nl", NOW + 200).await.is_ok());
    assert_eq!(refused(p.refund(&boss, site, first, None, "", &key(1), NOW + 200).await), ErrorCode::NotRefundable);
    all_explained(&db).await;

    // Staff lift the block (a member cannot); card payments open again.
    assert_eq!(refused(p.lift_payment_block(&anna, site, anna.id, NOW + 300).await), ErrorCode::NotFound);
    assert!(p.lift_payment_block(&boss, site, anna.id, NOW + 300).await.unwrap());
    assert!(!p.lift_payment_block(&boss, site, anna.id, NOW + 301).await.unwrap());
    assert!(p.start_checkout(&w.site, &anna, pack, PaymentMethod::Visa, None, "NL", "nl", NOW + 400).await.is_ok());

    // The month's report subtracts both.
    let month = p.sales_report(&boss, site, Period::month_of(NOW)).await.unwrap();
    assert_eq!((month[0].reversals, month[0].total()), (2, 0));
});

on_both_databases!(mollie_refunds_with_an_idempotency_key_and_reports_chargebacks, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let (base, fake) = fake_mollie().await;
    let p: Payments = mollie_payments(&w, sms.path(), &base);
    let boss = staff(&w).await;
    let anna = w.member("anna@example.nl", "female").await;
    let site = w.site.settings.id;
    let pack = pack_id(&w, &p, 60).await;

    let buy_at_mollie = |n: u32, at: i64| {
        let (p, w, anna, fake) = (&p, &w, &anna, &fake);
        async move {
            let started = p.start_checkout(&w.site, anna, pack, PaymentMethod::Ideal, None, "NL", "nl", at).await.unwrap();
            set_status(fake, &format!("tr_fake{n}"), "paid");
            assert_eq!(p.webhook("mollie", &format!("tr_fake{n}"), at).await.unwrap(), Some(PaymentStatus::Paid));
            started.payment_id
        }
    };
    let first = buy_at_mollie(1, NOW).await;
    let (amount,): (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(first).fetch_one(db.pool()).await.unwrap();

    // Mollie is down: the refund waits, reserved; the recovery job asks again with the same key.
    fake.lock().unwrap().fail_with = Some(503);
    let waiting = p.refund(&boss, site, first, Some(500), "", &key(1), NOW + 60).await.unwrap();
    assert_eq!(waiting.state, RefundState::Requested);
    assert_eq!(status(&db, first).await, ("paid".into(), 500));
    assert_eq!(
        refused(p.refund(&boss, site, first, Some(amount), "", &key(2), NOW + 61).await),
        ErrorCode::RefundAmountInvalid,
        "the waiting part is reserved"
    );
    fake.lock().unwrap().fail_with = None;
    let report = p.recover(NOW + 200).await.unwrap();
    assert_eq!(report.refunds, 1);
    // A webhook for the refund (Mollie calls the payment's webhook) adds nothing.
    assert_eq!(p.webhook("mollie", "tr_fake1", NOW + 210).await.unwrap(), Some(PaymentStatus::Paid));
    // The rest, sent twice with the same key: Mollie sees the key twice and refunds once.
    let rest = p.refund(&boss, site, first, None, "", &key(3), NOW + 300).await.unwrap();
    let again = p.refund(&boss, site, first, None, "", &key(3), NOW + 301).await.unwrap();
    assert_eq!((rest.refund_id, rest.status, rest.amount), (again.refund_id, PaymentStatus::Refunded, amount - 500));
    {
        let f = fake.lock().unwrap();
        assert_eq!(f.refunds.len(), 2);
        assert_eq!(f.refund_calls.iter().filter(|k| **k == key(1)).count(), 1, "{:?}", f.refund_calls);
        let p1 = &f.payments[0];
        assert_eq!(p1["amountRefunded"]["value"], server::payments::mollie::amount_value(amount));
    }
    // Two staff refund another payment at Mollie at the same moment, each with their own form:
    // Mollie is asked once.
    let parallel = buy_at_mollie(2, NOW + 350).await;
    let (k5, k6) = (key(5), key(6));
    let (x, y) = tokio::join!(p.refund(&boss, site, parallel, None, "", &k5, NOW + 360), p.refund(&boss, site, parallel, None, "", &k6, NOW + 360));
    assert_eq!(u8::from(x.is_ok()) + u8::from(y.is_ok()), 1, "{x:?} {y:?}");
    assert_eq!(fake.lock().unwrap().refunds.len(), 3);
    assert_eq!(status(&db, parallel).await.0, "refunded");
    // Mollie refuses (more than is left at Mollie): the reservation is freed.
    let second = buy_at_mollie(3, NOW + 400).await;
    add_to(&fake, "tr_fake3", "amountChargedBack", amount_of(&db, second).await);
    assert_eq!(refused(p.refund(&boss, site, second, None, "", &key(4), NOW + 450).await), ErrorCode::NotRefundable);
    assert_eq!(status(&db, second).await, ("paid".into(), 0));
    // The chargeback arrives by webhook.
    assert_eq!(p.webhook("mollie", "tr_fake3", NOW + 500).await.unwrap(), Some(PaymentStatus::ChargedBack));
    assert!(p.payments_blocked(anna.id).await.unwrap());

    // A refund in Mollie's dashboard on a third payment.
    p.lift_payment_block(&boss, site, anna.id, NOW + 600).await.unwrap();
    let third = buy_at_mollie(4, NOW + 700).await;
    add_to(&fake, "tr_fake4", "amountRefunded", amount_of(&db, third).await);
    assert_eq!(p.webhook("mollie", "tr_fake4", NOW + 800).await.unwrap(), Some(PaymentStatus::Refunded));
    assert_eq!(p.webhook("mollie", "tr_fake4", NOW + 801).await.unwrap(), Some(PaymentStatus::Refunded));
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM refunds WHERE payment_id = $1").bind(third).fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows, 1);
    all_explained(&db).await;
});

/// Confirms a direct-debit order of the 60-credit bundle with its texted code; answers the payment.
async fn direct_debit(w: &World, p: &Payments, member: &Member, phone: &str, now: i64) -> i64 {
    let pack = pack_id(w, p, 60).await;
    let pending = p.start_direct_debit(&w.site, member, pack, "NL91ABNA0417164300", phone, None, "NL", now).await.unwrap();
    let texts = p.sms().sent_to(&format!("+31{}", &phone[1..]));
    let code = support::shop::sms_code(texts.last().unwrap());
    p.confirm_direct_debit(&w.site, member, pending.id, &code, "NL", now + 10).await.unwrap()
}

on_both_databases!(direct_debit_is_collected_through_mollie_mandates, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let (base, fake) = fake_mollie().await;
    let p: Payments = mollie_payments(&w, sms.path(), &base);
    let anna = w.member("anna@example.nl", "female").await;
    let start = balance(&w, anna.id).await;

    // Credits at once (the default): a customer, a mandate on Anna's account, a recurring
    // payment pending at Mollie; ours is paid and the credits are there.
    let first = direct_debit(&w, &p, &anna, "0612345678", NOW).await;
    assert_eq!(status(&db, first).await.0, "paid");
    assert_eq!(balance(&w, anna.id).await, start + 60);
    {
        let f = fake.lock().unwrap();
        assert_eq!((f.customers.len(), f.mandates.len()), (1, 1));
        assert_eq!(f.customers[0]["email"], "anna@example.nl");
        let body = f.created_bodies.last().unwrap();
        assert_eq!(
            (body["sequenceType"].as_str(), body["customerId"].as_str(), body["mandateId"].as_str()),
            (Some("recurring"), Some("cst_fake1"), Some("mdt_fake1"))
        );
        assert_eq!(body["webhookUrl"], "https://vonk.example/webhooks/payments/mollie");
    }
    let (provider, tr): (String, String) =
        sqlx::query_as("SELECT provider, provider_id FROM payments WHERE id = $1").bind(first).fetch_one(db.pool()).await.unwrap();
    assert_eq!((provider.as_str(), tr.as_str()), ("mollie", "tr_fake1"));
    // Collected: nothing changes. The second order reuses the customer.
    set_status(&fake, "tr_fake1", "paid");
    assert_eq!(p.webhook("mollie", "tr_fake1", NOW + 3 * DAY).await.unwrap(), Some(PaymentStatus::Paid));
    let second = direct_debit(&w, &p, &anna, "0612345678", NOW + 4 * DAY).await;
    assert_eq!(fake.lock().unwrap().customers.len(), 1);
    // The second collection fails: reversed as `vonk payments reverse` would, credits back,
    // direct debit closed for Anna. Heard twice, done once.
    set_status(&fake, "tr_fake2", "failed");
    for _ in 0..2 {
        assert_eq!(p.webhook("mollie", "tr_fake2", NOW + 7 * DAY).await.unwrap(), Some(PaymentStatus::Reversed));
    }
    assert_eq!(status(&db, second).await.0, "reversed");
    assert_eq!(balance(&w, anna.id).await, start + 60);
    assert!(p.direct_debit_blocked(anna.id).await.unwrap());
    all_explained(&db).await;
    // The bank reverses the first, collected one weeks later: a chargeback at Mollie, reversed here.
    add_to(&fake, "tr_fake1", "amountChargedBack", amount_of(&db, first).await);
    assert_eq!(p.webhook("mollie", "tr_fake1", NOW + 40 * DAY).await.unwrap(), Some(PaymentStatus::Reversed));
    assert_eq!(balance(&w, anna.id).await, start);
    all_explained(&db).await;

    // Credits on collection (the site's choice): Bart's order waits pending, with no credits,
    // until Mollie collected it.
    sqlx::query("UPDATE sites SET direct_debit_on_collection = $1").bind(true).execute(db.pool()).await.unwrap();
    let bart = w.member("bart@example.nl", "male").await;
    let bart_start = balance(&w, bart.id).await;
    let third = direct_debit(&w, &p, &bart, "0687654321", NOW + 50 * DAY).await;
    assert_eq!(status(&db, third).await.0, "pending");
    assert_eq!(balance(&w, bart.id).await, bart_start);
    assert_eq!(p.webhook("mollie", "tr_fake3", NOW + 51 * DAY).await.unwrap(), Some(PaymentStatus::Pending));
    set_status(&fake, "tr_fake3", "paid");
    assert_eq!(p.webhook("mollie", "tr_fake3", NOW + 53 * DAY).await.unwrap(), Some(PaymentStatus::Paid));
    assert_eq!(balance(&w, bart.id).await, bart_start + 60);

    // Mollie down when the code is confirmed: the payment waits open, and the recovery job
    // hands it over later (one customer and one mandate more: a mandate per order).
    let cora = w.member("cora@example.nl", "female").await;
    fake.lock().unwrap().fail_with = Some(503);
    let fourth = direct_debit(&w, &p, &cora, "0611112222", NOW + 60 * DAY).await;
    assert_eq!(status(&db, fourth).await.0, "open");
    fake.lock().unwrap().fail_with = None;
    p.recover(NOW + 60 * DAY + 3600).await.unwrap();
    assert_eq!(status(&db, fourth).await.0, "pending");
    {
        let f = fake.lock().unwrap();
        assert_eq!((f.customers.len(), f.mandates.len()), (3, 4));
    }
    all_explained(&db).await;
});

on_both_databases!(direct_debit_through_the_test_provider, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let start = balance(&w, anna.id).await;
    sqlx::query("UPDATE sites SET direct_debit_on_collection = $1").bind(true).execute(db.pool()).await.unwrap();
    let payment = direct_debit(&w, &p, &anna, "0612345678", NOW).await;
    assert_eq!(status(&db, payment).await.0, "pending");
    // `vonk payments collect` plays the bank: collected, the credits come.
    let tr = provider_id(&db, payment).await;
    p.test_provider().unwrap().collect(&tr, true).await.unwrap();
    assert_eq!(p.webhook("test", &tr, NOW + DAY).await.unwrap(), Some(PaymentStatus::Paid));
    assert_eq!(balance(&w, anna.id).await, start + 60);
    assert!(p.test_provider().unwrap().collect(&tr, false).await.is_err(), "a collected debit is not collected again");
    all_explained(&db).await;
});

on_both_databases!(a_partly_refunded_payment_says_what_went_back_and_what_remains, |db: Db| async move {
    let (w, _sms, p) = support::shop::shop(db.clone()).await;
    let boss = staff(&w).await;
    let anna = w.member("anna@example.nl", "female").await;
    let site = w.site.settings.id;
    let paid = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW).await;
    let amount = amount_of(&db, paid).await;
    let euros = |minor: i64| domain::site::format_money(minor, "EUR", true);

    // Before any refund the receipt has neither line.
    let before = w.accounts.receipt(&w.site, anna.id, &p.payment(anna.id, paid).await.unwrap()).await.unwrap();
    assert!(!before.rows.iter().any(|(label, _)| label == "Terugbetaald" || label == "Resterend bedrag"), "{:?}", before.rows);

    // € 5,00 back: the receipt (mail rows and PDF) says so, and what remains.
    p.refund(&boss, site, paid, Some(500), "", &key(1), NOW + 60).await.unwrap();
    let receipt = w.accounts.receipt(&w.site, anna.id, &p.payment(anna.id, paid).await.unwrap()).await.unwrap();
    let row = |label: &str| receipt.rows.iter().find(|(l, _)| l == label).map(|(_, v)| v.clone());
    assert_eq!(row("Totaal (incl. btw)"), Some(euros(amount)), "the total stays what was paid: {:?}", receipt.rows);
    assert_eq!(receipt.rows[receipt.total_row].1, euros(amount));
    assert_eq!(row("Terugbetaald"), Some(format!("−{}", euros(500))));
    assert_eq!(row("Resterend bedrag"), Some(euros(amount - 500)));
    let text = support::pdf_text(&p.receipt_pdf(anna.id, paid).await.unwrap());
    for (label, value) in &receipt.rows {
        assert!(text.contains(label.as_str()) && text.contains(value.as_str()), "{label}: {value} in {text}");
    }

    // Each credit note says the refunded total and what remains after it.
    p.refund(&boss, site, paid, Some(amount - 500), "", &key(2), NOW + 120).await.unwrap();
    let notes: Vec<String> = credit_notes(&w).iter().map(|n| support::decode_qp(n)).collect();
    assert_eq!(notes.len(), 2);
    assert!(notes.iter().all(|n| n.contains("Totaal terugbetaald op deze betaling") && n.contains("Resterend bedrag")), "{}", notes[0]);
    let after_first = format!("Resterend bedrag: {}", euros(amount - 500));
    let after_second = format!("Resterend bedrag: {}", euros(0));
    assert!(notes.iter().any(|n| n.contains(&after_first)) && notes.iter().any(|n| n.contains(&after_second)), "{after_first} / {after_second} in {notes:?}");
    // A fully refunded payment's receipt is no longer offered.
    assert_eq!(refused(p.receipt_pdf(anna.id, paid).await), ErrorCode::NotFound);
});
