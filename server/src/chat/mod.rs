//! Chat (SPEC §1, §3 Chat state, §4, §6, §9): conversations between two members, messages paid
//! in credits, read and delivered marks, and the operator console for fictional profiles.
//!
//! A send is one transaction: the message row, its ledger booking (reference `message:{id}`) and
//! both members' list state commit together or not at all. The client makes an id per send, so
//! a retried send finds its message instead of storing and charging a second one. Real-time
//! pushes leave through the [`bus::Bus`]; the socket itself lives in `crate::http::ws`.

pub mod bus;
pub mod store;

use domain::account::{UserStatus, Ymd};
use domain::chat::{charge, may_start_conversation, validate_client_id, validate_text, Charge, Gift, MessageKind};
use domain::widgets::{ChatMessage, ChatPeer};
use domain::{ApiError, ErrorCode};
use sqlx::any::AnyRow;
use sqlx::Row;

use self::bus::{Bus, Signal};
use self::store::{MessageRow, MESSAGE_COLUMNS};
use crate::accounts::{Accounts, Member};
use crate::credits::{self, Entry, Reason};
use crate::db::{flag, Db};
use crate::error::AppError;
use crate::members::search::CARD_COLUMNS;
use crate::members::Members;
use crate::sites::Site;

/// Who a send goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum To {
    /// An existing conversation of the sender's.
    Conversation(i64),
    /// A member (`/members/{id}/chat`): their conversation, started with this message if new.
    Member(i64),
}

/// What a send carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Text(String),
    Gift(Gift),
    /// A photo already re-encoded and stored under this key in the private media store.
    Photo(String),
}

impl Content {
    fn kind(&self) -> MessageKind {
        match self {
            Content::Text(_) => MessageKind::Text,
            Content::Gift(_) => MessageKind::Gift,
            Content::Photo(_) => MessageKind::Photo,
        }
    }
}

/// What a send did.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    pub message: ChatMessage,
    /// The sender's balance after it.
    pub balance: i64,
    /// False when this client id was sent before: nothing was stored or charged now.
    pub new: bool,
}

/// One conversation in a member's list.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub id: i64,
    pub peer: PeerRow,
    pub unread: i64,
    pub last: Option<MessageRow>,
}

/// The other member as the chat shows them; `href` is left to the app.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerRow {
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub place: String,
    pub thumb: Option<String>,
    pub fictional: bool,
}

impl PeerRow {
    pub fn to_peer(&self, href: String) -> ChatPeer {
        ChatPeer { id: self.id, name: self.name.clone(), age: (self.age > 0).then_some(self.age), place: self.place.clone(), photo: self.thumb.clone(), fictional: self.fictional, href }
    }
}

/// A conversation as its page opens it.
#[derive(Debug, Clone, PartialEq)]
pub struct Thread {
    /// None before the first message with this member.
    pub id: Option<i64>,
    pub peer: PeerRow,
    /// Newest page, oldest first.
    pub messages: Vec<MessageRow>,
    pub has_older: bool,
    pub delivered_up_to: i64,
    pub read_up_to: i64,
    pub unread: i64,
    pub peer_unconfirmed: bool,
    /// The peer blocked the member.
    pub blocked: bool,
}

/// A conversation in the operator console.
#[derive(Debug, Clone, PartialEq)]
pub struct OperatorThread {
    pub id: i64,
    /// The operator-run profile.
    pub profile: PeerRow,
    /// The member writing to it.
    pub member: PeerRow,
    pub last: Option<MessageRow>,
    /// The member's messages after the profile's last answer.
    pub waiting: i64,
}

#[derive(Clone, Debug)]
pub struct Chat {
    members: Members,
    bus: Bus,
    /// New-message mails; absent in tests that do not look at mails.
    mail: Option<(Accounts, String)>,
    media: Option<crate::media::Media>,
    push: Option<crate::push::Pusher>,
    /// The new-message mails sent after a send, so tests can wait for them to be done.
    background: tokio_util::task::TaskTracker,
}

fn today(now: i64) -> Ymd {
    Ymd::from_unix(now)
}

impl Chat {
    pub fn new(members: Members, bus: Bus) -> Chat {
        Chat { members, bus, mail: None, media: None, push: None, background: tokio_util::task::TaskTracker::new() }
    }

    /// New messages mail the recipient (through their preferences); `public_url` is the base of links.
    pub fn with_mail(mut self, accounts: Accounts, public_url: String) -> Chat {
        self.mail = Some((accounts, public_url));
        self
    }

    /// New messages also go to the recipient's browsers by web push.
    pub fn with_push(mut self, push: crate::push::Pusher) -> Chat {
        self.push = Some(push);
        self
    }

    /// Where chat photos are kept.
    pub fn with_media(mut self, media: crate::media::Media) -> Chat {
        self.media = Some(media);
        self
    }

    pub fn bus(&self) -> &Bus {
        &self.bus
    }

    fn db(&self) -> &Db {
        self.members.db()
    }

    fn pool(&self) -> &sqlx::AnyPool {
        self.db().pool()
    }

    /// Sends a message. Refusals: `not_found` (no such conversation of the member's, or an
    /// unknown member), `blocked_by_member`, `premium_only` (a third conversation of a free
    /// member), `insufficient_credits`, and the text's own.
    pub async fn send(&self, site: &Site, me: &Member, to: To, client_id: &str, content: Content, now: i64) -> Result<Sent, AppError> {
        validate_client_id(client_id)?;
        let content = match content {
            Content::Text(text) => Content::Text(validate_text(&text, site.message_length)?),
            other => other,
        };
        if let Some(sent) = self.already_sent(me.id, client_id).await? {
            return Ok(sent);
        }
        let peer = match to {
            To::Conversation(id) => self.peer_in(id, me.id).await?.ok_or(ErrorCode::NotFound)?,
            To::Member(id) => id,
        };
        let payer = Payer::Member { premium: me.paid_user, confirmed: me.is_confirmed() };
        self.store(site, Outgoing { sender: me.id, peer, client_id, content, payer }, now).await
    }

    /// Operators answer as a fictional profile in one of its conversations (free of charge).
    pub async fn operator_send(&self, site: &Site, operator: &Member, conversation: i64, client_id: &str, text: &str, now: i64) -> Result<Sent, AppError> {
        require_operator(operator)?;
        validate_client_id(client_id)?;
        let text = validate_text(text, site.message_length)?;
        let row = sqlx::query(
            "SELECT c.low_id, c.high_id, (SELECT u.id FROM users u WHERE u.id IN (c.low_id, c.high_id) AND u.fictional = $2 LIMIT 1) AS profile_id \
             FROM conversations c WHERE c.id = $1 AND c.site_id = $3 AND c.fictional = $2",
        )
        .bind(conversation)
        .bind(true)
        .bind(site.id)
        .fetch_optional(self.pool())
        .await?
        .ok_or(ErrorCode::NotFound)?;
        let profile: i64 = row.try_get::<Option<i64>, _>("profile_id")?.ok_or(ErrorCode::NotFound)?;
        let (low, high): (i64, i64) = (row.try_get("low_id")?, row.try_get("high_id")?);
        let member = if low == profile { high } else { low };
        if let Some(sent) = self.already_sent(profile, client_id).await? {
            return Ok(sent);
        }
        let payer = Payer::Operator { operator: operator.id };
        self.store(site, Outgoing { sender: profile, peer: member, client_id, content: Content::Text(text), payer }, now).await
    }

    async fn already_sent(&self, sender: i64, client_id: &str) -> Result<Option<Sent>, AppError> {
        let row = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS}, u.credits FROM messages m JOIN users u ON u.id = m.sender_id WHERE m.sender_id = $1 AND m.client_id = $2"))
            .bind(sender)
            .bind(client_id)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let message = MessageRow::from_row(&row)?;
        Ok(Some(Sent { message: message.view(sender), balance: row.try_get("credits")?, new: false }))
    }

    /// The other member of a conversation of `me`'s.
    async fn peer_in(&self, conversation: i64, me: i64) -> Result<Option<i64>, AppError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT peer_id FROM chat_members WHERE conversation_id = $1 AND user_id = $2").bind(conversation).bind(me).fetch_optional(self.pool()).await?;
        Ok(row.map(|(p,)| p))
    }

    /// Stores a send, in named steps: the recipient must be reachable; then, in one transaction
    /// that holds the sender's row, a retry answers the first send, the conversation is found or
    /// started, the message is written and paid for, and both members' lists move; after the
    /// commit the sockets, mail and push hear of it.
    async fn store(&self, site: &Site, send: Outgoing<'_>, now: i64) -> Result<Sent, AppError> {
        let recipient = self.recipient(site, &send).await?;
        let mut tx = self.db().begin().await?;
        // The sender's row lock first (a write, so SQLite takes its write lock at once): one
        // member's sends happen one after the other.
        let (free_used, started, credits): (i64, i64, i64) =
            sqlx::query_as("UPDATE users SET free_messages_used = free_messages_used WHERE id = $1 RETURNING free_messages_used, conversations_started, credits")
                .bind(send.sender)
                .fetch_one(&mut *tx)
                .await?;
        // A parallel retry of the same send may have committed while we waited for the lock.
        let repeat: Option<(i64,)> = sqlx::query_as("SELECT id FROM messages WHERE sender_id = $1 AND client_id = $2").bind(send.sender).bind(send.client_id).fetch_optional(&mut *tx).await?;
        if repeat.is_some() {
            drop(tx);
            return self.already_sent(send.sender, send.client_id).await?.ok_or_else(|| AppError::Internal("a repeated send vanished".into()));
        }
        let conversation = conversation_for(&mut tx, site, &send, recipient.fictional, started, now).await?;
        let (price, free) = price_of(site, &send, free_used);
        let held = !(send.payer.confirmed() && recipient.confirmed);
        let id = insert_message(&mut tx, conversation, &send, price, free, held, now).await?;
        let balance = pay(&mut tx, send.sender, id, price, free, credits, now).await?;
        move_lists(&mut tx, conversation, send.sender, send.peer, id, held, now).await?;
        // The recipient's sockets get the message, then their new unread total (see `Bus::dispatch`).
        let signals = [Signal::Message { id, conversation, sender: send.sender, recipient: send.peer }];
        self.bus.stage(&mut tx, &signals).await?;
        tx.commit().await?;
        self.bus.committed(&signals);
        if !held && !recipient.fictional {
            self.mail_after_send(site, send.sender, send.peer, conversation);
            if let Some(push) = &self.push {
                push.send_later(&site.name, send.peer, send.sender, crate::push::PushKind::Message { conversation });
            }
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
            client_id: send.client_id.to_string(),
            held,
            created_at: now,
        };
        Ok(Sent { message: message.view(send.sender), balance, new: true })
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

    fn mail_after_send(&self, site: &Site, sender: i64, to: i64, conversation: i64) {
        let Some((accounts, public_url)) = self.mail.clone() else { return };
        let settings = site.settings.clone();
        let base_url = site.base_url(&public_url);
        self.background.spawn(async move {
            if let Err(error) = accounts.mail_message(&settings, &base_url, to, sender, conversation).await {
                tracing::warn!(%error, to, "could not send the new-message mail");
            }
        });
    }

    /// Waits until the new-message mails of earlier sends are done (or given up).
    pub async fn background_done(&self) {
        self.background.close();
        self.background.wait().await;
        self.background.reopen();
    }

    /// The member's conversations, newest first (deleted ones until a new message arrives).
    pub async fn conversations(&self, me: i64, now: i64) -> Result<Vec<Summary>, AppError> {
        let rows = sqlx::query(&format!(
            "SELECT c.conversation_id, c.unread, {CARD_COLUMNS}, m.id AS m_id FROM chat_members c JOIN profiles p ON p.user_id = c.peer_id \
             LEFT JOIN messages m ON m.id = c.last_message_id WHERE c.user_id = $1 AND c.last_message_id > c.cleared_up_to \
             ORDER BY c.last_message_id DESC LIMIT 500"
        ))
        .bind(me)
        .fetch_all(self.pool())
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        let last_ids: Vec<i64> = rows.iter().filter_map(|r| r.try_get::<Option<i64>, _>("m_id").ok().flatten()).collect();
        let lasts = self.rows_by_id(&last_ids).await?;
        for row in &rows {
            let id: i64 = row.try_get("conversation_id")?;
            let last_id: Option<i64> = row.try_get("m_id")?;
            out.push(Summary { id, peer: self.peer_row(row, now)?, unread: row.try_get("unread")?, last: last_id.and_then(|l| lasts.iter().find(|m| m.id == l).cloned()) });
        }
        Ok(out)
    }

    async fn rows_by_id(&self, ids: &[i64]) -> Result<Vec<MessageRow>, AppError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // Ids are numbers from our own query, never text from the request.
        let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let rows = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.id IN ({list})")).fetch_all(self.pool()).await?;
        rows.iter().map(MessageRow::from_row).collect()
    }

    fn peer_row(&self, row: &AnyRow, now: i64) -> Result<PeerRow, AppError> {
        let card = self.members.card(row, today(now))?;
        Ok(PeerRow { id: card.id, place: card.place(), name: card.name, age: card.age, thumb: card.thumb, fictional: card.fictional })
    }

    /// One of the member's conversations with its newest page of messages.
    pub async fn thread(&self, me: i64, conversation: i64, now: i64) -> Result<Thread, AppError> {
        let peer = self.peer_in(conversation, me).await?.ok_or(ErrorCode::NotFound)?;
        self.thread_with(me, peer, now).await?.filter(|t| t.id == Some(conversation)).ok_or_else(|| ErrorCode::NotFound.into())
    }

    /// The conversation with a member, or an empty one when none exists yet. None when the
    /// member is not someone `me` can write to (unknown, another site, gone, or blocked by `me`).
    pub async fn thread_with(&self, me: i64, peer: i64, now: i64) -> Result<Option<Thread>, AppError> {
        if me == peer {
            return Ok(None);
        }
        let row = sqlx::query(&format!(
            "SELECT {CARD_COLUMNS}, u.status, {blocks}, \
             (SELECT c.id FROM conversations c WHERE c.low_id = $3 AND c.high_id = $4) AS conversation_id \
             FROM profiles p JOIN users u ON u.id = p.user_id JOIN users me ON me.id = $1 WHERE p.user_id = $2 AND u.site_id = me.site_id",
            blocks = crate::visibility::BLOCK_DIRECTIONS
        ))
        .bind(me)
        .bind(peer)
        .bind(me.min(peer))
        .bind(me.max(peer))
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let status: String = row.try_get("status")?;
        if row.try_get::<i64, _>("blocked_by_me")? > 0 || !matches!(UserStatus::parse(&status), Some(UserStatus::Active | UserStatus::NotConfirmed)) {
            return Ok(None);
        }
        let blocked = row.try_get::<i64, _>("blocked_me")? > 0;
        let peer_row = self.peer_row(&row, now)?;
        let conversation: Option<i64> = row.try_get("conversation_id")?;
        let mut thread = Thread {
            id: conversation,
            peer: peer_row,
            messages: Vec::new(),
            has_older: false,
            delivered_up_to: 0,
            read_up_to: 0,
            unread: 0,
            peer_unconfirmed: status == UserStatus::NotConfirmed.as_str(),
            blocked,
        };
        if let Some(id) = conversation {
            let sides = sqlx::query("SELECT user_id, read_up_to, delivered_up_to, unread FROM chat_members WHERE conversation_id = $1").bind(id).fetch_all(self.pool()).await?;
            for side in &sides {
                let user: i64 = side.try_get("user_id")?;
                if user == peer {
                    thread.read_up_to = side.try_get("read_up_to")?;
                    thread.delivered_up_to = side.try_get::<i64, _>("delivered_up_to")?.max(thread.read_up_to);
                } else {
                    thread.unread = side.try_get("unread")?;
                }
            }
            let (messages, has_older) = self.page(me, id, None).await?;
            thread.messages = messages;
            thread.has_older = has_older;
        }
        Ok(Some(thread))
    }

    /// A page of the member's conversation before message `before` (the newest page without),
    /// oldest first, and whether older ones exist.
    pub async fn page(&self, me: i64, conversation: i64, before: Option<i64>) -> Result<(Vec<MessageRow>, bool), AppError> {
        let (cleared,): (i64,) = sqlx::query_as("SELECT cleared_up_to FROM chat_members WHERE conversation_id = $1 AND user_id = $2")
            .bind(conversation)
            .bind(me)
            .fetch_optional(self.pool())
            .await?
            .ok_or(ErrorCode::NotFound)?;
        let size = domain::chat::PAGE_SIZE;
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = $1 AND m.id > $2 AND m.id < $3 AND (m.sender_id = $4 OR m.held = $5) \
             ORDER BY m.id DESC LIMIT {}",
            size + 1
        ))
        .bind(conversation)
        .bind(cleared)
        .bind(before.unwrap_or(i64::MAX))
        .bind(me)
        .bind(false)
        .fetch_all(self.pool())
        .await?;
        let mut messages = rows.iter().map(MessageRow::from_row).collect::<Result<Vec<_>, _>>()?;
        let has_older = messages.len() as i64 > size;
        messages.truncate(size as usize);
        messages.reverse();
        Ok((messages, has_older))
    }

    /// The member read the conversation up to `up_to` (SPEC §4: opening it sets its unread
    /// count to 0). The peer's client is told (their read mark), and the member's other tabs.
    pub async fn mark_read(&self, me: i64, conversation: i64, up_to: i64) -> Result<i64, AppError> {
        let peer = self.peer_in(conversation, me).await?.ok_or(ErrorCode::NotFound)?;
        let mut tx = self.db().begin().await?;
        let (last,): (i64,) = sqlx::query_as("UPDATE chat_members SET mailed = $1 WHERE conversation_id = $2 AND user_id = $3 RETURNING last_message_id")
            .bind(false)
            .bind(conversation)
            .bind(me)
            .fetch_one(&mut *tx)
            .await?;
        // Never past what the member can see.
        let up_to = up_to.min(last);
        let moved = sqlx::query(
            "UPDATE chat_members SET read_up_to = $1, delivered_up_to = CASE WHEN delivered_up_to > $1 THEN delivered_up_to ELSE $1 END, \
             unread = (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = $2 AND m.recipient_id = $3 AND m.held = $4 AND m.id > $1) \
             WHERE conversation_id = $2 AND user_id = $3 AND read_up_to < $1",
        )
        .bind(up_to)
        .bind(conversation)
        .bind(me)
        .bind(false)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        let signals = if moved { vec![Signal::Read { conversation, to: peer, up_to }, Signal::Counters { user: me }] } else { Vec::new() };
        self.bus.stage(&mut tx, &signals).await?;
        tx.commit().await?;
        self.bus.committed(&signals);
        Ok(up_to)
    }

    /// SPEC §4: the conversation leaves the member's list (until a new message arrives); the
    /// peer keeps theirs.
    pub async fn delete(&self, me: i64, conversation: i64) -> Result<(), AppError> {
        let mut tx = self.db().begin().await?;
        let done = sqlx::query("UPDATE chat_members SET cleared_up_to = last_message_id, read_up_to = last_message_id, unread = 0 WHERE conversation_id = $1 AND user_id = $2")
            .bind(conversation)
            .bind(me)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(ErrorCode::NotFound.into());
        }
        let signals = [Signal::Removed { conversation, user: me }, Signal::Counters { user: me }];
        self.bus.stage(&mut tx, &signals).await?;
        tx.commit().await?;
        self.bus.committed(&signals);
        Ok(())
    }

    /// The member is typing in a conversation of theirs (not stored; the peer's client lets it expire).
    pub async fn typing(&self, me: i64, conversation: i64) -> Result<(), AppError> {
        let peer = self.peer_in(conversation, me).await?.ok_or(ErrorCode::NotFound)?;
        self.bus.publish(&[Signal::Typing { conversation, from: me, to: peer }]).await
    }

    /// After a block: tell both members' clients that their conversation is gone (the block's
    /// transaction removed it, see `Members::block`).
    pub async fn removed_by_block(&self, conversation: Option<i64>, a: i64, b: i64) -> Result<(), AppError> {
        let Some(conversation) = conversation else { return Ok(()) };
        self.bus.publish(&[Signal::Removed { conversation, user: a }, Signal::Removed { conversation, user: b }, Signal::Counters { user: a }, Signal::Counters { user: b }]).await
    }

    /// Messages that waited for `user`'s confirmation go out once both sides are confirmed.
    pub async fn release_held(&self, user: i64) -> Result<usize, AppError> {
        let mut tx = self.db().begin().await?;
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM messages m JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id \
             WHERE m.held = $1 AND (m.sender_id = $2 OR m.recipient_id = $2) AND s.status = $3 AND r.status = $3 ORDER BY m.id"
        ))
        .bind(true)
        .bind(user)
        .bind(domain::account::UserStatus::Active.as_str())
        .fetch_all(&mut *tx)
        .await?;
        let released = rows.iter().map(MessageRow::from_row).collect::<Result<Vec<_>, _>>()?;
        let mut signals = Vec::new();
        for m in &released {
            sqlx::query("UPDATE messages SET held = $1 WHERE id = $2").bind(false).bind(m.id).execute(&mut *tx).await?;
            sqlx::query(
                "UPDATE chat_members SET unread = unread + 1, last_message_id = CASE WHEN last_message_id > $1 THEN last_message_id ELSE $1 END, \
                 last_at = CASE WHEN last_at > $2 THEN last_at ELSE $2 END WHERE conversation_id = $3 AND user_id = $4",
            )
            .bind(m.id)
            .bind(m.created_at)
            .bind(m.conversation_id)
            .bind(m.recipient_id)
            .execute(&mut *tx)
            .await?;
            signals.push(Signal::Message { id: m.id, conversation: m.conversation_id, sender: m.sender_id, recipient: m.recipient_id });
        }
        self.bus.stage(&mut tx, &signals).await?;
        tx.commit().await?;
        self.bus.committed(&signals);
        Ok(released.len())
    }

    /// The stored key of a chat photo, for one of the conversation's two members only (and not
    /// while it waits for the recipient). None for everyone else.
    pub async fn photo_key(&self, viewer: i64, message_id: i64) -> Result<Option<String>, AppError> {
        let row = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} FROM messages m JOIN chat_members c ON c.conversation_id = m.conversation_id AND c.user_id = $2 WHERE m.id = $1 AND m.id > c.cleared_up_to"))
            .bind(message_id)
            .bind(viewer)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        if !MessageRow::from_row(&row)?.visible_to(viewer) {
            return Ok(None);
        }
        Ok(row.try_get("photo_key")?)
    }

    /// A chat photo's bytes for `viewer` (see [`Chat::photo_key`]).
    pub async fn photo(&self, viewer: i64, message_id: i64) -> Result<Option<Vec<u8>>, AppError> {
        let (Some(key), Some(media)) = (self.photo_key(viewer, message_id).await?, self.media.as_ref()) else { return Ok(None) };
        media.get(&key).await
    }

    /// Re-encodes an uploaded photo (EXIF gone) and sends it. A repeated client id sends nothing.
    pub async fn send_photo(&self, site: &Site, me: &Member, to: To, client_id: &str, bytes: Vec<u8>, decoder: &crate::members::photo_decode::PhotoDecoder, now: i64) -> Result<Sent, AppError> {
        validate_client_id(client_id)?;
        if let Some(sent) = self.already_sent(me.id, client_id).await? {
            return Ok(sent);
        }
        let media = self.media.clone().ok_or_else(|| AppError::Internal("chat photos need a media store".into()))?;
        let renditions = decoder.decode(bytes).await?;
        let key = format!("chat/{}/{}.jpg", me.id, crate::members::photos::random_suffix());
        media.put(&key, renditions.full).await?;
        match self.send(site, me, to, client_id, Content::Photo(key.clone()), now).await {
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

    /// The operator console's conversations: only those with a fictional profile, newest first.
    pub async fn operator_threads(&self, operator: &Member, site_id: i64, now: i64) -> Result<Vec<OperatorThread>, AppError> {
        require_operator(operator)?;
        self.fictional_threads(site_id, None, now).await
    }

    /// Conversations with a fictional profile on a site (or just the one asked for).
    async fn fictional_threads(&self, site_id: i64, only: Option<i64>, now: i64) -> Result<Vec<OperatorThread>, AppError> {
        let one = if only.is_some() { " AND c.id = $3" } else { "" };
        let sql = format!(
            "SELECT c.id, c.low_id, c.high_id, c.last_message_id, (SELECT u.id FROM users u WHERE u.id IN (c.low_id, c.high_id) AND u.fictional = $1 LIMIT 1) AS profile_id \
             FROM conversations c WHERE c.site_id = $2 AND c.fictional = $1{one} ORDER BY c.last_message_id DESC LIMIT 200"
        );
        let mut query = sqlx::query(&sql).bind(true).bind(site_id);
        if let Some(id) = only {
            query = query.bind(id);
        }
        let rows = query.fetch_all(self.pool()).await?;
        // (conversation, profile, member, last message), then three queries for all of them at
        // once: the waiting counts, the cards and the last messages.
        let mut threads = Vec::with_capacity(rows.len());
        for row in &rows {
            let Some(profile) = row.try_get::<Option<i64>, _>("profile_id")? else { continue };
            let (low, high): (i64, i64) = (row.try_get("low_id")?, row.try_get("high_id")?);
            let member = if low == profile { high } else { low };
            threads.push((row.try_get::<i64, _>("id")?, profile, member, row.try_get::<i64, _>("last_message_id")?));
        }
        if threads.is_empty() {
            return Ok(Vec::new());
        }
        // Ids are numbers from our own query, never text from the request.
        let list = |ids: &mut dyn Iterator<Item = i64>| ids.map(|id| id.to_string()).collect::<Vec<_>>().join(", ");
        let conversations = list(&mut threads.iter().map(|t| t.0));
        // The member's messages after the profile's last answer.
        let waiting: std::collections::HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(&format!(
            "SELECT m.conversation_id, COUNT(*) FROM messages m JOIN users s ON s.id = m.sender_id \
             WHERE m.conversation_id IN ({conversations}) AND s.fictional = $1 \
             AND m.id > COALESCE((SELECT MAX(a.id) FROM messages a JOIN users f ON f.id = a.sender_id WHERE a.conversation_id = m.conversation_id AND f.fictional = $2), 0) \
             GROUP BY m.conversation_id"
        ))
        .bind(false)
        .bind(true)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .collect();
        let people = list(&mut threads.iter().flat_map(|t| [t.1, t.2]));
        let cards = sqlx::query(&format!("SELECT {CARD_COLUMNS} FROM profiles p WHERE p.user_id IN ({people})")).fetch_all(self.pool()).await?;
        let cards: std::collections::HashMap<i64, PeerRow> = cards.iter().map(|r| self.peer_row(r, now).map(|c| (c.id, c))).collect::<Result<_, _>>()?;
        let lasts: Vec<i64> = threads.iter().map(|t| t.3).collect();
        let mut lasts: std::collections::HashMap<i64, MessageRow> = self.rows_by_id(&lasts).await?.into_iter().map(|m| (m.id, m)).collect();
        let mut out = Vec::with_capacity(threads.len());
        for (id, profile, member, last) in threads {
            let (Some(profile), Some(member)) = (cards.get(&profile).cloned(), cards.get(&member).cloned()) else { continue };
            out.push(OperatorThread { id, profile, member, last: lasts.remove(&last), waiting: waiting.get(&id).copied().unwrap_or(0) });
        }
        Ok(out)
    }

    /// An operator's view of one fictional conversation: (profile, member, newest messages as the profile sees them).
    pub async fn operator_thread(&self, operator: &Member, site_id: i64, conversation: i64, now: i64) -> Result<(OperatorThread, Vec<ChatMessage>), AppError> {
        require_operator(operator)?;
        let thread = self.fictional_threads(site_id, Some(conversation), now).await?.pop().ok_or(ErrorCode::NotFound)?;
        let rows = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = $1 ORDER BY m.id DESC LIMIT 100"))
            .bind(conversation)
            .fetch_all(self.pool())
            .await?;
        let mut messages = rows.iter().map(|r| MessageRow::from_row(r).map(|m| m.view(thread.profile.id))).collect::<Result<Vec<_>, _>>()?;
        messages.reverse();
        Ok((thread, messages))
    }

    /// The newest message id the member can see, where a new socket starts when the page had none.
    pub async fn latest_id(&self, me: i64) -> Result<i64, AppError> {
        store::latest_id(self.db(), me).await
    }

    /// Free text messages the member has left on this site.
    pub fn free_left(site: &Site, free_used: i64) -> i64 {
        (site.free_messages - free_used).max(0)
    }

    /// How many free messages the member used.
    pub async fn free_used(&self, me: i64) -> Result<i64, AppError> {
        let (used,): (i64,) = sqlx::query_as("SELECT free_messages_used FROM users WHERE id = $1").bind(me).fetch_one(self.pool()).await?;
        Ok(used)
    }
}

/// Who pays for a send.
#[derive(Debug, Clone, Copy)]
enum Payer {
    Member { premium: bool, confirmed: bool },
    /// An operator answering as a fictional profile: free, never held.
    Operator { operator: i64 },
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
struct Outgoing<'a> {
    sender: i64,
    peer: i64,
    client_id: &'a str,
    content: Content,
    payer: Payer,
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

type Tx<'t> = sqlx::Transaction<'t, sqlx::Any>;

/// The pair's conversation, started by this send when there is none: a free member may start
/// only so many ([`may_start_conversation`]); a conversation the peer started at the same
/// moment is theirs, not a start of the sender's.
async fn conversation_for(tx: &mut Tx<'_>, site: &Site, send: &Outgoing<'_>, peer_fictional: bool, started: i64, now: i64) -> Result<i64, AppError> {
    let (sender, peer) = (send.sender, send.peer);
    let (low, high) = (sender.min(peer), sender.max(peer));
    let existing: Option<(i64,)> = sqlx::query_as("SELECT id FROM conversations WHERE low_id = $1 AND high_id = $2").bind(low).bind(high).fetch_optional(&mut **tx).await?;
    if let Some((id,)) = existing {
        return Ok(id);
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
                sqlx::query("INSERT INTO chat_members (conversation_id, user_id, peer_id) VALUES ($1, $2, $3)").bind(id).bind(user).bind(other).execute(&mut **tx).await?;
            }
            sqlx::query("UPDATE users SET conversations_started = conversations_started + 1 WHERE id = $1").bind(sender).execute(&mut **tx).await?;
            Ok(id)
        }
        None => {
            let (id,): (i64,) = sqlx::query_as("SELECT id FROM conversations WHERE low_id = $1 AND high_id = $2").bind(low).bind(high).fetch_one(&mut **tx).await?;
            Ok(id)
        }
    }
}

/// What the send costs in credits, and whether it is one of the member's free messages.
fn price_of(site: &Site, send: &Outgoing<'_>, free_used: i64) -> (i64, bool) {
    match send.payer {
        Payer::Operator { .. } => (0, false),
        Payer::Member { .. } => {
            let kind = send.content.kind();
            let price = domain::chat::cost(kind, site.message_credits, site.photo_credits, site.gift_credits);
            match charge(kind, price, site.free_messages, free_used) {
                Charge::Free => (0, true),
                Charge::Credits(n) => (n, false),
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn insert_message(tx: &mut Tx<'_>, conversation: i64, send: &Outgoing<'_>, price: i64, free: bool, held: bool, now: i64) -> Result<i64, AppError> {
    let (body, gift, photo_key) = send.content.parts();
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO messages (conversation_id, sender_id, recipient_id, kind, body, gift, photo_key, client_id, cost, free, held, operator_id, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
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
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// Books the message's price in the ledger (refused with `insufficient_credits`, and dropping
/// the transaction then undoes the message) or counts a free message; answers the balance.
async fn pay(tx: &mut Tx<'_>, sender: i64, message: i64, price: i64, free: bool, credits: i64, now: i64) -> Result<i64, AppError> {
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

fn require_operator(member: &Member) -> Result<(), ApiError> {
    if member.operator {
        Ok(())
    } else {
        Err(ApiError::new(ErrorCode::Forbidden))
    }
}
