//! A member's plain chat send on PostgreSQL in one round trip: the database function
//! `vonk_chat_send` (migration 50) locks, reads, writes and signals as [`Chat::store`] does, or
//! writes nothing when the send is not the plain case.

use domain::account::UserStatus;
use domain::chat::Gift;
use domain::moderation::{PhotoReview, Verdict};
use domain::rows::Flag;

use super::bus::Signal;
use super::send::{Outgoing, Payer};
use super::store::MessageRow;
use super::write::SPEND_PREFIX;
use super::{Chat, Sent, To};
use crate::credits::Reason;
use crate::error::AppError;
use crate::sites::Site;

impl Chat {
    /// On PostgreSQL, a member's plain send in one round trip: `vonk_chat_send` (migration 50)
    /// locks, reads and writes as [`Chat::store`] does and commits, or writes nothing and
    /// answers no row when the send is not the plain case (then `None`, and [`Chat::store`]
    /// goes statement by statement, which answers every refusal and retry as its own).
    pub(super) async fn send_in_one_call(&self, site: &Site, send: &Outgoing<'_>, now: i64) -> Result<Option<Sent>, AppError> {
        let Payer::Member { premium, confirmed } = send.payer else { return Ok(None) };
        if send.hold {
            return Ok(None);
        }
        let kind = send.content.kind();
        let (body, gift, photo_key) = send.content.parts();
        let price = domain::chat::cost(kind, site.message_credits, site.photo_credits, site.gift_credits).max(0);
        let free_below = domain::chat::free_below(kind, price, site.free_messages);
        // The columns the server knows, in the signal as `bus::row_tail` writes them.
        let mut message = MessageRow {
            id: 0,
            conversation_id: 0,
            sender_id: send.sender,
            recipient_id: 0,
            kind,
            body,
            gift,
            has_photo: photo_key.is_some(),
            photo_review: send.photo_review.map(|p| p.review),
            client_id: send.client_id.to_string(),
            held: false,
            created_at: now,
        };
        let tail = super::bus::row_tail(&message);
        if tail.len() + super::signal::ROW_HEAD_MAX > super::signal::ROW_MAX {
            return Ok(None);
        }
        let (photo_score, photo_reason) = Verdict::columns(send.photo_review.and_then(|p| p.verdict));
        let (to_member, to_conversation) = match send.to {
            To::Member(id) => (Some(id), None),
            To::Conversation(id) => (None, Some(id)),
        };
        let row: Option<OneCall> = sqlx::query_as(SEND_POSTGRES)
            .bind(send.sender)
            .bind(site.id)
            .bind(to_member)
            .bind(to_conversation)
            .bind(send.client_id)
            .bind(kind.as_str())
            .bind(message.body.as_str())
            .bind(gift.map(Gift::code))
            .bind(photo_key.as_deref())
            .bind(now)
            .bind(message.photo_review.map(PhotoReview::as_str))
            .bind(photo_reason)
            .bind(photo_score)
            .bind(price)
            .bind(free_below)
            .bind(premium.then_some(domain::lifecycle::LOW_BALANCE_CREDITS))
            .bind(confirmed)
            .bind(UserStatus::Active.as_str())
            .bind(UserStatus::NotConfirmed.as_str())
            .bind(Reason::Spend.as_str())
            .bind(SPEND_PREFIX)
            .bind(super::bus::CHANNEL)
            .bind(Signal::Queue { site: site.id }.encode())
            .bind(super::bus::ROW_TAG)
            .bind(tail)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        message.id = row.message_id;
        message.conversation_id = row.conversation_id;
        message.recipient_id = row.recipient_id;
        message.held = row.held;
        let fictional = row.fictional;
        // This node's sockets take the row from the signal, like every other node's.
        if !message.held && !fictional {
            self.tell_recipient(site, send.sender, message.recipient_id, message.conversation_id, !row.mailed, now);
        }
        self.one_call.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        crate::metrics::message_sent(true);
        Ok(Some(Sent {
            message: message.view(send.sender),
            balance: row.balance,
            free_used: row.free_used,
            new: true,
            masked: Vec::new(),
            held: Vec::new(),
            warned: false,
        }))
    }

    /// How many sends this service stored in one database call (on PostgreSQL, the plain ones).
    pub fn sends_in_one_call(&self) -> u64 {
        self.one_call.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// A member's plain send on PostgreSQL in one call (migration 50; [`Chat::send_in_one_call`]).
const SEND_POSTGRES: &str = "SELECT message_id, conversation_id, recipient_id, held, fictional, balance, free_used, mailed FROM vonk_chat_send(\
     $1::bigint, $2::bigint, $3::bigint, $4::bigint, $5::text, $6::text, $7::text, $8::text, $9::text, $10::bigint, $11::text, $12::text, \
     $13::bigint, $14::bigint, $15::bigint, $16::bigint, $17::boolean, $18::text, $19::text, $20::text, $21::text, $22::text, $23::text, \
     $24::text, $25::text)";

/// What the one-call send answers.
#[derive(sqlx::FromRow)]
struct OneCall {
    message_id: i64,
    conversation_id: i64,
    recipient_id: i64,
    #[sqlx(try_from = "Flag")]
    held: bool,
    #[sqlx(try_from = "Flag")]
    fictional: bool,
    balance: i64,
    free_used: i64,
    /// The recipient's new-message mail for the conversation is claimed already.
    #[sqlx(try_from = "Flag")]
    mailed: bool,
}
