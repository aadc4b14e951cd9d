//! Postbacks against a fake traffic network on loopback, on both databases, with a clock the
//! test moves: a click that converted is told exactly once per event (signup, first purchase)
//! with its click id and sub ids filled in, a visitor without a source is told of nothing, a
//! network that is down for a minute or answers too late gets the call again later, and a
//! call that failed every try is sent again by staff.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use domain::account::Tracking;
use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;
use domain::staff::StaffRole;
use domain::visits::{landing, Device};
use server::accounts::Client;
use server::jobs::Jobs;
use server::postbacks::Postbacks;
use server::visits::{Visit, Visits};
use server::Db;
use support::shop::{buy, refused, shop};
use support::world::{World, NOW};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Up,
    Down,
    Late,
}

/// What the fake network received: each query string with the answer it got.
#[derive(Clone)]
struct Network {
    base: String,
    mode: Arc<Mutex<Mode>>,
    calls: Arc<Mutex<Vec<(String, Mode)>>>,
    task: Arc<tokio::task::JoinHandle<()>>,
}

async fn answer(State(n): State<Network>, RawQuery(query): RawQuery) -> (StatusCode, &'static str) {
    let mode = *n.mode.lock().unwrap();
    n.calls.lock().unwrap().push((query.unwrap_or_default(), mode));
    match mode {
        Mode::Up => (StatusCode::OK, "OK"),
        Mode::Down => (StatusCode::SERVICE_UNAVAILABLE, "maintenance <b>back soon</b>"),
        Mode::Late => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            (StatusCode::OK, "OK, late")
        }
    }
}

impl Network {
    async fn start() -> Network {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let (mode, calls) = (Arc::new(Mutex::new(Mode::Up)), Arc::new(Mutex::new(Vec::new())));
        let state = Network { base: base.clone(), mode: mode.clone(), calls: calls.clone(), task: Arc::new(tokio::spawn(async {})) };
        let app = Router::new().route("/pb", get(answer)).with_state(state);
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Network { base, mode, calls, task: Arc::new(task) }
    }

    fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    /// The calls that got a 200 in time, as query strings.
    fn received(&self) -> Vec<String> {
        self.calls.lock().unwrap().iter().filter(|(_, m)| *m == Mode::Up).map(|(q, _)| q.clone()).collect()
    }

    fn tried(&self) -> usize {
        self.calls.lock().unwrap().len()
    }
}

impl Drop for Network {
    fn drop(&mut self) {
        if Arc::strong_count(&self.task) == 1 {
            self.task.abort();
        }
    }
}

const CLICKED: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

async fn sign_up(w: &World, email: &str, visitor: Option<&str>) -> server::accounts::Member {
    let id = w.sign_up_with(email, "Sanne", Tracking::default(), Client::default().with_visitor(visitor.map(str::to_string))).await;
    sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(id).execute(w.db.pool()).await.unwrap();
    w.reload(id).await
}

/// Moves the clock on and runs what is due.
async fn after(w: &World, jobs: &Jobs, secs: i64) {
    w.accounts.clock().advance(secs);
    jobs.run_due().await.unwrap();
}

on_both_databases!(a_converted_click_is_told_once_per_event_even_through_downtime, |db: Db| async move {
    let (w, _sms, payments) = shop(db.clone()).await;
    let network = Network::start().await;
    let jobs = Jobs::new(db.clone(), w.accounts.clock().clone(), "node-a");
    let postbacks = Postbacks::with_timeout(db.clone(), w.accounts.clock().clone(), Duration::from_millis(500));
    postbacks.register(&jobs);
    let admin = w.member("baas@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "baas@example.nl", StaffRole::Admin).await;
    let admin = w.reload(admin.id).await;
    let site = w.site.id;
    // Staff set the network's URLs; a bad one, or a member, changes nothing.
    let pb = format!("{}/pb", network.base);
    postbacks.set_url(&admin, site, "adnet", "signup", &format!("{pb}?e={{event}}&c={{click_id}}&s={{sub1}}")).await.unwrap();
    postbacks
        .set_url(&admin, site, "adnet", "first_purchase", &format!("{pb}?e={{event}}&c={{click_id}}&p={{payout}}&cur={{currency}}&t={{transaction_id}}"))
        .await
        .unwrap();
    assert_eq!(refused(postbacks.set_url(&admin, site, "adnet", "purchase", "javascript:alert(1)").await), domain::ErrorCode::BadRequest);
    assert_eq!(refused(postbacks.set_url(&admin, site, "adnet", "birthday", &pb).await), domain::ErrorCode::BadRequest);
    let member = w.member("lid@example.nl", "female").await;
    assert_eq!(refused(postbacks.set_url(&member, site, "adnet", "purchase", &pb).await), domain::ErrorCode::NotFound);
    assert_eq!(postbacks.urls(&admin, site).await.unwrap().len(), 2);

    // A click from the network lands, and that visitor signs up; another visitor without a
    // source signs up too.
    let visit = Visit {
        site_id: site,
        visitor: CLICKED.into(),
        landing: landing("/landers/swipe").unwrap(),
        tracking: Tracking { network: Some("adnet".into()), sub1: Some("banner 7".into()), ..Default::default() },
        click_id: Some("klik-1".into()),
        country: Some("NL".into()),
        device: Device::Mobile,
        ip_prefix: None,
        variant: None,
        at: NOW - 3600,
    };
    Visits::new(db.clone()).record(&visit).await.unwrap();
    // The network is down when the signup happens.
    network.set(Mode::Down);
    let converted = sign_up(&w, "klik@example.nl", Some(CLICKED)).await;
    let _plain = sign_up(&w, "gewoon@example.nl", Some(&"f".repeat(64))).await;
    jobs.run_due().await.unwrap();
    assert_eq!((network.tried(), network.received().len()), (1, 0));
    // Back a minute later: the queue's first retry tells it.
    network.set(Mode::Up);
    after(&w, &jobs, 30).await;
    assert_eq!(network.tried(), 1, "not before the retry is due");
    after(&w, &jobs, 30).await;
    assert_eq!(network.received(), vec!["e=signup&c=klik-1&s=banner%207".to_string()]);

    // The first purchase: the network answers too late the first time.
    network.set(Mode::Late);
    let paid = buy(&db, &payments, &w, &converted, 60, PaymentMethod::Ideal, PaymentStatus::Paid, w.accounts.clock().now()).await;
    jobs.run_due().await.unwrap();
    network.set(Mode::Up);
    after(&w, &jobs, 60).await;
    let (amount, currency): (i64, String) =
        sqlx::query_as("SELECT amount, currency FROM payments WHERE id = $1").bind(paid).fetch_one(db.pool()).await.unwrap();
    let expected = format!("e=first_purchase&c=klik-1&p={}&cur={currency}&t={paid}", domain::postbacks::payout(amount));
    assert_eq!(network.received(), vec!["e=signup&c=klik-1&s=banner%207".to_string(), expected]);
    // A second purchase is no first purchase; the plain member's buying tells no one.
    let plain = w.reload(_plain.id).await;
    buy(&db, &payments, &w, &converted, 60, PaymentMethod::Ideal, PaymentStatus::Paid, w.accounts.clock().now()).await;
    buy(&db, &payments, &w, &plain, 60, PaymentMethod::Ideal, PaymentStatus::Paid, w.accounts.clock().now()).await;
    after(&w, &jobs, 3600).await;
    assert_eq!(network.received().len(), 2);
    // Staff see each call with its answer and tries.
    let calls = postbacks.calls(&admin, site, 50).await.unwrap();
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.status == "sent" && c.attempts == 2 && c.http_status == Some(200)), "{calls:?}");
    assert_eq!(refused(postbacks.resend(&admin, site, calls[0].id).await), domain::ErrorCode::NotFound, "a sent call is not sent again");
});

on_both_databases!(a_call_that_failed_every_try_is_sent_again_by_staff, |db: Db| async move {
    let (w, _sms, payments) = shop(db.clone()).await;
    let network = Network::start().await;
    let jobs = Jobs::new(db.clone(), w.accounts.clock().clone(), "node-a");
    let postbacks = Postbacks::with_timeout(db.clone(), w.accounts.clock().clone(), Duration::from_millis(500));
    postbacks.register(&jobs);
    let admin = w.member("baas@example.nl", "male").await;
    support::grant_staff(&db, &w.accounts, "baas@example.nl", StaffRole::Finance).await;
    let admin = w.reload(admin.id).await;
    postbacks.set_url(&admin, w.site.id, "adnet", "purchase", &format!("{}/pb?t={{transaction_id}}", network.base)).await.unwrap();
    let visit = Visit {
        site_id: w.site.id,
        visitor: CLICKED.into(),
        landing: landing("/").unwrap(),
        tracking: Tracking { network: Some("adnet".into()), ..Default::default() },
        click_id: None,
        country: None,
        device: Device::Desktop,
        ip_prefix: None,
        variant: None,
        at: NOW - 60,
    };
    Visits::new(db.clone()).record(&visit).await.unwrap();
    let member = sign_up(&w, "klik@example.nl", Some(CLICKED)).await;
    network.set(Mode::Down);
    let paid = buy(&db, &payments, &w, &member, 60, PaymentMethod::Ideal, PaymentStatus::Paid, w.accounts.clock().now()).await;
    // Six tries over about nine hours, then it waits for staff.
    jobs.run_due().await.unwrap();
    for _ in 0..6 {
        after(&w, &jobs, 6 * 3600).await;
    }
    assert_eq!(network.tried(), domain::jobs::MAX_ATTEMPTS as usize);
    let call = postbacks.calls(&admin, w.site.id, 10).await.unwrap().remove(0);
    assert_eq!((call.status.as_str(), call.http_status, call.answer.as_deref()), ("failed", Some(503), Some("maintenance <b>back soon</b>")));
    network.set(Mode::Up);
    postbacks.resend(&admin, w.site.id, call.id).await.unwrap();
    jobs.run_due().await.unwrap();
    assert_eq!(network.received(), vec![format!("t={paid}")]);
    let (logged,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM staff_actions WHERE action = 'postback_resent'").fetch_one(db.pool()).await.unwrap();
    assert_eq!(logged, 1);

    // A whole refund takes the payment back: the network hears of that too, once, however
    // often the refund is asked for.
    postbacks.set_url(&admin, w.site.id, "adnet", "reversal", &format!("{}/pb?r={{transaction_id}}&p={{payout}}", network.base)).await.unwrap();
    let now = w.accounts.clock().now();
    let key = format!("{:0>32}", 1);
    payments.refund(&admin, w.site.id, paid, None, "", &key, now).await.unwrap();
    payments.refund(&admin, w.site.id, paid, None, "", &key, now).await.unwrap();
    jobs.run_due().await.unwrap();
    let received = network.received();
    assert_eq!(received.len(), 2, "{received:?}");
    assert!(received[1].starts_with(&format!("r={paid}&p=")), "{received:?}");
});
