//! The owner's figures on both databases: each event of a converted click (its visit, the
//! signup, the confirmation, purchases, a refund) counts once on its day under the member's
//! source — per network, within the network per sub id, per lander, country and device — with
//! buyers distinct over the period and the cohort's money kept on its signup day; members are
//! refused the figures.

use crate::support;

use domain::account::Tracking;
use domain::checkout::PaymentStatus;
use domain::figures::{Counts, Dimension, FigureQuery, Grain, Metric};
use domain::payment::PaymentMethod;
use domain::staff::StaffRole;
use domain::visits::{landing, Device};
use server::accounts::Client;
use server::figures::Figures;
use server::visits::{Visit, Visits};
use server::Db;
use support::shop::{buy, refused, shop};
use support::world::{World, NOW};

const CLICKED: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const DAY: i64 = 86_400;

fn query(by: Dimension, network: &str) -> FigureQuery {
    let today = NOW.div_euclid(DAY) + 40;
    FigureQuery {
        from: today - 45,
        to: today,
        grain: Grain::Week,
        by,
        network: network.into(),
        sort: Metric::Net,
        ascending: false,
        chart: Metric::Net,
        currency: String::new(),
    }
}

fn row(funnel: &server::figures::Funnel, value: &str) -> Counts {
    funnel.rows.iter().find(|r| r.value == value).unwrap_or_else(|| panic!("no row {value}: {:?}", funnel.rows)).counts
}

/// The activation token in the newest mail to `email`.
fn activation(w: &World, email: &str) -> String {
    let mail = std::fs::read_dir(w.mail.path())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|m| m.contains(&format!("To: {email}")) && m.contains("activate?token"))
        .expect("the activation mail");
    let mail = support::decode_qp(&mail);
    let start = mail.find("/activate?token=").unwrap() + "/activate?token=".len();
    mail[start..start + 64].to_string()
}

on_both_databases!(each_event_of_a_converted_click_counts_once_under_its_source, |db: Db| async move {
    let (w, _sms, payments) = shop(db.clone()).await;
    let site = w.site.id;
    let boss = w.member("baas@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "baas@example.nl", StaffRole::Finance).await;
    let boss = w.reload(boss.id).await;
    let figures = Figures::new(db.clone());
    let before = figures.funnel(&boss, site, &query(Dimension::Network, "")).await.unwrap();

    // A click from the network lands on a lander, from a phone in the Netherlands; the same
    // visitor comes back (ten times at once): one visit.
    let visits = Visits::new(db.clone());
    let visit = Visit {
        site_id: site,
        visitor: CLICKED.into(),
        landing: landing("/landers/swipe").unwrap(),
        tracking: Tracking { network: Some("adnet".into()), sub1: Some("banner <7>".into()), ..Default::default() },
        click_id: Some("klik-1".into()),
        country: Some("NL".into()),
        device: Device::Mobile,
        ip_prefix: None,
        variant: None,
        at: NOW - 3600,
    };
    let all = futures_util::future::join_all((0..10).map(|_| visits.record(&visit))).await;
    assert_eq!(all.into_iter().filter(|r| *r.as_ref().unwrap()).count(), 1);
    // Someone else's visit without a source, from a desktop.
    let plain = Visit { visitor: "f".repeat(64), tracking: Tracking::default(), click_id: None, device: Device::Desktop, ..visit.clone() };
    visits.record(&plain).await.unwrap();

    // The click's visitor signs up from the phone, and confirms.
    let phone = Client::new(None, Some("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1"), Some("NL".into()));
    let id = w.sign_up_with("klik@example.nl", "Sanne", Tracking::default(), phone.with_visitor(Some(CLICKED.into()))).await;
    let token = activation(&w, "klik@example.nl");
    w.accounts.activate(&token).await.unwrap();
    assert!(w.accounts.activate(&token).await.is_err(), "a second use confirms nothing");
    let member = w.reload(id).await;
    // Two purchases on the day, one a day later; the second refunded in full the next day.
    let first = buy(&db, &payments, &w, &member, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 60).await;
    let second = buy(&db, &payments, &w, &member, 150, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 120).await;
    let later = buy(&db, &payments, &w, &member, 60, PaymentMethod::Ideal, PaymentStatus::Paid, NOW + 3 * DAY).await;
    let amount = |id: i64| {
        let db = db.clone();
        async move {
            let (a,): (i64,) = sqlx::query_as("SELECT amount FROM payments WHERE id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
            a
        }
    };
    let (a1, a2, a3) = (amount(first).await, amount(second).await, amount(later).await);
    // A payment whose webhook comes twice counts once.
    let tr = support::shop::provider_id(&db, later).await;
    payments.webhook("test", &tr, NOW + 3 * DAY + 5).await.unwrap();
    let admin = w.member("admin@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "admin@example.nl", StaffRole::Admin).await;
    let admin = w.reload(admin.id).await;
    payments.refund(&admin, site, second, None, "", "0123456789abcdef0123456789abcdef", NOW + DAY).await.unwrap();

    let funnel = figures.funnel(&boss, site, &query(Dimension::Network, "")).await.unwrap();
    let adnet = row(&funnel, "adnet");
    assert_eq!(
        adnet,
        Counts {
            visits: 1,
            signups: 1,
            confirmed: 1,
            first_purchases: 1,
            buyers: 1,
            purchases: 3,
            gross: a1 + a2 + a3,
            refunded: a2,
            // The refund came a day after the signup: after the first day's window.
            cohort_1d: a1 + a2,
            cohort_7d: a1 + a3,
            cohort_30d: a1 + a3,
        }
    );
    // Everything else (the plain visit, the staff accounts made above) counts under no network.
    assert_eq!(row(&funnel, "").visits - before.rows.iter().find(|r| r.value.is_empty()).map_or(0, |r| r.counts.visits), 1);
    // The total is the sum of the networks, buyers distinct.
    let mut sum = Counts::default();
    for r in &funnel.rows {
        sum += r.counts;
    }
    assert_eq!(Counts { buyers: 0, ..funnel.total }, Counts { buyers: 0, ..sum });
    assert_eq!(funnel.total.buyers, 1);
    assert_eq!((funnel.currency.as_str(), funnel.currencies.clone(), funnel.networks.clone()), ("EUR", vec!["EUR".to_string()], vec!["adnet".to_string()]));
    // The chart's weeks hold the same, and the network's revenue per visit is its net.
    let mut weeks = Counts::default();
    for (_, c) in &funnel.periods {
        weeks += Counts { buyers: 0, ..*c };
    }
    assert_eq!(weeks, Counts { buyers: 0, ..funnel.total });
    assert_eq!(adnet.value(Metric::RevenuePerVisit), (a1 + a3) as f64);

    // Within the network, by sub id, lander, device and country.
    for (by, value) in [(Dimension::Sub1, "banner <7>"), (Dimension::Lander, "swipe"), (Dimension::Device, "mobile"), (Dimension::Country, "NL")] {
        let within = figures.funnel(&boss, site, &query(by, "adnet")).await.unwrap();
        assert_eq!(within.rows.len(), 1, "{by:?}: {:?}", within.rows);
        assert_eq!(row(&within, value), adnet, "{by:?}");
        assert_eq!(within.total.buyers, 1);
    }
    // Another network has nothing.
    let other = figures.funnel(&boss, site, &query(Dimension::Sub1, "andere")).await.unwrap();
    assert!(other.rows.is_empty() && other.total.is_empty());

    // Members and support are refused.
    assert_eq!(refused(figures.funnel(&member, site, &query(Dimension::Network, "")).await), domain::ErrorCode::NotFound);
    let support_staff = w.member("hulp@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "hulp@example.nl", StaffRole::Support).await;
    let support_staff = w.reload(support_staff.id).await;
    assert_eq!(refused(figures.funnel(&support_staff, site, &query(Dimension::Network, "")).await), domain::ErrorCode::NotFound);
});

on_both_databases!(a_long_range_read_from_its_months_weeks_and_days_gives_what_its_days_hold, |db: Db| async move {
    let w = support::world::world(db.clone()).await;
    let geld = w.member("geld@example.nl", "female").await;
    support::grant_staff(&db, &w.accounts, "geld@example.nl", StaffRole::Finance).await;
    let geld = w.reload(geld.id).await;
    let site = w.site.settings.id;
    let today = NOW.div_euclid(DAY);
    // 130 days of visits and purchases under three sub ids, added as the events add them.
    let mut tx = db.begin().await.unwrap();
    for day in today - 129..=today {
        for (i, sub) in ["a", "b", "c"].into_iter().enumerate() {
            let tracking = Tracking { network: Some("net".into()), sub3: Some(sub.into()), ..Tracking::default() };
            let source = domain::figures::Source::new(&tracking, None, Some("NL".into()), None);
            let visits = Counts { visits: 1 + (day + i as i64).rem_euclid(4), ..Counts::default() };
            server::figures::add(&mut tx, site, &source, day, "", visits).await.unwrap();
            if (day + i as i64).rem_euclid(5) == 0 {
                let bought = Counts { purchases: 1, gross: 1995, ..Counts::default() };
                server::figures::add(&mut tx, site, &source, day, "EUR", bought).await.unwrap();
            }
        }
    }
    tx.commit().await.unwrap();
    let figures = Figures::new(db.clone());
    // What the days alone hold for a range, per sub id.
    let by_days = |from: i64, to: i64| {
        let db = db.clone();
        async move {
            let rows: Vec<(String, i64, i64, i64)> = sqlx::query_as(
                "SELECT value, CAST(SUM(visits) AS BIGINT), CAST(SUM(purchases) AS BIGINT), CAST(SUM(gross) AS BIGINT) FROM figure_days \
                 WHERE site_id = $1 AND scope = '' AND dim = 'sub3' AND day >= $2 AND day <= $3 GROUP BY value ORDER BY value",
            )
            .bind(site)
            .bind(from)
            .bind(to)
            .fetch_all(db.pool())
            .await
            .unwrap();
            rows
        }
    };
    let read = |from: i64, to: i64| {
        let (figures, geld) = (&figures, &geld);
        async move {
            let q = FigureQuery { from, to, by: Dimension::Sub3, network: String::new(), ..query(Dimension::Sub3, "") };
            let funnel = figures.funnel(geld, site, &q).await.unwrap();
            let mut rows: Vec<(String, i64, i64, i64)> =
                funnel.rows.iter().map(|r| (r.value.clone(), r.counts.visits, r.counts.purchases, r.counts.gross)).collect();
            rows.sort();
            rows
        }
    };
    let ranges = [
        (today - 129, today),
        (today - 89, today),
        (today - 89, today - 3),
        (today - 40, today - 10),
        (today - 6, today),
        (today, today),
        (today - 61, today - 61),
    ];
    for (from, to) in ranges {
        let cover = domain::figures::cover(from, to);
        let expected = by_days(from, to).await;
        assert!(expected.iter().filter(|r| ["a", "b", "c"].contains(&r.0.as_str())).count() == 3, "{expected:?}");
        assert_eq!(read(from, to).await, expected, "{from}..={to}: {cover:?}");
    }
    assert!(!domain::figures::cover(today - 129, today).months.is_empty(), "the long range reads whole months");

    // The migration's backfill of what the days held before it gives the same rows.
    sqlx::query("DELETE FROM figure_periods").execute(db.pool()).await.unwrap();
    let dialect = if db.backend() == server::db::Backend::Postgres { "postgres" } else { "sqlite" };
    let migration = std::fs::read_to_string(format!("{}/../migrations/{dialect}/20261224000042_figure_periods.sql", env!("CARGO_MANIFEST_DIR"))).unwrap();
    for statement in migration.split(';').filter(|s| s.contains("INSERT INTO figure_periods")) {
        let sql = statement.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join("\n");
        sqlx::query(&sql).execute(db.pool()).await.unwrap();
    }
    for (from, to) in ranges {
        assert_eq!(read(from, to).await, by_days(from, to).await, "after the backfill, {from}..={to}");
    }
});
