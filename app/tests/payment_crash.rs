//! `kill -9` of the server after the provider said "paid" and before the credits are booked:
//! after a restart the recovery job books the payment, once, and the ledger explains every
//! balance. The server is the real `vonk` binary in its own process; `VONK_FAULT` stops it at
//! exactly that point so the test can kill it there.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use domain::checkout::PaymentStatus;
use domain::payment::PaymentMethod;

#[path = "support/binary.rs"]
mod binary;
use binary::free_port;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_payment_killed_before_booking_is_booked_once_after_restart() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let vars = binary::vars(dir.path(), port, &[]);

    // The database with a member and an open payment through the test provider.
    let state = binary::state(&vars).await;
    let site = state.sites.for_host(None).unwrap();
    let anna = binary::signup_anna(&state, "http://x").await;
    let member = state.accounts.member(anna).await.unwrap().unwrap();
    let pack = state.payments.packs(site.settings.id, "NL").await.unwrap().into_iter().find(|p| p.credits == 60).unwrap().id;
    let now = state.clock.now();
    let started = state.payments.start_checkout(&site, &member, pack, PaymentMethod::Ideal, None, "NL", "nl", now).await.unwrap();
    let (tr,): (String,) = sqlx::query_as("SELECT provider_id FROM payments WHERE id = $1").bind(started.payment_id).fetch_one(state.db.pool()).await.unwrap();
    // The buyer paid: the provider's side says so.
    sqlx::query("UPDATE test_checkouts SET status = 'paid' WHERE id = $1").bind(&tr).execute(state.db.pool()).await.unwrap();

    // The server stops after reading "paid" from the provider, before booking.
    let mut server = binary::spawn(&vars, &[("VONK_FAULT", "pause_before_booking")], "warn", Stdio::piped());
    let stderr = server.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with("FAULT pause_before_booking") {
                let _ = tx.send(line);
            }
        }
    });
    let webhook = tokio::spawn({
        let url = format!("http://127.0.0.1:{port}/webhooks/payments/test");
        let body = format!("id={tr}");
        async move { reqwest::Client::new().post(url).header("content-type", "application/x-www-form-urlencoded").body(body).send().await }
    });
    let line = rx.recv_timeout(Duration::from_secs(20)).expect("the server reached the fault point");
    assert!(line.contains(&format!("payment={}", started.payment_id)), "{line}");
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    assert!(webhook.await.unwrap().is_err(), "the provider's webhook call got no answer");

    let status = |state: server::AppState| async move {
        let (s,): (String,) = sqlx::query_as("SELECT status FROM payments WHERE id = $1").bind(started.payment_id).fetch_one(state.db.pool()).await.unwrap();
        PaymentStatus::parse(&s).unwrap()
    };
    assert_eq!(status(state.clone()).await, PaymentStatus::Open, "nothing was booked before the kill");
    assert_eq!(state.accounts.member(anna).await.unwrap().unwrap().credits, member.credits);

    // Restarted (without the fault): the recovery job's first run books it.
    let mut server = binary::spawn(&vars, &[("VONK_PAYMENT_RECHECK_SECS", "0")], "warn", Stdio::piped());
    let until = Instant::now() + Duration::from_secs(30);
    while status(state.clone()).await != PaymentStatus::Paid {
        assert!(Instant::now() < until, "the recovery job did not book the payment");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Another webhook after recovery changes nothing.
    let res = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}/webhooks/payments/test"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("id={tr}"))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    server.kill().unwrap();
    server.wait().unwrap();

    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM credit_ledger WHERE reference = $1")
        .bind(format!("payment:{}", started.payment_id))
        .fetch_one(state.db.pool())
        .await
        .unwrap();
    assert_eq!(rows, 1, "booked once");
    let after = state.accounts.member(anna).await.unwrap().unwrap();
    assert_eq!(after.credits, member.credits + 60);
    assert!(after.paid_user);
    assert_eq!(server::credits::reconcile(&state.db).await.unwrap(), vec![], "ledger sum = balances");
}
