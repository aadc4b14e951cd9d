//! The chat's SQL that both the service and the bus use.

use domain::chat::{Gift, MessageKind};
use domain::moderation::PhotoReview;
use domain::rows::Flag;
use domain::widgets::ChatMessage;
use sqlx::any::AnyRow;

use crate::db::Db;
use crate::error::AppError;

/// The columns of a message row as [`MessageRow::from_row`] reads them (table alias `m`).
pub(crate) const MESSAGE_COLUMNS: &str =
    "m.id, m.conversation_id, m.sender_id, m.recipient_id, m.kind, m.body, m.gift, m.photo_key, m.photo_review, m.client_id, m.held, m.created_at";

/// A stored message, the same for both sides until [`MessageRow::view`] renders it for one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRow {
    pub id: i64,
    pub conversation_id: i64,
    pub sender_id: i64,
    pub recipient_id: i64,
    pub kind: MessageKind,
    pub body: String,
    pub gift: Option<Gift>,
    pub has_photo: bool,
    /// Where its photo stands in staff's review, if it was queued.
    pub photo_review: Option<PhotoReview>,
    pub client_id: String,
    pub held: bool,
    pub created_at: i64,
}

/// The columns of [`MESSAGE_COLUMNS`] as stored.
#[derive(sqlx::FromRow)]
struct StoredMessage {
    id: i64,
    conversation_id: i64,
    sender_id: i64,
    recipient_id: i64,
    kind: String,
    body: String,
    gift: Option<String>,
    photo_key: Option<String>,
    photo_review: Option<String>,
    client_id: String,
    #[sqlx(try_from = "Flag")]
    held: bool,
    created_at: i64,
}

impl MessageRow {
    pub(crate) fn from_row(row: &AnyRow) -> Result<MessageRow, AppError> {
        let m = <StoredMessage as sqlx::FromRow<_>>::from_row(row)?;
        let kind = m.kind;
        Ok(MessageRow {
            id: m.id,
            conversation_id: m.conversation_id,
            sender_id: m.sender_id,
            recipient_id: m.recipient_id,
            kind: MessageKind::parse(&kind).ok_or_else(|| AppError::Internal(format!("unknown message kind {kind}")))?,
            body: m.body,
            gift: m.gift.as_deref().and_then(Gift::parse),
            has_photo: m.photo_key.is_some(),
            photo_review: m.photo_review.as_deref().and_then(PhotoReview::parse),
            client_id: m.client_id,
            held: m.held,
            created_at: m.created_at,
        })
    }

    /// Whether `user` may see this message: a side of it, and not held from them.
    pub fn visible_to(&self, user: i64) -> bool {
        self.sender_id == user || (self.recipient_id == user && !self.held)
    }

    /// Whether `viewer` may see its photo: the sender always; the recipient unless it waits
    /// hidden or was turned down.
    pub fn photo_visible_to(&self, viewer: i64) -> bool {
        self.has_photo && (self.sender_id == viewer || self.photo_review.is_none_or(PhotoReview::shown_to_recipient))
    }

    /// The message as `viewer` sees it.
    pub fn view(&self, viewer: i64) -> ChatMessage {
        ChatMessage {
            id: self.id,
            conversation: self.conversation_id,
            mine: self.sender_id == viewer,
            kind: self.kind,
            body: self.body.clone(),
            photo: self.photo_visible_to(viewer).then(|| photo_path(self.id)),
            photo_review: self.photo_review,
            gift: self.gift,
            at: self.created_at,
            client_id: if self.sender_id == viewer { self.client_id.clone() } else { String::new() },
            waiting: self.held,
        }
    }
}

/// Where a chat photo is served (to the two members only).
pub fn photo_path(message_id: i64) -> String {
    format!("/media/chat/{message_id}")
}

pub(crate) async fn message_row(db: &Db, id: i64) -> Result<Option<MessageRow>, AppError> {
    let row = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.id = $1")).bind(id).fetch_optional(db.pool()).await?;
    row.as_ref().map(MessageRow::from_row).transpose()
}

/// The member's unread messages over all conversations.
pub(crate) async fn unread_total(db: &Db, user: i64) -> Result<i64, AppError> {
    let (total,): (i64,) =
        sqlx::query_as("SELECT CAST(COALESCE(SUM(unread), 0) AS BIGINT) FROM chat_members WHERE user_id = $1").bind(user).fetch_one(db.pool()).await?;
    Ok(total)
}

/// The newest message id the member can see: where a socket starts when the page had none.
pub(crate) async fn latest_id(db: &Db, user: i64) -> Result<i64, AppError> {
    let (id,): (i64,) =
        sqlx::query_as("SELECT CAST(COALESCE(MAX(last_message_id), 0) AS BIGINT) FROM chat_members WHERE user_id = $1").bind(user).fetch_one(db.pool()).await?;
    Ok(id)
}

/// Records that `user`'s client received the conversation's messages up to `up_to`; true when
/// that moved the mark.
pub(crate) async fn mark_delivered(db: &Db, conversation: i64, user: i64, up_to: i64) -> Result<bool, AppError> {
    let done = sqlx::query("UPDATE chat_members SET delivered_up_to = $1 WHERE conversation_id = $2 AND user_id = $3 AND delivered_up_to < $1")
        .bind(up_to)
        .bind(conversation)
        .bind(user)
        .execute(db.writer())
        .await?;
    Ok(done.rows_affected() == 1)
}

/// A message a recipient's socket took: their delivered mark in the conversation moves up to it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Delivery {
    pub(crate) conversation: i64,
    pub(crate) sender: i64,
    pub(crate) recipient: i64,
    pub(crate) up_to: i64,
}

/// On PostgreSQL, in one statement: the delivered marks moved up (the highest per conversation
/// and recipient), one `NOTIFY` telling the senders whose marks moved ([`super::bus::Signal::Delivered`]
/// each), and each recipient's unread total read. The ids travel as comma-separated text
/// (sqlx's `Any` driver binds no arrays).
pub(crate) async fn delivered_and_totals(db: &Db, marks: &[Delivery]) -> Result<Vec<(i64, i64)>, AppError> {
    let list = |f: fn(&Delivery) -> i64| marks.iter().map(|m| f(m).to_string()).collect::<Vec<_>>().join(",");
    // `told` runs because the answer reads it (a CTE nothing reads would not).
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
        "WITH input AS (SELECT t.conversation, t.recipient, MAX(t.sender) AS sender, MAX(t.up_to) AS up_to \
         FROM unnest(string_to_array($1, ',')::bigint[], string_to_array($2, ',')::bigint[], string_to_array($3, ',')::bigint[], \
         string_to_array($4, ',')::bigint[]) AS t(conversation, sender, recipient, up_to) GROUP BY t.conversation, t.recipient), \
         moved AS (UPDATE chat_members cm SET delivered_up_to = i.up_to FROM input i \
         WHERE cm.conversation_id = i.conversation AND cm.user_id = i.recipient AND cm.delivered_up_to < i.up_to \
         RETURNING i.conversation, i.sender, i.up_to), \
         told AS (SELECT pg_notify($5, string_agg($6 || ',' || m.conversation || ',' || m.sender || ',' || m.up_to, ';')) FROM moved m HAVING COUNT(*) > 0) \
         SELECT r.recipient, (SELECT COUNT(*) FROM told), CAST(COALESCE((SELECT SUM(c.unread) FROM chat_members c WHERE c.user_id = r.recipient), 0) AS BIGINT) \
         FROM (SELECT DISTINCT i.recipient FROM input i) r",
    )
    .bind(list(|m| m.conversation))
    .bind(list(|m| m.sender))
    .bind(list(|m| m.recipient))
    .bind(list(|m| m.up_to))
    .bind(super::bus::CHANNEL)
    .bind(super::bus::DELIVERED_TAG)
    .fetch_all(db.pool())
    .await?;
    Ok(rows.into_iter().map(|(recipient, _told, total)| (recipient, total)).collect())
}

/// Messages for `user` newer than `after` (or sent in the last `since` seconds, which covers
/// ids that committed out of order), in every conversation still in their list, oldest first.
pub(crate) async fn messages_after(db: &Db, user: i64, after: i64, since: i64, limit: i64) -> Result<Vec<MessageRow>, AppError> {
    let rows = sqlx::query(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM messages m JOIN chat_members c ON c.conversation_id = m.conversation_id AND c.user_id = $1 \
         WHERE (m.id > $2 OR m.created_at >= $3) AND m.id > c.cleared_up_to AND (m.sender_id = $1 OR m.held = $4) ORDER BY m.id LIMIT {limit}"
    ))
    .bind(user)
    .bind(after)
    .bind(since)
    .bind(false)
    .fetch_all(db.pool())
    .await?;
    rows.iter().map(MessageRow::from_row).collect()
}
