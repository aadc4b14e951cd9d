//! Staff and the money, on SQLite and PostgreSQL: finding payments by member, id, status,
//! method and date; a payment's timeline; the sales report per month and quarter with a
//! reversal subtracted in the month it happened; members and other sites see nothing.

use crate::support;

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use domain::sales::Period;
use domain::ErrorCode;
use server::payments::staff::PaymentFilter;
use server::Db;
use support::shop::{buy, pack_id, payments, refused, sms_code};
use support::world::{world, NOW};

on_both_databases!(staff_find_payments_read_their_timeline_and_the_sales_report, |db: Db| async move {
    let w = world(db.clone()).await;
    let sms = tempfile::tempdir().unwrap();
    let p = payments(&w, sms.path());
    let anna = w.member("anna@example.nl", "female").await;
    let bart = w.member("bart@example.nl", "male").await;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&w.db, &w.accounts, "baas@example.nl", domain::staff::StaffRole::Admin).await;
    let boss = w.reload(boss.id).await;
    let site = w.site.settings.id;

    let first = buy(&db, &p, &w, &anna, 25, PaymentMethod::Ideal, PaymentStatus::Paid, NOW).await;
    let failed = buy(&db, &p, &w, &bart, 25, PaymentMethod::CreditCard, PaymentStatus::Failed, NOW + 10).await;
    // Bart pays by direct debit; the bank takes it back forty days later.
    let pack = pack_id(&w, &p, 60).await;
    let pending = p.start_direct_debit(&w.site, &bart, pack, "NL91ABNA0417164300", "0612345678", None, "NL", NOW + 20).await.unwrap();
    let code = sms_code(&p.sms().sent_to("+31612345678")[0]);
    let debit = p.confirm_direct_debit(&w.site, &bart, pending.id, &code, "NL", NOW + 30).await.unwrap();
    let back_at = NOW + 40 * 86_400;
    p.reverse(debit, back_at).await.unwrap();

    // Finding: by address, by number, by status, method and date; a member finds nothing.
    let find = |filter: PaymentFilter| {
        let (p, boss) = (&p, &boss);
        async move { p.staff_find(boss, site, &filter).await.unwrap().into_iter().map(|x| x.id).collect::<Vec<_>>() }
    };
    assert_eq!(find(PaymentFilter::default()).await, vec![debit, failed, first], "newest first");
    assert_eq!(find(PaymentFilter { member: Some(" ANNA@example.nl ".into()), ..Default::default() }).await, vec![first]);
    assert_eq!(find(PaymentFilter { member: Some(format!("#{}", bart.id)), ..Default::default() }).await, vec![debit, failed]);
    assert_eq!(find(PaymentFilter { payment: Some(failed), ..Default::default() }).await, vec![failed]);
    assert_eq!(find(PaymentFilter { status: Some(PaymentStatus::Reversed), ..Default::default() }).await, vec![debit]);
    assert_eq!(find(PaymentFilter { method: Some(PaymentMethod::Ideal), ..Default::default() }).await, vec![first]);
    assert_eq!(find(PaymentFilter { from: Some(NOW + 5), until: Some(NOW + 25), ..Default::default() }).await, vec![failed]);
    assert_eq!(find(PaymentFilter { member: Some("' OR 1=1 --".into()), ..Default::default() }).await, Vec::<i64>::new());
    assert_eq!(refused(p.staff_find(&anna, site, &PaymentFilter::default()).await), ErrorCode::NotFound);
    assert_eq!(refused(p.staff_find(&boss, site + 1, &PaymentFilter::default()).await), ErrorCode::NotFound);

    // The timeline of the reversed debit: created, paid, booked, taken back.
    let (found, timeline) = p.staff_payment(&boss, site, debit).await.unwrap().unwrap();
    assert_eq!((found.member_id, found.amount, found.status.as_str()), (bart.id, 1496, "reversed"));
    let kinds: Vec<&str> = timeline.iter().map(|e| e.kind).collect();
    for kind in ["created", "paid", "booked", "reversed", "credits_back"] {
        assert!(kinds.contains(&kind), "{kinds:?}");
    }
    assert_eq!(timeline.iter().find(|e| e.kind == "booked").unwrap().credits, 60);
    assert!(timeline.windows(2).all(|pair| pair[0].at <= pair[1].at));
    assert_eq!(refused(p.staff_payment(&anna, site, debit).await), ErrorCode::NotFound);
    assert!(p.staff_payment(&boss, site, debit + 1000).await.unwrap().is_none());

    // The month of the sales: both paid payments (NL, 21 %); the failed one is no sale.
    let sold = Period::month_of(NOW);
    let report = p.sales_report(&boss, site, sold).await.unwrap();
    assert_eq!(report.len(), 1);
    let first_amount: (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(first).fetch_one(db.pool()).await.unwrap();
    assert_eq!((report[0].country.as_str(), report[0].vat_rate_bp, report[0].payments, report[0].gross), ("NL", 2100, 2, first_amount.0 + 1496));
    assert_eq!(report[0].vat, domain::checkout::vat_part(first_amount.0, 2100) + domain::checkout::vat_part(1496, 2100));
    // The reversal counts in its own month, as a correction.
    let back = p.sales_report(&boss, site, Period::month_of(back_at)).await.unwrap();
    assert_eq!((back.len(), back[0].payments, back[0].reversals, back[0].total()), (1, 0, 1, -1496));
    assert_eq!(refused(p.sales_report(&anna, site, sold).await), ErrorCode::NotFound);
});
