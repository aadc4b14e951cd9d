//! Chat (SPEC §1, §3 Chat state, §4, §6, §9): conversations between two members, messages paid
//! in credits, read and delivered marks, and the operator console for fictional profiles.
//!
//! A send is one transaction: the message row, its ledger booking (reference `message:{id}`) and
//! both members' list state commit together or not at all. The client makes an id per send, so
//! a retried send finds its message instead of storing and charging a second one. Real-time
//! pushes leave through the [`bus::Bus`]; the socket itself lives in `crate::http::ws`.
//!
//! Here: the types and reading (lists, threads, pages, read marks, deleting, photos); `send`
//! stores sends; `console` is the operators' side; `store` the shared row reading; `bus` the
//! pushes between nodes and sockets.

pub mod bus;
mod console;
pub mod contact;
mod one_call;
pub mod photo_review;
mod review;
mod send;
pub mod signal;
pub mod store;
mod write;

pub use console::{Claim, MemberFigures, OperatorFigures, OperatorThread};
pub use review::{HeldSender, Released};

use domain::account::{UserStatus, Ymd};
use domain::chat::{Gift, MessageKind};
use domain::widgets::{ChatMessage, ChatPeer};
use domain::ErrorCode;
use sqlx::Row;

use self::bus::{Bus, Signal};
use self::store::{MessageRow, MESSAGE_COLUMNS};
use crate::accounts::Accounts;
use crate::db::Db;
use crate::error::AppError;
use crate::members::search::{CardRow, CARD_COLUMNS};
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
    /// The sender's free messages used, after it.
    pub free_used: i64,
    /// False when this client id was sent before: nothing was stored or charged now.
    pub new: bool,
    /// The kinds of contact detail hidden in the text (the sender is told).
    pub masked: Vec<domain::contact::ContactKind>,
    /// The kinds of contact detail that hold the message for staff's review.
    pub held: Vec<domain::contact::ContactKind>,
    /// The sender keeps trying to share contact details: told that next tries are held.
    pub warned: bool,
}

/// One conversation in a member's list.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub id: i64,
    pub peer: PeerRow,
    pub unread: i64,
    pub last: Option<MessageRow>,
}

/// The other member as the chat shows them; the profile's and the photo's addresses are left to
/// the app (`thumb` is the stored file's key, not an address).
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
    pub fn to_peer(&self, href: String, photo: Option<String>) -> ChatPeer {
        ChatPeer {
            id: self.id,
            name: self.name.clone(),
            age: (self.age > 0).then_some(self.age),
            place: self.place.clone(),
            photo,
            fictional: self.fictional,
            href,
        }
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
    /// The recipients' digests of unread messages queued today.
    digests: crate::lifecycle::DigestNotes,
    /// What looks at members' chat photos as they are sent (`crate::moderation`).
    photo_classifier: crate::moderation::PhotoClassifier,
    /// Sends stored in one database call ([`Chat::sends_in_one_call`]).
    one_call: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

fn today(now: i64) -> Ymd {
    Ymd::from_unix(now)
}

impl Chat {
    pub fn new(members: Members, bus: Bus) -> Chat {
        Chat {
            members,
            bus,
            mail: None,
            media: None,
            push: None,
            background: tokio_util::task::TaskTracker::new(),
            digests: Default::default(),
            photo_classifier: Default::default(),
            one_call: Default::default(),
        }
    }

    /// Members' chat photos are looked at by this classifier as they are sent.
    pub fn with_photo_classifier(mut self, classifier: crate::moderation::PhotoClassifier) -> Chat {
        self.photo_classifier = classifier;
        self
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

    /// The other member of a conversation of `me`'s.
    async fn peer_in(&self, conversation: i64, me: i64) -> Result<Option<i64>, AppError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT peer_id FROM chat_members WHERE conversation_id = $1 AND user_id = $2")
            .bind(conversation)
            .bind(me)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|(p,)| p))
    }

    /// Waits until the new-message mails of earlier sends are done (or given up).
    pub async fn background_done(&self) {
        self.background.close();
        self.background.wait().await;
        self.background.reopen();
    }

    /// The member's conversations, newest first (deleted ones until a new message arrives).
    pub async fn conversations(&self, me: i64, now: i64) -> Result<Vec<Summary>, AppError> {
        /// A conversation in the member's list, with the other member's card and its last message.
        #[derive(sqlx::FromRow)]
        struct SummaryRow {
            conversation_id: i64,
            unread: i64,
            #[sqlx(flatten)]
            card: CardRow,
            m_id: Option<i64>,
        }
        let rows = sqlx::query_as::<_, SummaryRow>(&format!(
            "SELECT c.conversation_id, c.unread, {CARD_COLUMNS}, m.id AS m_id FROM chat_members c JOIN profiles p ON p.user_id = c.peer_id \
             LEFT JOIN messages m ON m.id = c.last_message_id WHERE c.user_id = $1 AND c.last_message_id > c.cleared_up_to \
             ORDER BY c.last_message_id DESC LIMIT 500"
        ))
        .bind(me)
        .fetch_all(self.pool())
        .await?;
        let last_ids: Vec<i64> = rows.iter().filter_map(|r| r.m_id).collect();
        let lasts = self.rows_by_id(&last_ids).await?;
        Ok(rows
            .into_iter()
            .map(|row| Summary {
                id: row.conversation_id,
                peer: self.peer_of(row.card, now),
                unread: row.unread,
                last: row.m_id.and_then(|l| lasts.iter().find(|m| m.id == l).cloned()),
            })
            .collect())
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

    fn peer_of(&self, row: CardRow, now: i64) -> PeerRow {
        let card = self.members.card_of(row, today(now));
        PeerRow { id: card.id, place: card.place(), name: card.name, age: card.age, thumb: card.thumb, fictional: card.fictional }
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
        /// The other member's card and status, blocks either way, and the conversation if any.
        #[derive(sqlx::FromRow)]
        struct PeerFacts {
            #[sqlx(flatten)]
            card: CardRow,
            status: String,
            blocked_by_me: i64,
            blocked_me: i64,
            conversation_id: Option<i64>,
        }
        /// One side of a conversation: how far it has read and received.
        #[derive(sqlx::FromRow)]
        struct Side {
            user_id: i64,
            read_up_to: i64,
            delivered_up_to: i64,
            unread: i64,
        }
        let row = sqlx::query_as::<_, PeerFacts>(&format!(
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
        let status = row.status;
        if row.blocked_by_me > 0 || !matches!(UserStatus::parse(&status), Some(UserStatus::Active | UserStatus::NotConfirmed)) {
            return Ok(None);
        }
        let blocked = row.blocked_me > 0;
        let peer_row = self.peer_of(row.card, now);
        let conversation = row.conversation_id;
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
            let sides = sqlx::query_as::<_, Side>("SELECT user_id, read_up_to, delivered_up_to, unread FROM chat_members WHERE conversation_id = $1")
                .bind(id)
                .fetch_all(self.pool())
                .await?;
            for side in &sides {
                if side.user_id == peer {
                    thread.read_up_to = side.read_up_to;
                    thread.delivered_up_to = side.delivered_up_to.max(thread.read_up_to);
                } else {
                    thread.unread = side.unread;
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
        let done = sqlx::query(
            "UPDATE chat_members SET cleared_up_to = last_message_id, read_up_to = last_message_id, unread = 0 WHERE conversation_id = $1 AND user_id = $2",
        )
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
        self.bus
            .publish(&[
                Signal::Removed { conversation, user: a },
                Signal::Removed { conversation, user: b },
                Signal::Counters { user: a },
                Signal::Counters { user: b },
            ])
            .await
    }

    /// Messages that waited for `user`'s confirmation go out once both sides are confirmed.
    pub async fn release_held(&self, user: i64) -> Result<usize, AppError> {
        let mut tx = self.db().begin().await?;
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM messages m JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id \
             WHERE m.held = $1 AND m.review = $4 AND (m.sender_id = $2 OR m.recipient_id = $2) AND s.status = $3 AND r.status = $3 ORDER BY m.id"
        ))
        .bind(true)
        .bind(user)
        .bind(domain::account::UserStatus::Active.as_str())
        .bind(false)
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
    /// while it waits for the recipient, nor while staff's review hides it from them, nor once
    /// staff turned it down), with whether a browser may keep it (not while staff may still
    /// turn it down). None for everyone else.
    pub async fn photo_key(&self, viewer: i64, message_id: i64) -> Result<Option<(String, bool)>, AppError> {
        let row = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} FROM messages m JOIN chat_members c ON c.conversation_id = m.conversation_id AND c.user_id = $2 WHERE m.id = $1 AND m.id > c.cleared_up_to"))
            .bind(message_id)
            .bind(viewer)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let message = MessageRow::from_row(&row)?;
        if !message.visible_to(viewer) || !message.photo_visible_to(viewer) {
            return Ok(None);
        }
        let key: Option<String> = row.try_get("photo_key")?;
        Ok(key.map(|key| (key, !message.photo_review.is_some_and(domain::moderation::PhotoReview::waits))))
    }

    /// A chat photo's bytes for `viewer` (see [`Chat::photo_key`]), and whether a browser may
    /// keep them.
    pub async fn photo(&self, viewer: i64, message_id: i64) -> Result<Option<(Vec<u8>, bool)>, AppError> {
        let (Some((key, keep)), Some(media)) = (self.photo_key(viewer, message_id).await?, self.media.as_ref()) else { return Ok(None) };
        Ok(media.get(&key).await?.map(|bytes| (bytes, keep)))
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
