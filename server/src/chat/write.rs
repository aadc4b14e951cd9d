//! A send's write, one call on either database: the message, its payment, the conversation's
//! last message and both members' lists (and on PostgreSQL the signals), after `send.rs` has
//! read and decided.

use domain::chat::Gift;
use domain::moderation::{PhotoReview, Verdict};
use sqlx::Row;

use super::bus::Signal;
use super::send::Tx;
use super::store::MessageRow;
use crate::credits::Reason;
use crate::error::AppError;

/// How a message is stored: its price and whether it was free, whether it waits (for a
/// confirmation, or for staff review as well), the sender's balance after it, and what the row
/// keeps beside the message's own columns.
pub(super) struct Stored {
    pub(super) price: i64,
    pub(super) free: bool,
    pub(super) held: bool,
    pub(super) review: bool,
    pub(super) balance: i64,
    pub(super) photo_key: Option<String>,
    pub(super) operator: Option<i64>,
    pub(super) verdict: Option<Verdict>,
}

/// The message's columns, in the order of `$1…$17` in both writes below ([`bind_message`]).
const MESSAGE_INSERT: &str =
    "conversation_id, sender_id, recipient_id, kind, body, gift, photo_key, client_id, cost, free, held, operator_id, created_at, review, \
     photo_review, photo_reason, photo_score";

fn bind_message<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    m: &'q MessageRow,
    stored: &'q Stored,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let (photo_score, photo_reason) = Verdict::columns(stored.verdict);
    query
        .bind(m.conversation_id)
        .bind(m.sender_id)
        .bind(m.recipient_id)
        .bind(m.kind.as_str())
        .bind(m.body.as_str())
        .bind(m.gift.map(Gift::code))
        .bind(stored.photo_key.as_deref())
        .bind(m.client_id.as_str())
        .bind(stored.price)
        .bind(stored.free)
        .bind(stored.held)
        .bind(stored.operator)
        .bind(m.created_at)
        .bind(stored.review)
        .bind(m.photo_review.map(PhotoReview::as_str))
        .bind(photo_reason)
        .bind(photo_score)
}

/// The ledger row of a paid message (the reference [`crate::credits`] reconciles by).
pub(super) fn spend_reference(message: i64) -> String {
    format!("{SPEND_PREFIX}{message}")
}

/// What a paid message's ledger reference starts with, before its id.
pub(super) const SPEND_PREFIX: &str = "message:";

/// The write on SQLite in one worker round trip ([`WRITE_SQLITE`]: its statements run one
/// after the other on the connection's worker, so the write lock is held for less time than
/// with a hand-over to the worker per statement). Answers the message's id.
pub(super) async fn write_sqlite(tx: &mut Tx<'_>, m: &MessageRow, stored: &Stored) -> Result<i64, AppError> {
    // Every statement's rows: the first and only one is the message's id.
    let rows =
        bind_message(sqlx::query(&WRITE_SQLITE), m, stored).bind(stored.balance).bind(Reason::Spend.as_str()).bind(SPEND_PREFIX).fetch_all(&mut **tx).await?;
    Ok(rows.first().ok_or_else(|| AppError::Internal("a message insert answered no id".into()))?.try_get("id")?)
}

/// The write on SQLite ($1…$17 the message, [`bind_message`]; $18 the balance, $19 the ledger's
/// reason, $20 its reference before the id): the message; the conversation's last message and
/// both members' lists by `last_insert_rowid()`, the message's id until the ledger's row (last)
/// is inserted (the sender's own message counts as read by them; the recipient's unread count
/// grows unless the message is held, and then their row stays as it was); the sender's
/// balance or free count and the ledger row, each only when the send pays or is free, as
/// [`WRITE_POSTGRES`] does.
static WRITE_SQLITE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "INSERT INTO messages ({MESSAGE_INSERT}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id; \
         UPDATE conversations SET last_message_id = last_insert_rowid() WHERE id = $1; \
         UPDATE chat_members SET last_message_id = last_insert_rowid(), last_at = $13, \
           read_up_to = CASE WHEN user_id = $2 THEN last_insert_rowid() ELSE read_up_to END, \
           unread = CASE WHEN user_id = $2 THEN unread ELSE unread + 1 END \
           WHERE conversation_id = $1 AND (user_id = $2 OR (user_id = $3 AND NOT $11)); \
         UPDATE users SET credits = $18, free_messages_used = free_messages_used + CASE WHEN $10 THEN 1 ELSE 0 END WHERE id = $2 AND ($9 > 0 OR $10); \
         INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, created_at) SELECT $2, -$9, $18, $19, $20 || last_insert_rowid(), $13 WHERE $9 > 0"
    )
});

/// The write on PostgreSQL as one statement (one round trip): the message with the id the read
/// took, its ledger row and the sender's balance or free count (each only when the send pays
/// or is free), the conversation's last message, both members' lists (as [`WRITE_SQLITE`]) and the
/// signals' `NOTIFY` (sent at commit).
const WRITE_POSTGRES: &str =
    "WITH message AS (INSERT INTO messages (id, conversation_id, sender_id, recipient_id, kind, body, gift, photo_key, client_id, cost, free, held, \
     operator_id, created_at, review, photo_review, photo_reason, photo_score) OVERRIDING SYSTEM VALUE \
     VALUES ($18, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)), \
     ledger AS (INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, created_at) SELECT $2, -$9, $19, $20, $21, $13 WHERE $9 > 0), \
     balance AS (UPDATE users SET credits = $19, free_messages_used = free_messages_used + CASE WHEN $10 THEN 1 ELSE 0 END WHERE id = $2 AND ($9 > 0 OR $10)), \
     conversation AS (UPDATE conversations SET last_message_id = $18 WHERE id = $1), \
     lists AS (UPDATE chat_members SET last_message_id = $18, last_at = $13, \
       read_up_to = CASE WHEN user_id = $2 THEN $18 ELSE read_up_to END, \
       unread = CASE WHEN user_id = $2 THEN unread ELSE unread + 1 END \
       WHERE conversation_id = $1 AND (user_id = $2 OR (user_id = $3 AND NOT $11))) \
     SELECT pg_notify($22, $23)";

pub(super) async fn write_postgres(tx: &mut Tx<'_>, m: &MessageRow, stored: &Stored, signals: &[Signal]) -> Result<(), AppError> {
    bind_message(sqlx::query(WRITE_POSTGRES), m, stored)
        .bind(m.id)
        .bind(stored.balance)
        .bind(Reason::Spend.as_str())
        .bind(spend_reference(m.id))
        .bind(super::bus::CHANNEL)
        .bind(super::bus::send_payload(signals, m))
        .execute(&mut **tx)
        .await?;
    Ok(())
}
