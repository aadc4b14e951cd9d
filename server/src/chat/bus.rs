//! Real-time fan-out (DESIGN: realtime). Writers publish small [`Signal`]s carrying ids only;
//! every node's [`Bus`] hands them to the sockets it holds. On SQLite (one node) a signal is
//! dispatched in-process after its transaction commits. On PostgreSQL it is a `NOTIFY` inside
//! the writer's transaction (so it is sent only if the write commits) and every node, the
//! writer's own included, receives it through one `LISTEN` connection. When that connection
//! drops, notifications sent meanwhile are lost, so every local socket resyncs from its last id.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use sqlx::{Any, Transaction};
use tokio::sync::mpsc;

use domain::chat::{Gift, MessageKind};
use domain::moderation::PhotoReview;

use super::store::{self, MessageRow};
use crate::db::{Backend, Db, Heard};
use crate::error::AppError;

/// The tag of [`Signal::Delivered`] (the batched delivered marks write it in SQL too).
pub(crate) const DELIVERED_TAG: &str = "d";

/// The PostgreSQL channel of chat signals.
pub const CHANNEL: &str = "vonk_chat";
/// Pushes waiting for one socket; a socket that falls this far behind is closed and resyncs
/// when it reconnects.
pub const SOCKET_QUEUE: usize = 256;
/// Queue changes kept for slow queue pages (they only need to know that something changed).
const QUEUE_BACKLOG: usize = 16;

/// Something happened that sockets may need to know. Ids only: receivers read what they need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// A message was stored (or released after a confirmation).
    Message { id: i64, conversation: i64, sender: i64, recipient: i64 },
    /// `to`'s messages in the conversation reached the peer's client up to `up_to`.
    Delivered { conversation: i64, to: i64, up_to: i64 },
    /// `to`'s messages in the conversation were read up to `up_to`.
    Read { conversation: i64, to: i64, up_to: i64 },
    /// `from` is typing to `to` (not stored; the client lets it expire).
    Typing { conversation: i64, from: i64, to: i64 },
    /// The conversation is gone from `user`'s list (deleted, or a block).
    Removed { conversation: i64, user: i64 },
    /// `user`'s unread total changed.
    Counters { user: i64 },
    /// `user`'s credit balance changed outside the chat (a payment booked or reversed).
    Balance { user: i64 },
    /// The operators' queue of the site changed (a member wrote to a fictional profile, an
    /// operator answered, took or left a conversation): open queue pages read it again.
    Queue { site: i64 },
}

impl Signal {
    pub fn encode(&self) -> String {
        match *self {
            Signal::Message { id, conversation, sender, recipient } => format!("m,{id},{conversation},{sender},{recipient}"),
            Signal::Delivered { conversation, to, up_to } => format!("{DELIVERED_TAG},{conversation},{to},{up_to}"),
            Signal::Read { conversation, to, up_to } => format!("r,{conversation},{to},{up_to}"),
            Signal::Typing { conversation, from, to } => format!("t,{conversation},{from},{to}"),
            Signal::Removed { conversation, user } => format!("x,{conversation},{user}"),
            Signal::Counters { user } => format!("c,{user}"),
            Signal::Balance { user } => format!("b,{user}"),
            Signal::Queue { site } => format!("q,{site}"),
        }
    }

    pub fn decode(payload: &str) -> Option<Signal> {
        let mut parts = payload.split(',');
        let tag = parts.next()?;
        let n: Vec<i64> = parts.map(|p| p.parse().ok()).collect::<Option<_>>()?;
        Some(match (tag, n.as_slice()) {
            ("m", &[id, conversation, sender, recipient]) => Signal::Message { id, conversation, sender, recipient },
            (DELIVERED_TAG, &[conversation, to, up_to]) => Signal::Delivered { conversation, to, up_to },
            ("r", &[conversation, to, up_to]) => Signal::Read { conversation, to, up_to },
            ("t", &[conversation, from, to]) => Signal::Typing { conversation, from, to },
            ("x", &[conversation, user]) => Signal::Removed { conversation, user },
            ("c", &[user]) => Signal::Counters { user },
            ("b", &[user]) => Signal::Balance { user },
            ("q", &[site]) => Signal::Queue { site },
            _ => return None,
        })
    }
}

/// Signals as `NOTIFY` payloads: separated by `;`, each payload under PostgreSQL's 8,000 bytes.
pub fn payloads(signals: &[Signal]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for signal in signals {
        let encoded = signal.encode();
        match out.last_mut() {
            Some(last) if last.len() + 1 + encoded.len() <= PAYLOAD_MAX => {
                last.push(';');
                last.push_str(&encoded);
            }
            _ => out.push(encoded),
        }
    }
    out
}

/// One `NOTIFY` payload for a write's few signals (a send's: a message, maybe a queue change).
#[cfg(test)]
pub(crate) fn payload(signals: &[Signal]) -> String {
    signals.iter().map(Signal::encode).collect::<Vec<_>>().join(";")
}

/// A send's one `NOTIFY` payload: its other signals, then its message with the row when it
/// fits (else the message's id, and the nodes read it). Its members' figures are left out:
/// the member caches drop both.
pub(crate) fn send_payload(signals: &[Signal], row: &MessageRow) -> String {
    let mut parts: Vec<String> = signals.iter().filter(|s| !matches!(s, Signal::Message { .. })).map(Signal::encode).collect();
    let message = Signal::Message { id: row.id, conversation: row.conversation_id, sender: row.sender_id, recipient: row.recipient_id };
    parts.push(message_with_row(row, Figures::default()).unwrap_or_else(|| message.encode()));
    parts.join(";")
}

/// Every signal of a payload; `None` when any part is not one.
pub fn decode_payload(payload: &str) -> Option<Vec<Signal>> {
    decode_with_row(payload).map(|(signals, _)| signals)
}

/// What a send changed of its two members, as the database had it at the send's commit
/// (PostgreSQL's one-call send writes them in the signal): a member cache takes them instead of
/// reading the members again. `None`: not told (the cache drops the member).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Figures {
    /// The sender's balance after the send.
    pub sender_credits: Option<i64>,
    /// The recipient's unread total after it (none when the message is held: the sender's
    /// figures are all it changed, and the recipient is dropped all the same).
    pub recipient_unread: Option<i64>,
}

/// A message as its signal carries it: the row, and its members' [`Figures`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    pub row: MessageRow,
    pub figures: Figures,
}

/// Every signal of a payload, and the message a [`ROW_TAG`] part carries.
pub fn decode_with_row(payload: &str) -> Option<(Vec<Signal>, Option<Carried>)> {
    let mut signals = Vec::new();
    let mut rest = payload;
    loop {
        if rest.starts_with(ROW_TAG) && rest[ROW_TAG.len()..].starts_with(',') {
            let carried = decode_row(rest)?;
            let row = &carried.row;
            signals.push(Signal::Message { id: row.id, conversation: row.conversation_id, sender: row.sender_id, recipient: row.recipient_id });
            return Some((signals, Some(carried)));
        }
        let (part, next) = match rest.split_once(';') {
            Some((part, next)) => (part, Some(next)),
            None => (rest, None),
        };
        signals.push(Signal::decode(part)?);
        match next {
            Some(next) => rest = next,
            None => return Some((signals, None)),
        }
    }
}

/// The tag of a message's signal that carries its row, so that no node reads it back: `M,`,
/// the numbers of [`Signal::Message`], whether it is held (`1`/`0`), the sender's balance and
/// the recipient's unread total after it ([`Figures`], empty when not told), then
/// [`row_tail`]. The body comes last and may hold `,` and `;`, so this part is always a
/// payload's last.
pub(crate) const ROW_TAG: &str = "M";

/// The columns of a message's signal after its id, members, held flag and figures (the part
/// the writer knows before the database does; PostgreSQL's one-call send puts the rest in
/// front): time, kind, gift, photo (`1`/`0`), photo review, client id, body.
pub(crate) fn row_tail(m: &MessageRow) -> String {
    format!(
        "{},{},{},{},{},{},{}",
        m.created_at,
        m.kind.as_str(),
        m.gift.map(Gift::code).unwrap_or(""),
        u8::from(m.has_photo),
        m.photo_review.map(PhotoReview::as_str).unwrap_or(""),
        m.client_id,
        m.body
    )
}

/// A message's signal with its row (see [`ROW_TAG`]); `None` when it would not fit a payload.
pub(crate) fn message_with_row(m: &MessageRow, figures: Figures) -> Option<String> {
    let told = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
    let part = format!(
        "{ROW_TAG},{},{},{},{},{},{},{},{}",
        m.id,
        m.conversation_id,
        m.sender_id,
        m.recipient_id,
        u8::from(m.held),
        told(figures.sender_credits),
        told(figures.recipient_unread),
        row_tail(m)
    );
    (part.len() <= ROW_MAX).then_some(part)
}

/// A message's signal with its row is at most this long (room for a queue signal before it).
pub(crate) const ROW_MAX: usize = PAYLOAD_MAX - 100;

fn decode_row(part: &str) -> Option<Carried> {
    let mut f = part.splitn(15, ',');
    let _tag = f.next()?;
    let mut number = || f.next().and_then(|n| n.parse::<i64>().ok());
    let (id, conversation_id, sender_id, recipient_id, held) = (number()?, number()?, number()?, number()?, number()?);
    let mut told = || match f.next()? {
        "" => Some(None),
        n => n.parse::<i64>().ok().map(Some),
    };
    let figures = Figures { sender_credits: told()?, recipient_unread: told()? };
    let created_at = f.next()?.parse::<i64>().ok()?;
    let kind = MessageKind::parse(f.next()?)?;
    let gift = match f.next()? {
        "" => None,
        code => Some(Gift::parse(code)?),
    };
    let has_photo = f.next()? == "1";
    let photo_review = match f.next()? {
        "" => None,
        review => Some(PhotoReview::parse(review)?),
    };
    let client_id = f.next()?.to_string();
    let body = f.next()?.to_string();
    let row = MessageRow { id, conversation_id, sender_id, recipient_id, kind, body, gift, has_photo, photo_review, client_id, held: held == 1, created_at };
    Some(Carried { row, figures })
}

/// A `NOTIFY` payload stays below this (PostgreSQL refuses 8,000 bytes and more).
const PAYLOAD_MAX: usize = 7_000;

/// Messages this node wrote, until their signal comes by: its sockets get them without reading
/// the database. A write that did not commit leaves its row here; the map is emptied when it
/// grows past this many.
const EXPECTED_MAX: usize = 10_000;

/// What a socket task receives from the bus.
#[derive(Debug, Clone)]
pub enum Outgoing {
    /// A message; the socket renders it for its member (`mine` differs per side).
    Message(Arc<MessageRow>),
    /// A ready JSON push (`domain::chat_socket::Push`).
    Json(Arc<str>),
    /// Signals may have been lost: read again from the last id.
    Resync,
}

struct Socket {
    id: u64,
    tx: mpsc::Sender<Outgoing>,
}

struct Inner {
    db: Db,
    sockets: RwLock<HashMap<i64, Vec<Socket>>>,
    next_id: AtomicU64,
    /// Signals travel through PostgreSQL `LISTEN/NOTIFY` (else in-process).
    postgres: bool,
    /// Socket tasks, so that shutdown can close them (axum spawns them beyond its own shutdown).
    tracker: tokio_util::task::TaskTracker,
    shutdown: tokio_util::sync::CancellationToken,
    /// True once signals from other nodes are heard (at once on SQLite; on PostgreSQL once the
    /// `LISTEN` is in place).
    listening: tokio::sync::watch::Sender<bool>,
    /// Sites whose operator queue changed, for the open queue pages of this node.
    queue: tokio::sync::broadcast::Sender<i64>,
    /// Messages written here whose signal has not come by yet ([`Bus::expect`]).
    expected: std::sync::Mutex<HashMap<i64, Arc<MessageRow>>>,
    /// On PostgreSQL, delivered marks waiting for [`mark_deliveries`].
    deliveries: Option<mpsc::UnboundedSender<store::Delivery>>,
}

/// This node's sockets and the way signals reach them. Cheap to clone.
#[derive(Clone)]
pub struct Bus {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Bus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bus").field("postgres", &self.inner.postgres).field("sockets", &self.socket_count()).finish()
    }
}

/// One socket's place on the bus; leaves it when dropped.
pub struct Subscription {
    bus: Bus,
    user: i64,
    id: u64,
    pub rx: mpsc::Receiver<Outgoing>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut sockets = self.bus.inner.sockets.write().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = sockets.get_mut(&self.user) {
            list.retain(|s| s.id != self.id);
            if list.is_empty() {
                sockets.remove(&self.user);
            }
        }
    }
}

impl Bus {
    /// The bus for a database: in-process on SQLite; on PostgreSQL it listens on the process's
    /// `LISTEN` connection (which reconnects with backoff for as long as the process runs).
    pub fn start(db: Db, database_url: &str) -> Bus {
        let postgres = db.backend() == Backend::Postgres;
        let deliveries = postgres.then(mpsc::unbounded_channel);
        let bus = Bus {
            inner: Arc::new(Inner {
                db,
                sockets: RwLock::new(HashMap::new()),
                next_id: AtomicU64::new(1),
                postgres,
                tracker: tokio_util::task::TaskTracker::new(),
                shutdown: tokio_util::sync::CancellationToken::new(),
                listening: tokio::sync::watch::Sender::new(!postgres),
                queue: tokio::sync::broadcast::Sender::new(QUEUE_BACKLOG),
                expected: std::sync::Mutex::new(HashMap::new()),
                deliveries: deliveries.as_ref().map(|(tx, _)| tx.clone()),
            }),
        };
        if postgres {
            listen(bus.clone(), database_url);
        }
        if let Some((_, rx)) = deliveries {
            tokio::spawn(mark_deliveries(bus.clone(), rx));
        }
        bus
    }

    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    /// Whether signals travel through PostgreSQL (`NOTIFY` in the writer's transaction).
    pub fn postgres(&self) -> bool {
        self.inner.postgres
    }

    /// A message this node is about to commit: its signal's delivery here takes the row from
    /// memory instead of reading it (before the commit, since on PostgreSQL the signal may be
    /// heard before the commit returns).
    pub(crate) fn expect(&self, row: Arc<MessageRow>) {
        let mut expected = self.inner.expected.lock().unwrap_or_else(|e| e.into_inner());
        if expected.len() >= EXPECTED_MAX {
            expected.clear();
        }
        expected.insert(row.id, row);
    }

    fn take_expected(&self, id: i64) -> Option<Arc<MessageRow>> {
        self.inner.expected.lock().unwrap_or_else(|e| e.into_inner()).remove(&id)
    }

    /// Waits until this node hears the other nodes' signals (its `LISTEN` is in place).
    pub async fn listening(&self) {
        let mut ready = self.inner.listening.subscribe();
        let _ = ready.wait_for(|listening| *listening).await;
    }

    /// Runs a socket task under the bus's shutdown.
    pub fn track<F>(&self, task: F)
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        self.inner.tracker.spawn(task);
    }

    /// Cancelled when the node shuts down: socket tasks close with 1001 (going away).
    pub fn shutdown_token(&self) -> tokio_util::sync::CancellationToken {
        self.inner.shutdown.clone()
    }

    /// Closes every socket and waits (at most `limit`) for their tasks to end.
    pub async fn close(&self, limit: Duration) {
        self.inner.shutdown.cancel();
        self.inner.tracker.close();
        let _ = tokio::time::timeout(limit, self.inner.tracker.wait()).await;
    }

    /// Registers a socket of `user`. Subscribe first, then read the backlog: nothing falls in between.
    pub fn subscribe(&self, user: i64) -> Subscription {
        let (tx, rx) = mpsc::channel(SOCKET_QUEUE);
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        self.inner.sockets.write().unwrap_or_else(|e| e.into_inner()).entry(user).or_default().push(Socket { id, tx });
        Subscription { bus: self.clone(), user, id, rx }
    }

    /// The sites whose operator queue changed, from now on. A page that falls behind hears
    /// `Lagged` and reads the queue again all the same.
    pub fn queue_changes(&self) -> tokio::sync::broadcast::Receiver<i64> {
        self.inner.queue.subscribe()
    }

    pub fn socket_count(&self) -> usize {
        self.inner.sockets.read().unwrap_or_else(|e| e.into_inner()).values().map(Vec::len).sum()
    }

    fn has_sockets(&self, user: i64) -> bool {
        self.inner.sockets.read().unwrap_or_else(|e| e.into_inner()).contains_key(&user)
    }

    /// Hands `out` to every socket of `user`; a socket whose queue is full is dropped from the
    /// bus (its task ends and the client reconnects and resyncs). Returns how many took it.
    fn send_to(&self, user: i64, out: Outgoing) -> usize {
        let mut full = Vec::new();
        let mut sent = 0;
        {
            let sockets = self.inner.sockets.read().unwrap_or_else(|e| e.into_inner());
            let Some(list) = sockets.get(&user) else { return 0 };
            for socket in list {
                match socket.tx.try_send(out.clone()) {
                    Ok(()) => sent += 1,
                    Err(_) => full.push(socket.id),
                }
            }
        }
        if !full.is_empty() {
            let mut sockets = self.inner.sockets.write().unwrap_or_else(|e| e.into_inner());
            if let Some(list) = sockets.get_mut(&user) {
                list.retain(|s| !full.contains(&s.id));
            }
        }
        sent
    }

    /// Every local socket reads again from its last id (after the listener lost its connection).
    pub fn resync_all(&self) {
        let users: Vec<i64> = self.inner.sockets.read().unwrap_or_else(|e| e.into_inner()).keys().copied().collect();
        for user in users {
            self.send_to(user, Outgoing::Resync);
        }
    }

    /// Inside the writer's transaction: on PostgreSQL the signals become `NOTIFY`s sent at commit.
    pub(crate) async fn stage(&self, tx: &mut Transaction<'_, Any>, signals: &[Signal]) -> Result<(), AppError> {
        if self.inner.postgres {
            notify(tx, signals).await?;
        }
        Ok(())
    }

    /// After the writer's transaction committed: on SQLite the signals are dispatched here.
    pub(crate) fn committed(&self, signals: &[Signal]) {
        if !self.inner.postgres {
            for signal in signals {
                self.dispatch(*signal);
            }
        }
    }

    /// Publishes signals that belong to no write (typing).
    pub(crate) async fn publish(&self, signals: &[Signal]) -> Result<(), AppError> {
        if self.inner.postgres {
            let mut conn = self.db().pool().acquire().await?;
            notify(&mut conn, signals).await?;
        } else {
            self.committed(signals);
        }
        Ok(())
    }

    /// Hands a signal to the local sockets it concerns. Reading the database (a message, a
    /// total) happens in a task of its own and only when a concerned socket is here.
    pub fn dispatch(&self, signal: Signal) {
        use domain::chat_socket::Push;
        match signal {
            Signal::Message { id, sender, recipient, .. } => {
                let expected = self.take_expected(id);
                if !self.has_sockets(sender) && !self.has_sockets(recipient) {
                    return;
                }
                let bus = self.clone();
                tokio::spawn(async move {
                    if let Err(error) = bus.deliver_message(id, expected, sender, recipient).await {
                        tracing::warn!(%error, id, "could not deliver a message to its sockets");
                    }
                });
            }
            Signal::Queue { site } => {
                // No receiver (no queue page open on this node) is fine.
                let _ = self.inner.queue.send(site);
            }
            Signal::Delivered { conversation, to, up_to } => {
                self.send_to(to, json(&Push::Delivered { conversation, up_to }));
            }
            Signal::Read { conversation, to, up_to } => {
                self.send_to(to, json(&Push::Read { conversation, up_to }));
            }
            Signal::Typing { conversation, to, .. } => {
                self.send_to(to, json(&Push::Typing { conversation }));
            }
            Signal::Removed { conversation, user } => {
                self.send_to(user, json(&Push::Removed { conversation }));
            }
            Signal::Counters { user } => {
                if !self.has_sockets(user) {
                    return;
                }
                let bus = self.clone();
                tokio::spawn(async move {
                    match store::unread_total(bus.db(), user).await {
                        Ok(total) => {
                            bus.send_to(user, json(&Push::Unread { total }));
                        }
                        Err(error) => tracing::warn!(%error, user, "could not read an unread total"),
                    }
                });
            }
            Signal::Balance { user } => {
                if !self.has_sockets(user) {
                    return;
                }
                let bus = self.clone();
                tokio::spawn(async move {
                    match sqlx::query_scalar::<_, i64>("SELECT credits FROM users WHERE id = $1").bind(user).fetch_optional(bus.db().pool()).await {
                        Ok(Some(credits)) => {
                            bus.send_to(user, json(&Push::Balance { credits }));
                        }
                        Ok(None) => {}
                        Err(error) => tracing::warn!(%error, user, "could not read a balance"),
                    }
                });
            }
        }
    }

    async fn deliver_message(&self, id: i64, expected: Option<Arc<MessageRow>>, sender: i64, recipient: i64) -> Result<(), AppError> {
        let row = match expected {
            Some(row) => row,
            None => match store::message_row(self.db(), id).await? {
                Some(row) => Arc::new(row),
                None => return Ok(()),
            },
        };
        self.send_to(sender, Outgoing::Message(row.clone()));
        if row.held {
            return Ok(());
        }
        let reached = self.send_to(recipient, Outgoing::Message(row.clone()));
        if reached > 0 {
            // The recipient's client has it: the sender's tick turns to "delivered", and the
            // recipient hears their new unread total.
            if let Some(deliveries) = &self.inner.deliveries {
                // On PostgreSQL with the other marks waiting meanwhile, in one statement.
                let _ = deliveries.send(store::Delivery { conversation: row.conversation_id, sender, recipient, up_to: id });
                return Ok(());
            }
            if store::mark_delivered(self.db(), row.conversation_id, recipient, id).await? {
                self.dispatch(Signal::Delivered { conversation: row.conversation_id, to: sender, up_to: id });
            }
            let total = store::unread_total(self.db(), recipient).await?;
            self.send_to(recipient, json(&domain::chat_socket::Push::Unread { total }));
        }
        Ok(())
    }
}

/// `NOTIFY`s the signals on a connection, a few to a payload (inside a transaction they go out
/// at its commit).
async fn notify(conn: &mut sqlx::AnyConnection, signals: &[Signal]) -> Result<(), AppError> {
    for payload in payloads(signals) {
        sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(payload).execute(&mut *conn).await?;
    }
    Ok(())
}

fn json(push: &domain::chat_socket::Push) -> Outgoing {
    Outgoing::Json(serde_json::to_string(push).unwrap_or_default().into())
}

/// Marks at most this many messages delivered in one statement (their `NOTIFY` stays well under
/// the payload limit).
const DELIVERY_BATCH: usize = 200;

/// On PostgreSQL: the delivered marks of messages this node's sockets took, each batch in one
/// statement with one `NOTIFY` (the marks that came in while the last one ran: none waits for
/// a timer), then each recipient's new unread total to their sockets.
async fn mark_deliveries(bus: Bus, mut marks: mpsc::UnboundedReceiver<store::Delivery>) {
    let mut batch = Vec::with_capacity(DELIVERY_BATCH);
    while marks.recv_many(&mut batch, DELIVERY_BATCH).await > 0 {
        match store::delivered_and_totals(bus.db(), &batch).await {
            Ok(totals) => {
                for (recipient, total) in totals {
                    bus.send_to(recipient, json(&domain::chat_socket::Push::Unread { total }));
                }
            }
            Err(error) => tracing::warn!(%error, marks = batch.len(), "could not mark messages delivered"),
        }
        batch.clear();
    }
}

/// The chat's signals from the node's `LISTEN` connection (`crate::db::listen`). After a lost
/// connection whatever was sent meanwhile is lost, so every local socket resyncs.
fn listen(bus: Bus, url: &str) {
    crate::db::listen(url, &[CHANNEL], "chat signals", move |heard| match heard {
        Heard::Notification { payload, .. } => match decode_with_row(&payload) {
            Some((signals, carried)) => {
                // A row that came with its signal is delivered as this node's own are.
                if let Some(carried) = carried {
                    bus.expect(Arc::new(carried.row));
                }
                signals.into_iter().for_each(|signal| bus.dispatch(signal))
            }
            None => tracing::warn!(%payload, "unknown chat signal"),
        },
        Heard::MayHaveMissed => {
            bus.inner.listening.send_replace(true);
            bus.resync_all()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::Signal;

    #[test]
    fn signals_round_trip() {
        for s in [
            Signal::Message { id: 9, conversation: 2, sender: 3, recipient: 4 },
            Signal::Delivered { conversation: 2, to: 3, up_to: 9 },
            Signal::Read { conversation: 2, to: 3, up_to: 9 },
            Signal::Typing { conversation: 2, from: 3, to: 4 },
            Signal::Removed { conversation: 2, user: 4 },
            Signal::Counters { user: 4 },
            Signal::Balance { user: 4 },
            Signal::Queue { site: 1 },
        ] {
            assert_eq!(Signal::decode(&s.encode()), Some(s));
        }
        assert_eq!(Signal::decode("m,1,2"), None);
        assert_eq!(Signal::decode("z,1"), None);
        assert_eq!(Signal::decode("q,1,2"), None);
        assert_eq!(Signal::decode("m,1,2,x,4"), None);
    }

    #[test]
    fn payloads_carry_several_signals_and_stay_small() {
        use super::{decode_payload, payload, payloads, PAYLOAD_MAX};
        let two = [Signal::Message { id: 9, conversation: 2, sender: 3, recipient: 4 }, Signal::Queue { site: 1 }];
        assert_eq!(payload(&two), "m,9,2,3,4;q,1");
        assert_eq!(decode_payload(&payload(&two)), Some(two.to_vec()));
        assert_eq!(decode_payload("m,9,2,3,4;z,1"), None);
        let many: Vec<Signal> = (0..2_000).map(|user| Signal::Removed { conversation: 1_000_000 + user, user }).collect();
        let split = payloads(&many);
        assert!(split.len() > 1);
        assert!(split.iter().all(|p| p.len() <= PAYLOAD_MAX));
        assert_eq!(split.iter().flat_map(|p| decode_payload(p).unwrap()).collect::<Vec<_>>(), many);
    }

    #[test]
    fn a_message_signal_carries_its_row_whatever_its_body() {
        use super::{decode_payload, decode_with_row, message_with_row, Carried, Figures, MessageRow, ROW_MAX};
        use domain::chat::{Gift, MessageKind};
        use domain::moderation::PhotoReview;
        let text = MessageRow {
            id: 41,
            conversation_id: 7,
            sender_id: 3,
            recipient_id: 4,
            kind: MessageKind::Text,
            body: "hoi, hoe gaat het?; m,1,2,3,4\n<b>zo</b> M,9".into(),
            gift: None,
            has_photo: false,
            photo_review: None,
            client_id: "abc-DEF_12345".into(),
            held: true,
            created_at: 1_790_000_000,
        };
        let photo = MessageRow {
            kind: MessageKind::Photo,
            body: String::new(),
            has_photo: true,
            photo_review: Some(PhotoReview::Waiting),
            held: false,
            ..text.clone()
        };
        let gift = MessageRow { kind: MessageKind::Gift, body: String::new(), gift: Some(Gift::Rose), ..text.clone() };
        let told = Figures { sender_credits: Some(120), recipient_unread: Some(3) };
        let held = Figures { sender_credits: Some(0), recipient_unread: None };
        for (row, figures) in [(text.clone(), held), (photo, told), (gift, Figures::default())] {
            let payload = format!("{};{}", Signal::Queue { site: 2 }.encode(), message_with_row(&row, figures).unwrap());
            let message = Signal::Message { id: row.id, conversation: row.conversation_id, sender: row.sender_id, recipient: row.recipient_id };
            let carried = Carried { row: row.clone(), figures };
            assert_eq!(decode_with_row(&payload), Some((vec![Signal::Queue { site: 2 }, message], Some(carried))));
            assert_eq!(decode_payload(&payload), Some(vec![Signal::Queue { site: 2 }, message]));
        }
        // Too long for a payload: the short signal (and a read) instead.
        let long = MessageRow { body: "é".repeat(ROW_MAX), ..text };
        assert_eq!(message_with_row(&long, told), None);
        assert_eq!(decode_with_row("M,1,2,3"), None);
        assert_eq!(decode_with_row("M,1,2,3,4,0,x,,1790000000,text,,0,,abcdefgh,hoi"), None, "a figure that is not a number");
    }
}
