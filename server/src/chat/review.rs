//! Spam held back (see `domain::spam`): a member's first message that is the same or nearly
//! the same as too many of their recent first messages is stored held for review — not
//! delivered, not charged — and so is anything they send after it in that conversation.
//! Staff see the held senders on `/staff/chats/held` and release them (each message is then
//! paid for and delivered as if sent now) or block the member.

use domain::account::UserStatus;
use domain::chat::MessageKind;
use domain::rows::Flag;
pub use domain::spam::HeldSender;

use super::bus::Signal;
use super::send::{pay, price_of, Outgoing, Payer, Tx};
use super::{Chat, Content};
use crate::accounts::Member;
use crate::error::AppError;
use crate::sites::Site;
use crate::staff::{record, require_staff};

/// How many of a member's recent first messages the check compares with.
const COMPARED: i64 = 200;

/// Whether a member's send is held for review: a first message alike to too many recent first
/// messages of theirs, or anything after a held one in the same conversation.
pub(super) async fn needs_review(
    tx: &mut Tx<'_>,
    site: &Site,
    send: &Outgoing<'_>,
    conversation: i64,
    first: bool,
    waiting: bool,
    now: i64,
) -> Result<bool, AppError> {
    if !matches!(send.payer, Payer::Member { .. }) {
        return Ok(false);
    }
    if !first {
        return Ok(waiting);
    }
    let Content::Text(text) = &send.content else { return Ok(false) };
    let rules = site.spam_rules;
    if !rules.enabled() {
        return Ok(false);
    }
    // The first message of each conversation the member started within the window.
    let earlier: Vec<(String,)> = sqlx::query_as(
        "SELECT m.body FROM conversations c JOIN messages m ON m.conversation_id = c.id AND m.sender_id = c.started_by \
         WHERE c.started_by = $1 AND c.created_at >= $2 AND c.id <> $3 AND m.kind = $4 \
         AND m.id = (SELECT MIN(x.id) FROM messages x WHERE x.conversation_id = c.id) ORDER BY c.id DESC LIMIT $5",
    )
    .bind(send.sender)
    .bind(now - rules.window_secs())
    .bind(conversation)
    .bind(MessageKind::Text.as_str())
    .bind(COMPARED)
    .fetch_all(&mut **tx)
    .await?;
    let held = rules.holds(text, earlier.iter().map(|(body,)| body.as_str()));
    if held {
        tracing::info!(target: "security", sender = send.sender, "a first message alike to many was held for review");
    }
    Ok(held)
}

/// A sender's held messages: how many, to how many members, when, and the first one's text.
#[derive(sqlx::FromRow)]
struct HeldRow {
    sender_id: i64,
    name: String,
    email: String,
    held: i64,
    recipients: i64,
    first_at: i64,
    last_at: i64,
    body: String,
}

/// A held message with its recipient's status.
#[derive(sqlx::FromRow)]
struct ReleasedRow {
    id: i64,
    conversation_id: i64,
    recipient_id: i64,
    kind: String,
    created_at: i64,
    status: String,
    #[sqlx(try_from = "Flag")]
    fictional: bool,
}

/// What a release did: messages delivered, and those left held because the member's credits
/// no longer pay for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Released {
    pub delivered: usize,
    pub unpaid: usize,
}

impl Chat {
    /// The site's members with messages held for review, the longest waiting first (blocked
    /// and deleted members drop out of the list).
    pub async fn held_for_review(&self, staff: &Member, site_id: i64) -> Result<Vec<HeldSender>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Held)?;
        // The held messages per sender, and the text of each sender's first one.
        let rows = sqlx::query_as::<_, HeldRow>(
            "SELECT h.sender_id, p.name, u.email, h.held, h.recipients, h.first_at, h.last_at, f.body \
             FROM (SELECT m.sender_id, COUNT(*) AS held, COUNT(DISTINCT m.recipient_id) AS recipients, MIN(m.id) AS first_id, \
                   MIN(m.created_at) AS first_at, MAX(m.created_at) AS last_at FROM messages m WHERE m.review = $1 GROUP BY m.sender_id) h \
             JOIN messages f ON f.id = h.first_id JOIN users u ON u.id = h.sender_id JOIN profiles p ON p.user_id = u.id \
             WHERE u.site_id = $2 AND u.status IN ($3, $4) ORDER BY h.first_at, h.sender_id LIMIT 100",
        )
        .bind(true)
        .bind(site_id)
        .bind(UserStatus::Active.as_str())
        .bind(UserStatus::NotConfirmed.as_str())
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| HeldSender {
                sender: row.sender_id,
                name: row.name,
                email: row.email,
                held: row.held,
                recipients: row.recipients,
                sample: row.body.chars().take(domain::spam::SAMPLE_CHARS).collect(),
                first_at: row.first_at,
                last_at: row.last_at,
            })
            .collect())
    }

    /// Staff release a member's held messages, oldest first: each is paid for now (free
    /// messages first, as at a send) and delivered, unless it still waits for a confirmation.
    /// Messages the member's credits no longer pay for stay held. Logged in the staff log.
    pub async fn release_review(&self, staff: &Member, site: &Site, sender: i64, now: i64) -> Result<Released, AppError> {
        require_staff(staff, site.id, crate::staff::StaffArea::Held)?;
        let mut tx = self.db().begin().await?;
        // The sender's row first: their sends and this release happen one after the other.
        let (mut free_used, mut credits, status): (i64, i64, String) = sqlx::query_as(
            "UPDATE users SET free_messages_used = free_messages_used WHERE id = $1 AND site_id = $2 RETURNING free_messages_used, credits, status",
        )
        .bind(sender)
        .bind(site.id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(domain::ErrorCode::NotFound)?;
        let rows = sqlx::query_as::<_, ReleasedRow>(
            "SELECT m.id, m.conversation_id, m.recipient_id, m.kind, m.created_at, r.status, r.fictional FROM messages m JOIN users r ON r.id = m.recipient_id \
             WHERE m.sender_id = $1 AND m.review = $2 ORDER BY m.id",
        )
        .bind(sender)
        .bind(true)
        .fetch_all(&mut *tx)
        .await?;
        let active = UserStatus::Active.as_str();
        let mut released = Released { delivered: 0, unpaid: 0 };
        let mut signals = vec![Signal::Balance { user: sender }];
        let mut mail_to = Vec::new();
        for row in rows {
            let id = row.id;
            let kind = MessageKind::parse(&row.kind).unwrap_or(MessageKind::Text);
            let (price, free) = price_of(site, Payer::Member { premium: false, confirmed: true }, kind, free_used);
            if price > credits {
                released.unpaid += 1;
                continue;
            }
            credits = pay(&mut tx, sender, id, price, free, credits, now).await?;
            free_used += i64::from(free);
            let (conversation, recipient) = (row.conversation_id, row.recipient_id);
            let held = status != active || row.status != active;
            sqlx::query("UPDATE messages SET review = $1, held = $2, cost = $3, free = $4 WHERE id = $5")
                .bind(false)
                .bind(held)
                .bind(price)
                .bind(free)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            if !held {
                sqlx::query(
                    "UPDATE chat_members SET unread = unread + 1, last_message_id = CASE WHEN last_message_id > $1 THEN last_message_id ELSE $1 END, \
                     last_at = CASE WHEN last_at > $2 THEN last_at ELSE $2 END WHERE conversation_id = $3 AND user_id = $4",
                )
                .bind(id)
                .bind(row.created_at)
                .bind(conversation)
                .bind(recipient)
                .execute(&mut *tx)
                .await?;
                if !row.fictional {
                    mail_to.push((recipient, conversation));
                }
            }
            signals.push(Signal::Message { id, conversation, sender, recipient });
            released.delivered += 1;
        }
        let detail = format!("{} released, {} unpaid", released.delivered, released.unpaid);
        record(&mut tx, site.id, staff, "chat_release", &format!("member #{sender}"), &detail, now).await?;
        self.bus.stage(&mut tx, &signals).await?;
        tx.commit().await?;
        self.bus.committed(&signals);
        for (recipient, conversation) in mail_to {
            self.tell_recipient(site, sender, recipient, conversation, true, now);
        }
        Ok(released)
    }
}
