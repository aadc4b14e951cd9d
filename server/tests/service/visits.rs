//! Landing visits and signup attribution on both databases: one visit per visitor, day and
//! touch (whatever the number of page views or nodes), only the address's network kept, and a
//! signup counted for its last (or, as the site chooses, first) landing with a source within
//! the window, with both touches kept.

use crate::support;

use domain::account::Tracking;
use domain::visits::{landing, Device};
use server::accounts::Client;
use server::visits::{Visit, Visits};
use server::Db;
use support::world::{world, World, NOW};

const DAY: i64 = 86_400;
const VISITOR: &str = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12";

fn visit(path: &str, network: Option<&str>, click: Option<&str>, at: i64) -> Visit {
    Visit {
        site_id: 1,
        visitor: VISITOR.into(),
        landing: landing(path).unwrap(),
        tracking: Tracking { network: network.map(str::to_string), sub1: network.map(|_| "banner-7".to_string()), ..Default::default() },
        click_id: click.map(str::to_string),
        country: Some("NL".into()),
        device: Device::Mobile,
        ip_prefix: Some(domain::visits::ip_prefix("203.0.113.77".parse().unwrap())),
        variant: None,
        at,
    }
}

async fn count(db: &Db) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM visits").fetch_one(db.pool()).await.unwrap();
    n
}

async fn sign_up(w: &World, email: &str, tracking: Tracking, visitor: Option<&str>) -> i64 {
    w.sign_up_with(email, "Sanne", tracking, Client::default().with_visitor(visitor.map(str::to_string))).await
}

on_both_databases!(a_visit_counts_once_per_visitor_day_and_touch, |db: Db| async move {
    let _w = world(db.clone()).await;
    let (node_a, node_b) = (Visits::new(db.clone()), Visits::new(db.clone()));
    let lander = visit("/landers/swipe/zomer", Some("adnet"), Some("c-1"), NOW);
    assert!(node_a.record(&lander).await.unwrap());
    // The same touch again, on this node and on another: nothing new.
    assert!(!node_a.record(&lander).await.unwrap());
    assert!(!node_b.record(&lander).await.unwrap());
    // In parallel from many requests: still one.
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (visits, v) = (Visits::new(db.clone()), visit("/", None, None, NOW + 5));
        tasks.push(tokio::spawn(async move { visits.record(&v).await.unwrap() }));
    }
    let mut first = 0;
    for t in tasks {
        first += usize::from(t.await.unwrap());
    }
    assert_eq!(first, 1, "one of ten parallel views of the home page wrote");
    // Another source on the same lander, and the next day: new visits.
    assert!(node_a.record(&visit("/landers/swipe/zomer", Some("other"), None, NOW + 60)).await.unwrap());
    assert!(node_a.record(&visit("/landers/swipe/zomer", Some("adnet"), Some("c-1"), NOW + DAY)).await.unwrap());
    assert_eq!(count(&db).await, 4);
    let (visitor, ip, page, click): (String, String, String, Option<String>) =
        sqlx::query_as("SELECT visitor, ip_prefix, page, click_id FROM visits ORDER BY id LIMIT 1").fetch_one(db.pool()).await.unwrap();
    assert_ne!(visitor, VISITOR, "the cookie's value is stored hashed");
    assert_eq!((ip.as_str(), page.as_str(), click.as_deref()), ("203.0.113.0/24", "lander", Some("c-1")));
});

on_both_databases!(a_signup_counts_for_its_last_landing_with_a_source_or_its_first, |db: Db| async move {
    let w = world(db.clone()).await;
    let visits = Visits::new(db.clone());
    // Forty days ago from one network (outside the 30-day window), ten days ago from another,
    // yesterday from a third, and today without a source.
    visits.record(&visit("/landers/swipe", Some("old-net"), None, NOW - 40 * DAY)).await.unwrap();
    visits.record(&visit("/landers/swipe", Some("first-net"), Some("click-first"), NOW - 10 * DAY)).await.unwrap();
    visits.record(&visit("/members/12/landing2", Some("last-net"), Some("click-last"), NOW - DAY)).await.unwrap();
    visits.record(&visit("/", None, None, NOW)).await.unwrap();
    // Signing up without tracking of its own: the last touch's.
    let anna = sign_up(&w, "anna@example.nl", Tracking::default(), Some(VISITOR)).await;
    let touches: Vec<(String, Option<String>, Option<String>, String)> =
        sqlx::query_as("SELECT touch, network, click_id, page FROM signup_touches WHERE user_id = $1 ORDER BY touch")
            .bind(anna)
            .fetch_all(db.pool())
            .await
            .unwrap();
    assert_eq!(
        touches,
        vec![
            ("first".into(), Some("first-net".into()), Some("click-first".into()), "lander".into()),
            ("last".into(), Some("last-net".into()), Some("click-last".into()), "profile_lander".into()),
        ]
    );
    let network = |id: i64| {
        let pool = db.pool().clone();
        async move {
            let (n,): (Option<String>,) = sqlx::query_as("SELECT tracking_network FROM users WHERE id = $1").bind(id).fetch_one(&pool).await.unwrap();
            n
        }
    };
    assert_eq!(network(anna).await.as_deref(), Some("last-net"));
    // The signup's own tracking (its cookie, the form) wins under the last-touch model.
    let own = Tracking { network: Some("form-net".into()), ..Default::default() };
    let bram = sign_up(&w, "bram@example.nl", own.clone(), Some(VISITOR)).await;
    assert_eq!(network(bram).await.as_deref(), Some("form-net"));
    // The site counts the first touch: the first within the window, whatever came later.
    sqlx::query("UPDATE sites SET attribution_first_touch = $1 WHERE id = 1").bind(true).execute(db.pool()).await.unwrap();
    let mut site = w.site.clone();
    site.settings.attribution_first_touch = true;
    let w = World { site, ..w };
    let carl = sign_up(&w, "carl@example.nl", own, Some(VISITOR)).await;
    assert_eq!(network(carl).await.as_deref(), Some("first-net"));
    // No visitor cookie, or one we never saw, or one of the wrong form: no touches, own tracking.
    let dirk = sign_up(&w, "dirk@example.nl", Tracking::default(), Some("not-a-visitor")).await;
    let eva = sign_up(&w, "eva@example.nl", Tracking::default(), Some(&"cd".repeat(32))).await;
    for id in [dirk, eva] {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM signup_touches WHERE user_id = $1").bind(id).fetch_one(db.pool()).await.unwrap();
        assert_eq!(n, 0);
        assert_eq!(network(id).await, None);
    }
});
