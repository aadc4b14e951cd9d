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

pub use super::signal::*;
use super::store::{self, MessageRow};
use crate::db::{Backend, Db, Heard};
use crate::error::AppError;

/// The PostgreSQL channel of chat signals.
pub const CHANNEL: &str = "vonk_chat";
/// Pushes waiting for one socket; a socket that falls this far behind is closed and resyncs
/// when it reconnects.
pub const SOCKET_QUEUE: usize = 256;
/// Queue changes kept for slow queue pages (they only need to know that something changed).
const QUEUE_BACKLOG: usize = 16;

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
