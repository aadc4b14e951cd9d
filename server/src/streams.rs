//! Long-lived connections belong to a session. The chat socket and the operators' event stream
//! are each registered here with the session they were opened with; they end within seconds
//! of that session ending (logout, "log out everywhere", a password change), the member being
//! blocked or deleted, or — for a stream that needs it — the operator role being taken away,
//! whichever node or process made the change. A session keeps at most `per_session` of them and
//! a node at most `per_node`; past either limit the oldest is closed first.
//!
//! How: every open connection holds a [`Lease`]. While any are open, one task per node reads the
//! sessions behind them from the database every `check_every` (one query per 500 sessions, not
//! one per connection) and ends the leases whose session no longer stands.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::watch;

use domain::account::UserStatus;

use crate::clock::Clock;
use crate::db::Db;

/// What a connection needs of its session, besides the session itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Need {
    /// A member who is not blocked or deleted (the chat socket).
    Member,
    /// An operator (the operators' event stream).
    Operator,
}

/// Why a connection was ended from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The session ended, or the member was blocked, deleted or lost the role the stream needs:
    /// the client must not reconnect with it.
    SessionEnded,
    /// The session opened more connections than it may keep; this was its oldest.
    Superseded,
    /// The node holds as many connections as it may; this was its oldest.
    NodeFull,
}

impl Ended {
    /// The websocket close code: 4401 and 4409 are the app's own (the client stops
    /// reconnecting), 1013 is "try again later".
    pub fn close_code(self) -> u16 {
        match self {
            Ended::SessionEnded => 4401,
            Ended::Superseded => 4409,
            Ended::NodeFull => 1013,
        }
    }

    pub fn reason(self) -> &'static str {
        match self {
            Ended::SessionEnded => "session ended",
            Ended::Superseded => "opened elsewhere",
            Ended::NodeFull => "try again later",
        }
    }
}

/// The limits, from the configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub per_session: usize,
    pub per_node: usize,
    pub check_every: Duration,
}

/// The node's open long-lived connections.
#[derive(Clone, Debug)]
pub struct Streams {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    db: Db,
    clock: Clock,
    limits: Limits,
    open: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    next: u64,
    /// By opening order: the first is the oldest.
    leases: BTreeMap<u64, Entry>,
    checking: bool,
}

#[derive(Debug)]
struct Entry {
    session: Arc<str>,
    need: Need,
    end: watch::Sender<Option<Ended>>,
}

/// One open connection's place; dropping it (the connection closed) frees the place.
#[derive(Debug)]
pub struct Lease {
    id: u64,
    inner: Weak<Inner>,
    ended: watch::Receiver<Option<Ended>>,
}

impl Lease {
    /// Resolves when the connection must end, with why. Cancel-safe: use it in `select!`.
    pub async fn ended(&mut self) -> Ended {
        loop {
            if let Some(why) = *self.ended.borrow_and_update() {
                return why;
            }
            if self.ended.changed().await.is_err() {
                // The registry is gone: the node is stopping.
                return Ended::NodeFull;
            }
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.upgrade() {
            inner.registry().leases.remove(&self.id);
        }
    }
}

impl Inner {
    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn end(entry: Entry, why: Ended) {
    let _ = entry.end.send(Some(why));
}

impl Streams {
    pub fn new(db: Db, clock: Clock, limits: Limits) -> Streams {
        let limits = Limits { per_session: limits.per_session.max(1), per_node: limits.per_node.max(1), ..limits };
        Streams { inner: Arc::new(Inner { db, clock, limits, open: Mutex::new(Registry::default()) }) }
    }

    /// Registers a connection of the session whose token hashes to `session_hash`. Closes the
    /// session's oldest connections beyond its limit, then the node's. Call it from a task on
    /// the runtime: the first lease starts the node's session checks.
    pub fn open(&self, session_hash: &str, need: Need) -> Lease {
        let limits = self.inner.limits;
        let (tx, rx) = watch::channel(None);
        let mut registry = self.inner.registry();
        let mine: Vec<u64> = registry.leases.iter().filter(|(_, e)| &*e.session == session_hash).map(|(id, _)| *id).collect();
        for id in mine.iter().take((mine.len() + 1).saturating_sub(limits.per_session)) {
            if let Some(entry) = registry.leases.remove(id) {
                end(entry, Ended::Superseded);
            }
        }
        while registry.leases.len() >= limits.per_node {
            let Some((_, entry)) = registry.leases.pop_first() else { break };
            end(entry, Ended::NodeFull);
        }
        let id = registry.next;
        registry.next += 1;
        registry.leases.insert(id, Entry { session: session_hash.into(), need, end: tx });
        if !registry.checking {
            registry.checking = true;
            tokio::spawn(check_while_open(Arc::downgrade(&self.inner)));
        }
        Lease { id, inner: Arc::downgrade(&self.inner), ended: rx }
    }

    /// Open connections on this node.
    pub fn count(&self) -> usize {
        self.inner.registry().leases.len()
    }

    /// Checks every open connection's session now (the periodic task does the same).
    pub async fn check_now(&self) -> Result<usize, crate::AppError> {
        check(&self.inner).await
    }
}

/// Every `check_every` while connections are open; stops when none are (the next `open` starts
/// it again) or when the registry is gone.
async fn check_while_open(weak: Weak<Inner>) {
    loop {
        let every = match weak.upgrade() {
            Some(inner) => inner.limits.check_every,
            None => return,
        };
        tokio::time::sleep(every).await;
        let Some(inner) = weak.upgrade() else { return };
        {
            let mut registry = inner.registry();
            if registry.leases.is_empty() {
                registry.checking = false;
                return;
            }
        }
        if let Err(error) = check(&inner).await {
            tracing::warn!(%error, "checking the sessions of open connections failed");
        }
    }
}

/// Reads the sessions behind the open connections and ends those whose session no longer
/// stands. Returns how many it ended.
async fn check(inner: &Inner) -> Result<usize, crate::AppError> {
    let sessions: BTreeSet<Arc<str>> = inner.registry().leases.values().map(|e| e.session.clone()).collect();
    let now = inner.clock.now();
    let mut standing: BTreeMap<String, bool> = BTreeMap::new();
    let sessions: Vec<Arc<str>> = sessions.into_iter().collect();
    for chunk in sessions.chunks(500) {
        let marks = (0..chunk.len()).map(|i| format!("${}", i + 4)).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT s.token_hash, u.staff_roles, (u.totp_secret IS NOT NULL) AS two_step FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.expires_at > $1 AND u.status IN ($2, $3) AND s.token_hash IN ({marks})"
        );
        let mut query = sqlx::query(&sql).bind(now).bind(UserStatus::Active.as_str()).bind(UserStatus::NotConfirmed.as_str());
        for hash in chunk {
            query = query.bind(hash.to_string());
        }
        for row in query.fetch_all(inner.db.pool()).await? {
            let roles = domain::staff::StaffRoles::from_bits(sqlx::Row::try_get(&row, "staff_roles")?);
            let two_step = crate::db::flag(&row, "two_step")?;
            standing.insert(sqlx::Row::try_get(&row, "token_hash")?, two_step && roles.may(domain::staff::StaffArea::Console));
        }
    }
    let mut registry = inner.registry();
    let gone: Vec<u64> = registry
        .leases
        .iter()
        .filter(|(_, e)| match standing.get(&*e.session) {
            None => true,
            Some(operator) => e.need == Need::Operator && !operator,
        })
        .map(|(id, _)| *id)
        .collect();
    for id in &gone {
        if let Some(entry) = registry.leases.remove(id) {
            end(entry, Ended::SessionEnded);
        }
    }
    if !gone.is_empty() {
        tracing::info!(target: "security", ended = gone.len(), "connections of ended sessions closed");
    }
    Ok(gone.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn streams(per_session: usize, per_node: usize) -> (Streams, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/t.db", dir.path().display()), 1).await.unwrap();
        let limits = Limits { per_session, per_node, check_every: Duration::from_secs(3600) };
        (Streams::new(db, Clock::fixed(0), limits), dir)
    }

    fn ended(lease: &Lease) -> Option<Ended> {
        *lease.ended.borrow()
    }

    #[tokio::test]
    async fn the_oldest_of_a_session_and_then_of_the_node_is_closed_first() {
        let (streams, _dir) = streams(2, 3).await;
        let a1 = streams.open("a", Need::Member);
        let a2 = streams.open("a", Need::Member);
        let b1 = streams.open("b", Need::Operator);
        assert_eq!((ended(&a1), ended(&a2), ended(&b1)), (None, None, None));
        let mut a3 = streams.open("a", Need::Member);
        assert_eq!(ended(&a1), Some(Ended::Superseded), "the session's oldest");
        assert_eq!((ended(&a2), ended(&b1), ended(&a3)), (None, None, None));
        assert_eq!(streams.count(), 3);
        let c1 = streams.open("c", Need::Member);
        assert_eq!(ended(&a2), Some(Ended::NodeFull), "the node's oldest");
        assert_eq!((ended(&b1), ended(&a3), ended(&c1)), (None, None, None));
        drop(b1);
        assert_eq!(streams.count(), 2, "a closed connection frees its place");
        let _d1 = streams.open("d", Need::Member);
        assert_eq!(ended(&a3), None, "room again: nothing closed");
        drop(a1);
        assert_eq!(streams.count(), 3, "a lease already closed frees nothing twice");
        drop(streams);
        assert_eq!(a3.ended().await, Ended::NodeFull, "the node stops");
    }
}
