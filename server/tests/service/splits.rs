//! Split tests of landers on both databases: staff start one (refused when its name, designs or
//! weights do not check out, when the name was used, when the lander has one running), each
//! visitor keeps the design drawn for them, the visit, the signup and the payments count under
//! the variant, and the report gives each design its visits, signups, buyers and money; staff
//! stop it, and members and support can do none of it. Price tests likewise: each member keeps
//! the price they were shown first, pays it, and what they pay from then on counts for it.

use crate::support;

use domain::account::Tracking;
use domain::checkout::PaymentStatus;
use domain::figures::{Dimension, FigureQuery, Grain, Metric};
use domain::payment::PaymentMethod;
use domain::staff::StaffRole;
use domain::visits::{landing, Device};
use domain::ErrorCode;
use server::accounts::Client;
use server::clock::Clock;
use server::figures::Figures;
use server::splits::Splits;
use server::visits::{Visit, Visits};
use server::Db;
use support::shop::{buy, refused, shop};
use support::world::NOW;

const DAY: i64 = 86_400;

fn rows(designs: &[(&str, &str)]) -> Vec<(String, String)> {
    designs.iter().map(|(d, w)| (d.to_string(), w.to_string())).collect()
}

/// A visitor's cookie value (64 characters, as the middleware makes them).
fn visitor(n: usize) -> String {
    format!("{n:0>64}")
}

on_both_databases!(a_split_test_shares_a_lander_and_counts_each_design_apart, |db: Db| async move {
    let (w, _sms, payments) = shop(db.clone()).await;
    let site = w.site.id;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "baas@example.nl", StaffRole::Finance).await;
    let boss = w.reload(boss.id).await;
    let helper = w.member("help@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "help@example.nl", StaffRole::Support).await;
    let helper = w.reload(helper.id).await;
    let member = w.member("lid@example.nl", "male").await;
    let splits = Splits::new(db.clone(), Clock::fixed(NOW));
    let even = rows(&[("gallery", "50"), ("collagelanding", "50"), ("", "")]);

    // Refusals change nothing.
    assert_eq!(refused(splits.start(&member, site, "spring", "gallery", &even).await), ErrorCode::NotFound);
    assert_eq!(refused(splits.start(&helper, site, "spring", "gallery", &even).await), ErrorCode::NotFound);
    assert_eq!(refused(splits.start(&boss, site, "<b>Spring</b>", "gallery", &even).await), ErrorCode::SplitNameInvalid);
    assert_eq!(refused(splits.start(&boss, site, "spring", "gallery", &rows(&[("gallery", "50")])).await), ErrorCode::SplitDesignsInvalid);
    assert_eq!(refused(splits.start(&boss, site, "spring", "gallery", &rows(&[("gallery", "0"), ("video", "5")])).await), ErrorCode::SplitWeightInvalid);
    assert_eq!(refused(splits.start(&boss, site, "spring", "nope", &even).await), ErrorCode::BadRequest);
    assert!(splits.list(&boss, site).await.unwrap().is_empty());

    let id = splits.start(&boss, site, " spring ", "gallery", &even).await.unwrap();
    // One running test per lander, a name once; two starts at once: one wins.
    assert_eq!(refused(splits.start(&boss, site, "other", "gallery", &even).await), ErrorCode::SplitRunning);
    assert_eq!(refused(splits.start(&boss, site, "spring", "video", &even).await), ErrorCode::SplitNameTaken);
    let twice = futures_util::future::join_all((0..2).map(|i| {
        let (splits, boss) = (splits.clone(), boss.clone());
        let name = format!("race-{i}");
        async move { splits.start(&boss, site, &name, "maplanding", &rows(&[("maplanding", "1"), ("video", "1")])).await }
    }))
    .await;
    assert_eq!(twice.iter().filter(|r| r.is_ok()).count(), 1, "{twice:?}");
    let tests = splits.list(&boss, site).await.unwrap();
    assert_eq!(tests.len(), 2);
    assert!(tests.iter().any(|t| t.id == id && t.name == "spring" && t.running() && t.variants.len() == 2));

    // Each visitor keeps their design; both designs are shown; other landers are not under test.
    let mut seen = std::collections::HashMap::new();
    for n in 0..200 {
        let shown = splits.shown(site, "gallery", &visitor(n)).await.expect("under test");
        assert_eq!(splits.shown(site, "gallery", &visitor(n)).await, Some(shown.clone()));
        *seen.entry(shown.design.clone()).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(seen.values().all(|n| *n > 60), "an even split: {seen:?}");
    assert_eq!(splits.shown(site, "video", &visitor(1)).await, None);

    // Two visitors, one per design, land from a network; the first signs up and buys.
    let mut first = std::collections::HashMap::new();
    for n in 0..200 {
        let shown = splits.shown(site, "gallery", &visitor(n)).await.unwrap();
        first.entry(shown.design).or_insert(n);
    }
    let (a, b) = (first["gallery"], first["collagelanding"]);
    let visits = Visits::new(db.clone());
    for n in [a, b] {
        let shown = splits.shown(site, "gallery", &visitor(n)).await.unwrap();
        let visit = Visit {
            site_id: site,
            visitor: visitor(n),
            landing: landing("/landers/gallery/spring").unwrap(),
            tracking: Tracking { network: Some("adnet".into()), ..Default::default() },
            click_id: None,
            country: Some("NL".into()),
            device: Device::Mobile,
            ip_prefix: None,
            variant: Some(shown.variant),
            at: NOW - 600,
        };
        assert!(visits.record(&visit).await.unwrap());
    }
    let phone = Client::new(None, Some("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"), Some("NL".into()));
    let new = w.sign_up_with("nieuw@example.nl", "Sanne", Tracking::default(), phone.with_visitor(Some(visitor(a)))).await;
    let (variant,): (Option<String>,) = sqlx::query_as("SELECT variant FROM member_sources WHERE user_id = $1").bind(new).fetch_one(db.pool()).await.unwrap();
    assert_eq!(variant.as_deref(), Some("spring:gallery"));
    let buyer = w.reload(new).await;
    let paid = buy(&db, &payments, &w, &buyer, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 60).await;
    let (amount,): (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(paid).fetch_one(db.pool()).await.unwrap();

    let report = splits.report(&boss, site, id).await.unwrap();
    assert_eq!(report.currency, "EUR");
    let figures: Vec<(&str, i64, i64, i64, i64)> = report.variants.iter().map(|v| (v.design.as_str(), v.visits, v.signups, v.buyers, v.net)).collect();
    assert_eq!(figures, vec![("gallery", 1, 1, 1, amount), ("collagelanding", 1, 0, 0, 0)]);
    assert_eq!(report.variants[0].signup_rate.0, 1.0);
    assert_eq!(report.winner, None, "two visits decide nothing");
    // The funnel groups by variant too.
    let q = FigureQuery {
        from: NOW.div_euclid(DAY) - 1,
        to: NOW.div_euclid(DAY) + 1,
        grain: Grain::Day,
        by: Dimension::Variant,
        network: String::new(),
        sort: Metric::Net,
        ascending: false,
        chart: Metric::Net,
        currency: String::new(),
    };
    let funnel = Figures::new(db.clone()).funnel(&boss, site, &q).await.unwrap();
    let gallery = funnel.rows.iter().find(|r| r.value == "spring:gallery").expect("the variant's row");
    assert_eq!((gallery.counts.visits, gallery.counts.signups, gallery.counts.buyers, gallery.counts.gross), (1, 1, 1, amount));
    assert!(funnel.rows.iter().any(|r| r.value == "spring:collagelanding" && r.counts.visits == 1));
    // Someone else's report: refused.
    assert_eq!(refused(splits.report(&helper, site, id).await), ErrorCode::NotFound);
    assert_eq!(refused(splits.report(&boss, site, 999_999).await), ErrorCode::NotFound);

    // Stopping: support and members cannot; staff can, once; the lander is itself again.
    assert_eq!(refused(splits.stop(&helper, site, id).await), ErrorCode::NotFound);
    splits.stop(&boss, site, id).await.unwrap();
    assert_eq!(refused(splits.stop(&boss, site, id).await), ErrorCode::NotFound);
    assert_eq!(splits.shown(site, "gallery", &visitor(a)).await, None);
    assert!(splits.report(&boss, site, id).await.unwrap().test.stopped_at.is_some(), "its figures stay");
    // A new test may run on the lander now, under a new name.
    splits.start(&boss, site, "summer", "gallery", &even).await.unwrap();
    let (logged,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action IN ('split_started', 'split_stopped')").fetch_one(db.pool()).await.unwrap();
    assert_eq!(logged, 4, "two starts of spring and summer, the race's winner, one stop");
});

on_both_databases!(a_price_test_fixes_each_members_price_and_counts_what_they_pay, |db: Db| async move {
    let (w, _sms, payments) = shop(db.clone()).await;
    let site = w.site.id;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "baas@example.nl", StaffRole::Finance).await;
    let boss = w.reload(boss.id).await;
    let helper = w.member("help@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "help@example.nl", StaffRole::Support).await;
    let helper = w.reload(helper.id).await;
    let anna = w.member("anna@example.nl", "female").await;
    let clock = Clock::fixed(NOW);
    let splits = Splits::new(db.clone(), clock.clone());
    let p = payments.with_splits(splits.clone());
    let pack = support::shop::pack_id(&w, &p, 60).await;
    let small = support::shop::pack_id(&w, &p, 25).await;
    let own = |packs: &[domain::site::CreditPack], id: i64| packs.iter().find(|x| x.id == id).unwrap().price_minor;
    let base = own(&p.packs(site, "NL").await.unwrap(), pack);
    let small_price = own(&p.packs(site, "NL").await.unwrap(), small);
    let (low, high) = (base - 500, base + 500);
    let prices = |a: &str, b: &str| vec![(a.to_string(), "50".to_string()), (b.to_string(), "50".to_string())];
    let even = prices(&domain::money::form_value(low), &domain::money::form_value(high));

    // Refusals change nothing.
    assert_eq!(refused(splits.start_price(&anna, site, "dearer", pack, &even).await), ErrorCode::NotFound);
    assert_eq!(refused(splits.start_price(&helper, site, "dearer", pack, &even).await), ErrorCode::NotFound);
    assert_eq!(refused(splits.start_price(&boss, site, "<b>x</b>", pack, &even).await), ErrorCode::SplitNameInvalid);
    assert_eq!(refused(splits.start_price(&boss, site, "dearer", pack, &prices("19,95", "19.95")).await), ErrorCode::SplitPricesInvalid);
    assert_eq!(refused(splits.start_price(&boss, site, "dearer", pack, &prices("0", "5")).await), ErrorCode::SplitPricesInvalid);
    assert_eq!(refused(splits.start_price(&boss, site, "dearer", 999_999, &even).await), ErrorCode::BadRequest, "not the site's bundle");
    assert!(splits.list(&boss, site).await.unwrap().is_empty());
    let id = splits.start_price(&boss, site, "dearer", pack, &even).await.unwrap();
    assert_eq!(refused(splits.start_price(&boss, site, "other", pack, &even).await), ErrorCode::SplitRunning, "one test per bundle");
    assert_eq!(refused(splits.start_price(&boss, site, "dearer", small, &even).await), ErrorCode::SplitNameTaken);
    // A lander test runs beside it.
    splits.start(&boss, site, "beside", "gallery", &rows(&[("gallery", "1"), ("video", "1")])).await.unwrap();

    // Visitors: each keeps the price their cookie draws, both prices are shown, the other
    // bundles keep theirs; without a cookie, the bundle's own price.
    let price_for = |packs: Vec<domain::site::CreditPack>| own(&packs, pack);
    let mut by_price: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
    for n in 0..100 {
        let packs = p.priced_packs(site, None, Some(&visitor(n)), "NL", NOW).await.unwrap();
        assert_eq!(own(&packs, small), small_price);
        let price = price_for(packs);
        assert_eq!(price_for(p.priced_packs(site, None, Some(&visitor(n)), "NL", NOW).await.unwrap()), price);
        by_price.entry(price).or_insert(n);
    }
    assert_eq!(by_price.len(), 2, "{by_price:?}");
    let (at_low, at_high) = (by_price[&low], by_price[&high]);
    assert_eq!(price_for(p.priced_packs(site, None, None, "NL", NOW).await.unwrap()), base);
    // Staff see the bundle's own price and are not counted.
    assert_eq!(price_for(p.priced_packs(site, Some(&boss), Some(&visitor(at_low)), "NL", NOW).await.unwrap()), base);

    // A member is shown the price their browser's cookie draws, and keeps it on another device
    // and at checkout; the quote, the payment and the receipt's list price carry it.
    let offer = p.offer(&w.site, &anna, Some(&visitor(at_low)), None, "NL", NOW).await.unwrap();
    assert_eq!(offer.packs.iter().find(|(x, _)| x.id == pack).unwrap().0.price_minor, low);
    let elsewhere = p.offer(&w.site, &anna, Some(&visitor(at_high)), None, "NL", NOW + 10).await.unwrap();
    assert_eq!(elsewhere.packs.iter().find(|(x, _)| x.id == pack).unwrap().0.price_minor, low, "fixed at the first page");
    let quote = p.quote(&w.site, &anna, pack, None, "NL", NOW + 20).await.unwrap();
    assert_eq!(quote.list_price, low);
    let paid = buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 60).await;
    let (list_price, amount): (i64, i64) =
        sqlx::query_as("SELECT list_price, amount FROM payments WHERE id = $1").bind(paid).fetch_one(db.pool()).await.unwrap();
    assert_eq!((list_price, amount), (low, quote.amount));

    // Two first pages at once from two devices fix one price.
    let bart = w.member("bart@example.nl", "male").await;
    let both = futures_util::future::join_all([at_low, at_high].map(|n| {
        let (p, site_row, bart) = (p.clone(), w.site.clone(), bart.clone());
        async move { p.offer(&site_row, &bart, Some(&visitor(n)), None, "NL", NOW).await.unwrap() }
    }))
    .await;
    let seen: Vec<i64> = both.iter().map(|o| o.packs.iter().find(|(x, _)| x.id == pack).unwrap().0.price_minor).collect();
    assert_eq!(seen[0], seen[1], "{seen:?}");
    let (rows_for_bart,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM price_exposures WHERE user_id = $1").bind(bart.id).fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows_for_bart, 1);

    // Money before the member was shown a price does not count; after, any bundle counts.
    let carl = w.member("carl@example.nl", "male").await;
    let before = buy(&db, &p, &w, &carl, 25, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 100).await;
    let carl_price = price_for(p.priced_packs(site, Some(&carl), None, "NL", NOW + 200).await.unwrap());
    let carl = w.reload(carl.id).await;
    let after = buy(&db, &p, &w, &carl, 25, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 300).await;
    let amount_of = |id: i64| {
        let db = db.clone();
        async move { sqlx::query_as::<_, (i64,)>("SELECT amount FROM payments WHERE id = $1").bind(id).fetch_one(db.pool()).await.unwrap().0 }
    };
    let (before_amount, after_amount) = (amount_of(before).await, amount_of(after).await);

    let figures = |r: &server::splits::Report| r.variants.iter().map(|v| (v.design.clone(), v.visits, v.buyers, v.net)).collect::<Vec<_>>();
    let report = splits.report(&boss, site, id).await.unwrap();
    assert_eq!(report.currency, "EUR");
    let bart_price = seen[0];
    let want = |price: i64| {
        let members = [low, bart_price, carl_price].iter().filter(|x| **x == price).count() as i64;
        let net = if price == low { amount } else { 0 } + if price == carl_price { after_amount } else { 0 };
        let buyers = i64::from(price == low) + i64::from(price == carl_price);
        (price.to_string(), members, buyers, net)
    };
    assert_eq!(figures(&report), vec![want(low), want(high)], "carl's first payment ({before_amount}) came before his price");
    assert_eq!(report.winner, None);

    // A refund takes the money out of the test it counted in, once.
    let key = "0123456789abcdef0123456789abcdef";
    p.refund(&boss, site, paid, None, "", key, NOW + 400).await.unwrap();
    p.refund(&boss, site, paid, None, "", key, NOW + 400).await.unwrap();
    let report = splits.report(&boss, site, id).await.unwrap();
    let low_row = report.variants.iter().find(|v| v.design == low.to_string()).unwrap();
    assert_eq!(low_row.net, if carl_price == low { after_amount } else { 0 });
    assert_eq!(refused(splits.report(&helper, site, id).await), ErrorCode::NotFound);

    // Stopped: everyone pays the bundle's own price again, later money does not count.
    clock.advance(450);
    splits.stop(&boss, site, id).await.unwrap();
    assert_eq!(p.quote(&w.site, &anna, pack, None, "NL", NOW + 500).await.unwrap().list_price, base);
    let anna = w.reload(anna.id).await;
    buy(&db, &p, &w, &anna, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 600).await;
    assert_eq!(figures(&splits.report(&boss, site, id).await.unwrap()), figures(&report), "its figures stay as they were");
    let (logged,): (String,) =
        sqlx::query_as("SELECT target FROM staff_actions WHERE action = 'split_started' ORDER BY id LIMIT 1").fetch_one(db.pool()).await.unwrap();
    assert_eq!(logged, format!("dearer (pack:{pack})"));
});
