//! Sending: a member's message, gift or photo, and an operator's answer, stored in one
//! transaction in named steps (the conversation, the price, the message, the payment, both
//! members' lists), then pushed, mailed and sent by web push after the commit.

use domain::account::UserStatus;
use domain::chat::{charge, may_start_conversation, validate_client_id, validate_text, Charge, Gift, MessageKind};
use domain::moderation::{PhotoReview, Verdict};
use domain::rows::Flag;
use domain::ErrorCode;
use sqlx::Row;

use super::bus::Signal;
use super::store::{MessageRow, MESSAGE_COLUMNS};
use super::write::{spend_reference, write_postgres, write_sqlite, Stored};
use super::{Chat, Content, Sent, To};
use crate::accounts::Member;
use crate::credits::{self, Entry, Reason};
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
        // A retry of an earlier send is answered by the store, in its transaction.
        crate::age::gate(self.db(), site, me, None).await?;
        let payer = Payer::Member { premium: me.paid_user, confirmed: me.is_confirmed() };
        let hold = contact.as_ref().is_some_and(|c| !c.held.is_empty());
        let sent = self.store(site, Outgoing { sender: me.id, to, client_id, content, payer, hold, photo_review }, now).await?;
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
            "SELECT {MESSAGE_COLUMNS}, u.credits, u.free_messages_used FROM messages m JOIN users u ON u.id = m.sender_id WHERE m.sender_id = $1 AND m.client_id = $2"
        ))
        .bind(sender)
        .bind(client_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let message = MessageRow::from_row(&row)?;
        Ok(Some(Sent {
            message: message.view(sender),
            balance: row.try_get("credits")?,
            free_used: row.try_get("free_messages_used")?,
            new: false,
            masked: Vec::new(),
            held: Vec::new(),
            warned: false,
        }))
    }

    /// Stores a send, in a fixed number of statements whatever the database: on PostgreSQL the
    /// sender's row is locked (SQLite's transaction holds the write lock from its start); one
    /// read finds a retry of this send, the recipient (reachable, no block either way), the
    /// pair's conversation and on SQLite the sender's row; then the message, its payment, both
    /// members' lists and (on PostgreSQL) the signals are written in one call. A new
    /// conversation, a first message checked for spam and a balance falling low add their own
    /// steps. After the commit the sockets, mail and push hear of it.
    pub(super) async fn store(&self, site: &Site, send: Outgoing<'_>, now: i64) -> Result<Sent, AppError> {
        if let Content::Gift(gift) = &send.content {
            if !site.offers_gift(*gift) {
                return Err(ErrorCode::ChoiceInvalid.into());
            }
        }
        let postgres = self.bus.postgres();
        if postgres {
            if let Some(sent) = self.send_in_one_call(site, &send, now).await? {
                return Ok(sent);
            }
        }
        let mut tx = self.db().begin().await?;
        // On PostgreSQL the sender's row lock first: one member's sends happen one after the
        // other. It also silences the member-cache triggers: the chat signal says who changed.
        // A statement of its own before the read: the read sees a parallel retry that committed
        // meanwhile. On SQLite the transaction holds the database's write lock from its start,
        // and the read answers the sender's row too.
        let locked: Option<(i64, i64, i64)> = if postgres { Some(sqlx::query_as(LOCK_POSTGRES).bind(send.sender).fetch_one(&mut *tx).await?) } else { None };
        let target = Target::read(&mut tx, site, &send, postgres).await?;
        let (free_used, started, credits) = match locked {
            Some(sender) => sender,
            None => target.sender().ok_or_else(|| AppError::Internal(format!("sender {} vanished", send.sender)))?,
        };
        if target.repeat.is_some() {
            drop(tx);
            return self.already_sent(send.sender, send.client_id).await?.ok_or_else(|| AppError::Internal("a repeated send vanished".into()));
        }
        let recipient = target.recipient(send.sender)?;
        let peer = recipient.id;
        let (conversation, first) = match target.conversation {
            Some(id) => (id, false),
            None => conversation_for(&mut tx, site, &send, peer, recipient.fictional, started, now).await?,
        };
        let (mut price, mut free) = price_of(site, send.payer, send.content.kind(), free_used);
        // Contact details the site holds wait for staff like spam does.
        let review = send.hold || super::review::needs_review(&mut tx, site, &send, conversation, first, target.waiting > 0, now).await?;
        // Paid now, or (held for staff review) affordable now and paid for when released.
        if price > credits {
            return Err(ErrorCode::InsufficientCredits.into());
        }
        if review {
            (price, free) = (0, false);
        }
        let held = review || !(send.payer.confirmed() && recipient.confirmed);
        let balance = credits - price;
        let (body, gift, photo_key) = send.content.parts();
        let mut message = MessageRow {
            id: target.next_id.unwrap_or(0),
            conversation_id: conversation,
            sender_id: send.sender,
            recipient_id: peer,
            kind: send.content.kind(),
            body,
            gift,
            has_photo: photo_key.is_some(),
            photo_review: send.photo_review.map(|p| p.review),
            client_id: send.client_id.to_string(),
            held,
            created_at: now,
        };
        let stored =
            Stored { price, free, held, review, balance, photo_key, operator: send.payer.operator(), verdict: send.photo_review.and_then(|p| p.verdict) };
        // The recipient's sockets get the message, then their new unread total (see `Bus::dispatch`).
        let signals = |id: i64| {
            let mut signals = vec![Signal::Message { id, conversation, sender: send.sender, recipient: peer }];
            if recipient.fictional || send.payer.operator().is_some() {
                // The operators' queue gains or loses a waiting conversation.
                signals.push(Signal::Queue { site: site.id });
            }
            signals
        };
        let signals = if postgres {
            let signals = signals(message.id);
            write_postgres(&mut tx, &message, &stored, &signals).await?;
            signals
        } else {
            message.id = write_sqlite(&mut tx, &message, &stored).await?;
            signals(message.id)
        };
        if matches!(send.payer, Payer::Member { premium: true, .. }) && domain::lifecycle::falls_low(credits, balance) {
            crate::lifecycle::note_low_balance(&mut tx, site, send.sender, message.id, now).await?;
        }
        // Before the commit: this node's sockets read the message from here, not the database
        // (on PostgreSQL the notification may be heard before the commit returns).
        let message = std::sync::Arc::new(message);
        self.bus.expect(message.clone());
        tx.commit().await?;
        self.bus.committed(&signals);
        if !held && !recipient.fictional {
            self.tell_recipient(site, send.sender, peer, conversation, true, now);
        }
        crate::metrics::message_sent(false);
        let free_used = free_used + i64::from(free);
        Ok(Sent { message: message.view(send.sender), balance, free_used, new: true, masked: Vec::new(), held: Vec::new(), warned: false })
    }

    /// A delivered message told to its (real) recipient after the commit: by web push where a
    /// browser of theirs takes it, else by mail (never both; not tried when `mail_due` is
    /// false: the conversation's one mail is claimed already); and their digest of unread
    /// messages for today queued (`crate::lifecycle`).
    pub(super) fn tell_recipient(&self, site: &Site, sender: i64, to: i64, conversation: i64, mail_due: bool, now: i64) {
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
            if let (Some((accounts, _)), Some(base_url), true) = (mail, base_url, mail_due) {
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
    /// The conversation or member it goes to (checked in the send's transaction).
    pub(super) to: To,
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
    id: i64,
    confirmed: bool,
    fictional: bool,
}

impl Content {
    /// The message row's body, gift and photo key.
    pub(super) fn parts(&self) -> (String, Option<Gift>, Option<String>) {
        match self {
            Content::Text(t) => (t.clone(), None, None),
            Content::Gift(g) => (String::new(), Some(*g), None),
            Content::Photo(key) => (String::new(), None, Some(key.clone())),
        }
    }
}

pub(super) type Tx<'t> = sqlx::Transaction<'t, sqlx::Any>;

/// The pair's conversation when the send's read found none: started by this send (then
/// `true`); a free member may start only so many ([`may_start_conversation`]); a conversation
/// the peer started at the same moment is theirs, not a start of the sender's.
async fn conversation_for(
    tx: &mut Tx<'_>,
    site: &Site,
    send: &Outgoing<'_>,
    peer: i64,
    peer_fictional: bool,
    started: i64,
    now: i64,
) -> Result<(i64, bool), AppError> {
    let sender = send.sender;
    let (low, high) = (sender.min(peer), sender.max(peer));
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

/// What the send's one read finds, in its transaction after the sender's lock.
#[derive(sqlx::FromRow)]
struct Target {
    /// This client id was sent before (a retry).
    repeat: Option<i64>,
    /// The recipient, when they are a member of the site with a profile (and, sent to a
    /// conversation, its other member).
    peer: Option<i64>,
    status: Option<String>,
    fictional: Option<Flag>,
    blocked_by_me: i64,
    blocked_me: i64,
    /// The pair's conversation, if there is one.
    conversation: Option<i64>,
    /// The sender's messages in it that wait for staff's review.
    waiting: i64,
    /// On PostgreSQL, the new message's id, taken now so that its signal is written with it.
    next_id: Option<i64>,
    /// On SQLite, the sender's free messages used, conversations started and credits (on
    /// PostgreSQL the lock before the read answers them).
    free_used: Option<i64>,
    started: Option<i64>,
    credits: Option<i64>,
}

impl Target {
    async fn read(tx: &mut Tx<'_>, site: &Site, send: &Outgoing<'_>, postgres: bool) -> Result<Target, AppError> {
        let (peer, to) = match send.to {
            To::Member(id) => ("$2", id),
            To::Conversation(id) => ("(SELECT cm.peer_id FROM chat_members cm WHERE cm.conversation_id = $2 AND cm.user_id = $1)", id),
        };
        let (next_id, sender, sender_join) = if postgres {
            (
                "nextval(pg_get_serial_sequence('messages', 'id'))",
                "CAST(NULL AS BIGINT) AS free_used, CAST(NULL AS BIGINT) AS started, CAST(NULL AS BIGINT) AS credits",
                "",
            )
        } else {
            ("NULL", "s.free_messages_used AS free_used, s.conversations_started AS started, s.credits", "LEFT JOIN users s ON s.id = $1")
        };
        let sql = format!(
            "SELECT r.id AS repeat, u.id AS peer, u.status, u.fictional, \
             (SELECT COUNT(*) FROM blocks b WHERE b.blocker_id = $1 AND b.blocked_id = u.id) AS blocked_by_me, \
             (SELECT COUNT(*) FROM blocks b WHERE b.blocker_id = u.id AND b.blocked_id = $1) AS blocked_me, \
             c.id AS conversation, \
             (SELECT COUNT(*) FROM messages w WHERE w.conversation_id = c.id AND w.sender_id = $1 AND w.review = $5) AS waiting, \
             {next_id} AS next_id, {sender} \
             FROM (SELECT 1 AS one) o {sender_join} \
             LEFT JOIN messages r ON r.sender_id = $1 AND r.client_id = $3 \
             LEFT JOIN users u ON u.id = {peer} AND u.site_id = $4 AND EXISTS (SELECT 1 FROM profiles p WHERE p.user_id = u.id) \
             LEFT JOIN conversations c ON c.low_id = CASE WHEN u.id < $1 THEN u.id ELSE $1 END AND c.high_id = CASE WHEN u.id < $1 THEN $1 ELSE u.id END"
        );
        Ok(sqlx::query_as(&sql).bind(send.sender).bind(to).bind(send.client_id).bind(site.id).bind(true).fetch_one(&mut **tx).await?)
    }

    /// The sender's free messages used, conversations started and credits, as read on SQLite.
    fn sender(&self) -> Option<(i64, i64, i64)> {
        Some((self.free_used?, self.started?, self.credits?))
    }

    /// The recipient, if the send may reach them: not the sender, an active or unconfirmed
    /// member, no block either way (`blocked_by_member` when they blocked the sender).
    fn recipient(&self, sender: i64) -> Result<Recipient, AppError> {
        let peer = self.peer.filter(|peer| *peer != sender).ok_or(ErrorCode::NotFound)?;
        if self.blocked_me > 0 {
            return Err(ErrorCode::BlockedByMember.into());
        }
        let status = self.status.as_deref().and_then(UserStatus::parse);
        if self.blocked_by_me > 0 || !matches!(status, Some(UserStatus::Active | UserStatus::NotConfirmed)) {
            return Err(ErrorCode::NotFound.into());
        }
        Ok(Recipient { id: peer, confirmed: status == Some(UserStatus::Active), fictional: self.fictional.is_some_and(bool::from) })
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

/// The sender's row lock on PostgreSQL, answering what the send needs of their row, with the
/// member-cache triggers silent until the transaction ends (migration
/// 49): the send's chat signal names both members it changes, and every node's member cache
/// hears the chat's channel too. One `NOTIFY` a send instead of five (notifying transactions
/// commit one after the other).
const LOCK_POSTGRES: &str = "WITH quiet AS (SELECT set_config('vonk.chat_announces', 'on', true)) \
     UPDATE users SET free_messages_used = free_messages_used FROM quiet WHERE id = $1 RETURNING free_messages_used, conversations_started, credits";

/// Books the message's price in the ledger (refused with `insufficient_credits`, and dropping
/// the transaction then undoes the message) or counts a free message; answers the balance.
pub(super) async fn pay(tx: &mut Tx<'_>, sender: i64, message: i64, price: i64, free: bool, credits: i64, now: i64) -> Result<i64, AppError> {
    if price > 0 {
        let reference = spend_reference(message);
        return Ok(credits::book(tx, Entry { user_id: sender, delta: -price, reason: Reason::Spend, reference: &reference }, now).await?.balance());
    }
    if free {
        sqlx::query("UPDATE users SET free_messages_used = free_messages_used + 1 WHERE id = $1").bind(sender).execute(&mut **tx).await?;
    }
    Ok(credits)
}
