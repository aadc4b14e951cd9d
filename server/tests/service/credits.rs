//! The credits ledger on SQLite and PostgreSQL: one booking per reference, never below zero,
//! append-only, and a ledger that explains every balance.

use crate::support;

use domain::ErrorCode;
use server::credits::{self, Booking, Entry, Reason};
use server::Db;
use support::world::{world, NOW};

async fn book(db: &Db, user_id: i64, delta: i64, reference: &str) -> Result<Booking, server::AppError> {
    let mut tx = db.begin().await.unwrap();
    let reason = if delta < 0 { Reason::Spend } else { Reason::Purchase };
    let booking = credits::book(&mut tx, Entry { user_id, delta, reason, reference }, NOW).await?;
    tx.commit().await.unwrap();
    Ok(booking)
}

on_both_databases!(a_reference_books_once_and_balances_never_go_negative, |db: Db| async move {
    let w = world(db.clone()).await;
    let anna = w.member("anna@example.nl", "female").await;
    let start = anna.credits;
    assert_eq!(start, w.site.signup_credits, "signup credits went through the ledger");

    assert_eq!(book(&db, anna.id, 100, "payment:tr_1").await.unwrap(), Booking::Booked { balance: start + 100 });
    // The same payment reported again: a quiet no-op, not an error.
    assert_eq!(book(&db, anna.id, 100, "payment:tr_1").await.unwrap(), Booking::AlreadyBooked { balance: start + 100 });
    assert_eq!(book(&db, anna.id, -30, "message:1").await.unwrap().balance(), start + 70);
    // More than there is: refused, nothing changes.
    let refused = book(&db, anna.id, -(start + 71), "message:2").await.unwrap_err();
    assert_eq!(refused.code(), ErrorCode::InsufficientCredits);
    assert_eq!(w.reload(anna.id).await.credits, start + 70);
    // The refused reference was not used up: it books once there is enough.
    assert!(matches!(book(&db, anna.id, -(start + 70), "message:2").await.unwrap(), Booking::Booked { balance: 0 }));
    // A repeated spend that no longer fits is still a repeat, not a refusal.
    assert_eq!(book(&db, anna.id, -30, "message:1").await.unwrap(), Booking::AlreadyBooked { balance: 0 });
    // One reference with other values is a bug of the caller, never a second booking.
    assert!(matches!(book(&db, anna.id, 5, "payment:tr_1").await, Err(server::AppError::Internal(_))));
    assert!(matches!(book(&db, anna.id, 5, "  ").await, Err(server::AppError::Internal(_))));

    assert_eq!(credits::balance_and_ledger(&db, anna.id).await.unwrap(), (0, 0));
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
});

on_both_databases!(parallel_bookings_of_one_payment_count_once, |db: Db| async move {
    let w = world(db.clone()).await;
    let anna = w.member("anna@example.nl", "female").await;
    let before = anna.credits;
    let mut tasks = Vec::new();
    for i in 0..8 {
        let db = db.clone();
        // Four webhooks for one payment, four for another, all at once.
        let reference = if i % 2 == 0 { "payment:tr_a" } else { "payment:tr_b" };
        tasks.push(tokio::spawn(async move {
            loop {
                match book(&db, anna.id, 50, reference).await {
                    Ok(booking) => return booking,
                    // SQLite answers "database is locked" when writers collide: a retry, as a webhook would.
                    Err(server::AppError::Database(_)) => tokio::time::sleep(std::time::Duration::from_millis(5)).await,
                    Err(other) => panic!("{other:?}"),
                }
            }
        }));
    }
    let mut booked = 0;
    for task in tasks {
        if matches!(task.await.unwrap(), Booking::Booked { .. }) {
            booked += 1;
        }
    }
    assert_eq!(booked, 2, "each payment booked once");
    assert_eq!(w.reload(anna.id).await.credits, before + 100);
    assert!(credits::reconcile(&db).await.unwrap().is_empty());
});

on_both_databases!(the_ledger_is_append_only_and_reconcile_finds_drift, |db: Db| async move {
    let w = world(db.clone()).await;
    let anna = w.member("anna@example.nl", "female").await;
    book(&db, anna.id, 10, "payment:tr_x").await.unwrap();
    assert!(sqlx::query("UPDATE credit_ledger SET delta = 1000").execute(db.pool()).await.is_err(), "no row can be changed");
    assert!(sqlx::query("DELETE FROM credit_ledger").execute(db.pool()).await.is_err(), "no row can be removed");
    assert!(
        sqlx::query("INSERT INTO credit_ledger (user_id, delta, balance_after, reason, created_at) VALUES ($1, 1, 1, 'purchase', 0)")
            .bind(anna.id)
            .execute(db.pool())
            .await
            .is_err(),
        "a reference is never NULL"
    );
    // A balance changed behind the ledger's back shows up.
    sqlx::query("UPDATE users SET credits = credits + 7 WHERE id = $1").bind(anna.id).execute(db.pool()).await.unwrap();
    let drift = credits::reconcile(&db).await.unwrap();
    assert_eq!(drift.len(), 1);
    assert_eq!((drift[0].user_id, drift[0].credits - drift[0].ledger_sum), (anna.id, 7));
});
