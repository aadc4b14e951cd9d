//! Split tests of landers on both databases: staff start one (refused when its name, designs or
//! weights do not check out, when the name was used, when the lander has one running), each
//! visitor keeps the design drawn for them, the visit, the signup and the payments count under
//! the variant, and the report gives each design its visits, signups, buyers and money; staff
//! stop it, and members and support can do none of it.

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
