//! Sending: a member's message, gift or photo, and an operator's answer, stored in one
//! transaction in named steps (the conversation, the price, the message, the payment, both
//! members' lists), then pushed, mailed and sent by web push after the commit.

use domain::account::UserStatus;
use domain::chat::{charge, may_start_conversation, validate_client_id, validate_text, Charge, Gift, MessageKind};
use domain::moderation::{PhotoReview, Verdict};
use domain::ErrorCode;
use sqlx::Row;

use super::bus::Signal;
use super::store::{MessageRow, MESSAGE_COLUMNS};
use super::{Chat, Content, Sent, To};
use crate::accounts::Member;
use crate::credits::{self, Entry, Reason};
use crate::db::flag;
use crate::error::AppError;
use crate::sites::Site;

impl Chat {
    /// Sends a message. Refusals: `not_found` (no such conversation of the member's, or an
    /// unknown member), `blocked_by_member`, `premium_only` (a third conversation of a free
    /// member), `insufficient_credits`, and the text's own (its length; contact details the
    /// site refuses), `age_check_required` (the site asks this member for a passed age check
    /// first). Contact details the site masks are stored as `•••`.
    pub async fn send(&self, site: &Site, me: &Member, to: To, client_id: &str, content: Content, now: i64) -> Result<Sent, AppError> {
        self.send_reviewed(site, me, to, client_id, content, None, now).await
    }

    /// [`Chat::send`], with where a photo starts in staff's review (`crate::moderation`).
    #[allow(clippy::too_many_arguments)]
    async fn send_reviewed(
        &self,
        site: &Site,
        me: &Member,
        to: To,
        client_id: &str,
        content: Content,
        photo_review: Option<PhotoStart>,
        now: i64,
    ) -> Result<Sent, AppError> {
        validate_client_id(client_id)?;
        let mut contact = None;
        let content = match content {
            Content::Text(text) => {
                let checked = self.check_contact(site, me, client_id, &validate_text(&text, site.message_length)?, now).await?;
                let text = checked.text.clone();
                contact = Some(checked);
                Content::Text(text)
            }
            other => other,
        };
        if let Some(sent) = self.already_sent(me.id, client_id).await? {
            return Ok(sent);
        }
        crate::age::gate(self.db(), site, me, None).await?;
        let peer = match to {
            To::Conversation(id) => self.peer_in(id, me.id).await?.ok_or(ErrorCode::NotFound)?,
            To::Member(id) => id,
        };
        let payer = Payer::Member { premium: me.paid_user, confirmed: me.is_confirmed() };
        let hold = contact.as_ref().is_some_and(|c| !c.held.is_empty());
        let sent = self.store(site, Outgoing { sender: me.id, peer, client_id, content, payer, hold, photo_review }, now).await?;
        match contact.filter(|_| sent.new) {
            Some(c) => {
                self.contact_sent(site.id, me.id, client_id, &c, sent.message.id, now).await?;
                Ok(Sent { masked: c.masked, held: c.held, warned: c.warned, ..sent })
            }
            None => Ok(sent),
        }
    }

    pub(super) async fn already_sent(&self, sender: i64, client_id: &str) -> Result<Option<Sent>, AppError> {
        let row = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS}, u.credits FROM messages m JOIN users u ON u.id = m.sender_id WHERE m.sender_id = $1 AND m.client_id = $2"
        ))
        .bind(sender)
        .bind(client_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let message = MessageRow::from_row(&row)?;
        Ok(Some(Sent { message: message.view(sender), balance: row.try_get("credits")?, new: false, masked: Vec::new(), held: Vec::new(), warned: false }))
    }

    /// Stores a send, in named steps: the recipient must be reachable; then, in one transaction
    /// that holds the sender's row, a retry answers the first send, the conversation is found or
    /// started, the message is written and paid for, and both members' lists move; after the
    /// commit the sockets, mail and push hear of it.
    pub(super) async fn store(&self, site: &Site, send: Outgoing<'_>, now: i64) -> Result<Sent, AppError> {
        let recipient = self.recipient(site, &send).await?;
        let mut tx = self.db().begin().await?;
        // The sender's row lock first (a write, so SQLite takes its write lock at once): one
        // member's sends happen one after the other.
        let (free_used, started, credits): (i64, i64, i64) = sqlx::query_as(
            "UPDATE users SET free_messages_used = free_messages_used WHERE id = $1 RETURNING free_messages_used, conversations_started, credits",
        )
        .bind(send.sender)
        .fetch_one(&mut *tx)
        .await?;
        // A parallel retry of the same send may have committed while we waited for the lock.
        let repeat: Option<(i64,)> = sqlx::query_as("SELECT id FROM messages WHERE sender_id = $1 AND client_id = $2")
            .bind(send.sender)
            .bind(send.client_id)
            .fetch_optional(&mut *tx)
            .await?;
        if repeat.is_some() {
            drop(tx);
            return self.already_sent(send.sender, send.client_id).await?.ok_or_else(|| AppError::Internal("a repeated send vanished".into()));
        }
        let (conversation, first) = conversation_for(&mut tx, site, &send, recipient.fictional, started, now).await?;
        let (mut price, mut free) = price_of(site, send.payer, send.content.kind(), free_used);
        // Contact details the site holds wait for staff like spam does.
        let review = send.hold || super::review::needs_review(&mut tx, site, &send, conversation, first, now).await?;
        if review {
            // Held for staff review: it must be affordable now, and is paid for when released.
            if price > credits {
                return Err(ErrorCode::InsufficientCredits.into());
            }
            (price, free) = (0, false);
        }
        let held = review || !(send.payer.confirmed() && recipient.confirmed);
        let id = insert_message(&mut tx, conversation, &send, Stored { price, free, held, review }, now).await?;
        let balance = pay(&mut tx, send.sender, id, price, free, credits, now).await?;
        if matches!(send.payer, Payer::Member { premium: true, .. }) && domain::lifecycle::falls_low(credits, balance) {
            crate::lifecycle::note_low_balance(&mut tx, site, send.sender, id, now).await?;
        }
        move_lists(&mut tx, conversation, send.sender, send.peer, id, held, now).await?;
        // The recipient's sockets get the message, then their new unread total (see `Bus::dispatch`).
        let mut signals = vec![Signal::Message { id, conversation, sender: send.sender, recipient: send.peer }];
        if recipient.fictional || send.payer.operator().is_some() {
            // The operators' queue gains or loses a waiting conversation.
            signals.push(Signal::Queue { site: site.id });
        }
        self.bus.stage(&mut tx, &signals).await?;
        tx.commit().await?;
        self.bus.committed(&signals);
        if !held && !recipient.fictional {
            self.tell_recipient(site, send.sender, send.peer, conversation, now);
        }
        crate::metrics::message_sent();
        let (body, gift, photo_key) = send.content.parts();
        let message = MessageRow {
            id,
            conversation_id: conversation,
            sender_id: send.sender,
            recipient_id: send.peer,
            kind: send.content.kind(),
            body,
            gift,
            has_photo: photo_key.is_some(),
            photo_review: send.photo_review.map(|p| p.review),
            client_id: send.client_id.to_string(),
            held,
            created_at: now,
        };
        Ok(Sent { message: message.view(send.sender), balance, new: true, masked: Vec::new(), held: Vec::new(), warned: false })
    }

    /// The recipient of a send, if it may reach them: not the sender, a gift the site offers,
    /// an active or unconfirmed member of the site, no block either way.
    async fn recipient(&self, site: &Site, send: &Outgoing<'_>) -> Result<Recipient, AppError> {
        if send.sender == send.peer {
            return Err(ErrorCode::NotFound.into());
        }
        if let Content::Gift(gift) = &send.content {
            if !site.offers_gift(*gift) {
                return Err(ErrorCode::ChoiceInvalid.into());
            }
        }
        let target = sqlx::query(&format!(
            "SELECT u.status, u.fictional, {blocks} FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $2 AND u.site_id = $3",
            blocks = crate::visibility::BLOCK_DIRECTIONS
        ))
        .bind(send.sender)
        .bind(send.peer)
        .bind(site.id)
        .fetch_optional(self.pool())
        .await?
        .ok_or(ErrorCode::NotFound)?;
        if target.try_get::<i64, _>("blocked_me")? > 0 {
            return Err(ErrorCode::BlockedByMember.into());
        }
        let status: String = target.try_get("status")?;
        if target.try_get::<i64, _>("blocked_by_me")? > 0 || !matches!(UserStatus::parse(&status), Some(UserStatus::Active | UserStatus::NotConfirmed)) {
            return Err(ErrorCode::NotFound.into());
        }
        Ok(Recipient { confirmed: status == UserStatus::Active.as_str(), fictional: flag(&target, "fictional")? })
    }

    /// A delivered message told to its (real) recipient after the commit: by web push where a
    /// browser of theirs takes it, else by mail (never both); and their digest of unread
    /// messages for today queued (`crate::lifecycle`).
    pub(super) fn tell_recipient(&self, site: &Site, sender: i64, to: i64, conversation: i64, now: i64) {
        let (push, mail, db, digests) = (self.push.clone(), self.mail.clone(), self.db().clone(), self.digests.clone());
        let (settings, site_name) = (site.settings.clone(), site.name.clone());
        let base_url = mail.as_ref().map(|(_, public_url)| site.base_url(public_url));
        self.background.spawn(async move {
            if let Err(error) = digests.note_message(&db, &settings, to, now).await {
                tracing::warn!(%error, to, "could not queue the unread-messages digest");
            }
            if crate::push::Pusher::reached(push.as_ref(), &site_name, to, sender, crate::push::PushKind::Message { conversation }).await {
                return;
            }
            if let (Some((accounts, _)), Some(base_url)) = (mail, base_url) {
                if let Err(error) = accounts.mail_message(&settings, &base_url, to, sender, conversation).await {
                    tracing::warn!(%error, to, "could not send the new-message mail");
                }
            }
        });
    }

    /// Re-encodes an uploaded photo (EXIF gone) and sends it. A repeated client id sends nothing.
    pub async fn send_photo(
        &self,
        site: &Site,
        me: &Member,
        to: To,
        client_id: &str,
        bytes: Vec<u8>,
        decoder: &crate::members::photo_decode::PhotoDecoder,
        now: i64,
    ) -> Result<Sent, AppError> {
        validate_client_id(client_id)?;
        if let Some(sent) = self.already_sent(me.id, client_id).await? {
            return Ok(sent);
        }
        crate::age::gate(self.db(), site, me, None).await?;
        let media = self.media.clone().ok_or_else(|| AppError::Internal("chat photos need a media store".into()))?;
        let renditions = decoder.decode(bytes).await?;
        // Whether it waits for staff: the site's share, or the classifier's flag.
        let verdict = self.photo_classifier.verdict(renditions.hash);
        // A draw from 0 to 99 for the sample (from 32 random bits: 2^32 mod 100 leaves the
        // draws as good as even).
        let mut bits = [0u8; 4];
        getrandom::getrandom(&mut bits).expect("the operating system's random source");
        let draw = (u32::from_le_bytes(bits) % 100) as u8;
        let review = site.chat_photo_rule().start(draw, verdict).map(|review| PhotoStart { review, verdict });
        if verdict.is_some_and(Verdict::flags) {
            tracing::warn!(target: "security", sender = me.id, "a chat photo the classifier flagged waits for staff");
        }
        let key = format!("chat/{}/{}.jpg", me.id, crate::members::photos::random_suffix());
        media.put(&key, renditions.full).await?;
        match self.send_reviewed(site, me, to, client_id, Content::Photo(key.clone()), review, now).await {
            Ok(sent) => {
                if !sent.new {
                    let _ = media.delete(&key).await;
                }
                Ok(sent)
            }
            Err(e) => {
                let _ = media.delete(&key).await;
                Err(e)
            }
        }
    }
}

/// Who pays for a send.
#[derive(Debug, Clone, Copy)]
pub(super) enum Payer {
    Member {
        premium: bool,
        confirmed: bool,
    },
    /// An operator answering as a fictional profile: free, never held.
    Operator {
        operator: i64,
    },
}

impl Payer {
    /// Whether the sender's address is confirmed (an operator's profile always is).
    fn confirmed(self) -> bool {
        match self {
            Payer::Member { confirmed, .. } => confirmed,
            Payer::Operator { .. } => true,
        }
    }

    fn operator(self) -> Option<i64> {
        match self {
            Payer::Operator { operator } => Some(operator),
            Payer::Member { .. } => None,
        }
    }
}

/// One send on its way into the database.
pub(super) struct Outgoing<'a> {
    pub(super) sender: i64,
    pub(super) peer: i64,
    pub(super) client_id: &'a str,
    pub(super) content: Content,
    pub(super) payer: Payer,
    /// Held for staff's review whatever else (contact details the site holds).
    pub(super) hold: bool,
    /// A member's photo that waits in staff's photo review (delivered and paid for as any).
    pub(super) photo_review: Option<PhotoStart>,
}

/// Where a chat photo starts in staff's review, and the classifier's view of it.
#[derive(Debug, Clone, Copy)]
pub(super) struct PhotoStart {
    pub(super) review: PhotoReview,
    pub(super) verdict: Option<Verdict>,
}

/// What the send needs to know of its recipient.
struct Recipient {
    confirmed: bool,
    fictional: bool,
}

impl Content {
    /// The message row's body, gift and photo key.
    fn parts(&self) -> (String, Option<Gift>, Option<String>) {
        match self {
            Content::Text(t) => (t.clone(), None, None),
            Content::Gift(g) => (String::new(), Some(*g), None),
            Content::Photo(key) => (String::new(), None, Some(key.clone())),
        }
    }
}

pub(super) type Tx<'t> = sqlx::Transaction<'t, sqlx::Any>;

/// The pair's conversation, started by this send when there is none (then `true`): a free
/// member may start only so many ([`may_start_conversation`]); a conversation the peer started
/// at the same moment is theirs, not a start of the sender's.
async fn conversation_for(tx: &mut Tx<'_>, site: &Site, send: &Outgoing<'_>, peer_fictional: bool, started: i64, now: i64) -> Result<(i64, bool), AppError> {
    let (sender, peer) = (send.sender, send.peer);
    let (low, high) = (sender.min(peer), sender.max(peer));
    let existing: Option<(i64,)> =
        sqlx::query_as("SELECT id FROM conversations WHERE low_id = $1 AND high_id = $2").bind(low).bind(high).fetch_optional(&mut **tx).await?;
    if let Some((id,)) = existing {
        return Ok((id, false));
    }
    if let Payer::Member { premium, .. } = send.payer {
        may_start_conversation(premium, started)?;
    }
    let fictional = peer_fictional || matches!(send.payer, Payer::Operator { .. });
    let created: Option<(i64,)> = sqlx::query_as(
        "INSERT INTO conversations (site_id, low_id, high_id, started_by, fictional, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (low_id, high_id) DO NOTHING RETURNING id",
    )
    .bind(site.id)
    .bind(low)
    .bind(high)
    .bind(sender)
    .bind(fictional)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    match created {
        Some((id,)) => {
            for (user, other) in [(sender, peer), (peer, sender)] {
                sqlx::query("INSERT INTO chat_members (conversation_id, user_id, peer_id) VALUES ($1, $2, $3)")
                    .bind(id)
                    .bind(user)
                    .bind(other)
                    .execute(&mut **tx)
                    .await?;
            }
            sqlx::query("UPDATE users SET conversations_started = conversations_started + 1 WHERE id = $1").bind(sender).execute(&mut **tx).await?;
            Ok((id, true))
        }
        None => {
            let (id,): (i64,) =
                sqlx::query_as("SELECT id FROM conversations WHERE low_id = $1 AND high_id = $2").bind(low).bind(high).fetch_one(&mut **tx).await?;
            Ok((id, false))
        }
    }
}

/// What a send costs in credits, and whether it is one of the member's free messages.
pub(super) fn price_of(site: &Site, payer: Payer, kind: MessageKind, free_used: i64) -> (i64, bool) {
    match payer {
        Payer::Operator { .. } => (0, false),
        Payer::Member { .. } => {
            let price = domain::chat::cost(kind, site.message_credits, site.photo_credits, site.gift_credits);
            match charge(kind, price, site.free_messages, free_used) {
                Charge::Free => (0, true),
                Charge::Credits(n) => (n, false),
            }
        }
    }
}

/// How a message is stored: its price and whether it was free, and whether it waits (for a
/// confirmation, or for staff review as well).
struct Stored {
    price: i64,
    free: bool,
    held: bool,
    review: bool,
}

async fn insert_message(tx: &mut Tx<'_>, conversation: i64, send: &Outgoing<'_>, stored: Stored, now: i64) -> Result<i64, AppError> {
    let Stored { price, free, held, review } = stored;
    let (body, gift, photo_key) = send.content.parts();
    let (photo_score, photo_reason) = Verdict::columns(send.photo_review.and_then(|p| p.verdict));
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO messages (conversation_id, sender_id, recipient_id, kind, body, gift, photo_key, client_id, cost, free, held, operator_id, created_at, review, \
         photo_review, photo_reason, photo_score) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id",
    )
    .bind(conversation)
    .bind(send.sender)
    .bind(send.peer)
    .bind(send.content.kind().as_str())
    .bind(&body)
    .bind(gift.map(Gift::code))
    .bind(photo_key.as_deref())
    .bind(send.client_id)
    .bind(price)
    .bind(free)
    .bind(held)
    .bind(send.payer.operator())
    .bind(now)
    .bind(review)
    .bind(send.photo_review.map(|p| p.review.as_str()))
    .bind(photo_reason)
    .bind(photo_score)
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// Books the message's price in the ledger (refused with `insufficient_credits`, and dropping
/// the transaction then undoes the message) or counts a free message; answers the balance.
pub(super) async fn pay(tx: &mut Tx<'_>, sender: i64, message: i64, price: i64, free: bool, credits: i64, now: i64) -> Result<i64, AppError> {
    if price > 0 {
        let reference = format!("message:{message}");
        return Ok(credits::book(tx, Entry { user_id: sender, delta: -price, reason: Reason::Spend, reference: &reference }, now).await?.balance());
    }
    if free {
        sqlx::query("UPDATE users SET free_messages_used = free_messages_used + 1 WHERE id = $1").bind(sender).execute(&mut **tx).await?;
    }
    Ok(credits)
}

/// The conversation's last message, and both members' lists: the sender's own message counts
/// as read by them; the recipient's unread count grows unless the message is held.
async fn move_lists(tx: &mut Tx<'_>, conversation: i64, sender: i64, peer: i64, message: i64, held: bool, now: i64) -> Result<(), AppError> {
    sqlx::query("UPDATE conversations SET last_message_id = $1 WHERE id = $2").bind(message).bind(conversation).execute(&mut **tx).await?;
    sqlx::query("UPDATE chat_members SET last_message_id = $1, last_at = $2, read_up_to = $1 WHERE conversation_id = $3 AND user_id = $4")
        .bind(message)
        .bind(now)
        .bind(conversation)
        .bind(sender)
        .execute(&mut **tx)
        .await?;
    if !held {
        sqlx::query("UPDATE chat_members SET last_message_id = $1, last_at = $2, unread = unread + 1 WHERE conversation_id = $3 AND user_id = $4")
            .bind(message)
            .bind(now)
            .bind(conversation)
            .bind(peer)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
