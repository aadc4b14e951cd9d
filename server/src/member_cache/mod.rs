//! Logged-in members kept in memory on each node: a session's member row with its counters,
//! what their search pages read of their own (blocks, likes, the profile opened last), and the
//! lists their likes tabs and notifications pages showed, so that a member's page needs no
//! database query while nothing of theirs, and no one the page shows, changed.
//!
//! What may have changed is never guessed. Database triggers name the members concerned by
//! every write to the tables these depend on, whoever writes (any node, a staff tool, the command
//! line): on SQLite in the `member_changes` table, which this node reads before it serves
//! anyone from memory (one `PRAGMA data_version` on a connection of its own tells, without a
//! query through the pool, whether anything was committed at all since the last look); on
//! PostgreSQL as `NOTIFY vonk_members` once the write commits, heard by every node, which
//! serves nothing from memory while it does not hear them (a chat send's transaction keeps the
//! triggers silent: its own chat signal, heard on the same connection, names its two members).
//! A member's own writes are therefore seen by their next request. A profile becoming findable or hidden changes what everyone
//! counts: then everything is dropped.
//!
//! A read that raced with a change is not kept: every read takes a [`Ticket`] before it starts,
//! and what it read is stored only when no change of that member arrived since.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use domain::account::Ymd;
use domain::search::MemberCard;

use crate::accounts::Member;

/// The PostgreSQL channel the triggers announce changed members on (`0`: everyone).
pub const CHANNEL: &str = "vonk_members";
/// Sessions kept at most; beyond it the cache starts again empty.
const MAX_SESSIONS: usize = 200_000;
/// Changes remembered for reads that are under way; beyond it older reads are not kept.
const MAX_RECENT: usize = 100_000;
/// A member with more likes than this has them read per page, not kept.
pub const MAX_KEPT_LIKES: usize = 5_000;
/// How long `member_changes` rows stay (SQLite): far longer than anything is kept.
pub const CHANGES_KEPT_SECS: i64 = 600;
/// Members whose page lists are kept at most, and lists kept per member (the newest ones).
const MAX_PAGE_MEMBERS: usize = 5_000;
const MAX_PAGES_PER_MEMBER: usize = 4;

/// A kept page list, of whatever type its reader stored.
type PageValue = Arc<dyn Any + Send + Sync>;

/// A session as kept: the member and the session's own times.
#[derive(Debug, Clone)]
pub struct CachedSession {
    pub member: Member,
    /// The session's last recorded use (it slides every few minutes).
    pub seen: i64,
    pub expires: i64,
}

/// Taken before a read; what the read found is kept only if nothing of the member changed since.
#[derive(Debug, Clone, Copy)]
pub struct Ticket(u64);

/// The node's cache. Cloning shares it; the default one keeps nothing.
#[derive(Clone, Default)]
pub struct MemberCache {
    inner: Option<Arc<Inner>>,
}

impl std::fmt::Debug for MemberCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemberCache").field("on", &self.inner.is_some()).finish()
    }
}

struct Inner {
    max_age: Duration,
    state: Mutex<State>,
    source: Source,
}

enum Source {
    Sqlite(Mutex<Watcher>),
    /// True while the node hears the announcements.
    Postgres(AtomicBool),
}

/// This node's own read-only view of the SQLite file.
struct Watcher {
    conn: rusqlite::Connection,
    version: i64,
    seq: i64,
}

#[derive(Default)]
struct State {
    /// Counts the changes heard.
    tick: u64,
    /// Reads that started before this tick are not kept (`recent` was emptied then).
    floor: u64,
    /// Members changed lately, with the tick of their last change.
    recent: HashMap<i64, u64>,
    /// Senders whose last change heard was their chat send's own signal: the message, at the
    /// tick of that change ([`MemberCache::sent`]).
    sent_by: HashMap<i64, (u64, i64)>,
    sessions: HashMap<String, Stored<CachedSession>>,
    members: HashMap<i64, Own>,
    /// Whose kept "last opened" card or page lists show a member: dropped when that member
    /// changes.
    shown_by: HashMap<i64, HashSet<i64>>,
    /// Page lists per member (a likes tab, a notifications page), newest last, by key.
    pages: HashMap<i64, Vec<(String, Stored<PageValue>)>>,
}

struct Stored<T> {
    value: T,
    at: Instant,
}

/// Everyone a member blocked or was blocked by, and everyone they liked.
pub type BlocksAndLikes = (Arc<HashSet<i64>>, Arc<HashSet<i64>>);

/// The profile a member opened last on a day: its card and when it was opened.
type LastOpened = (Ymd, Option<(MemberCard, i64)>);

/// What is kept of one member besides their sessions.
#[derive(Default)]
struct Own {
    sessions: Vec<String>,
    blocks_and_likes: Option<Stored<BlocksAndLikes>>,
    last_opened: Option<Stored<LastOpened>>,
}

impl MemberCache {
    /// A cache that keeps nothing (tests of other parts, `VONK_MEMBER_CACHE_SECS=0`).
    pub fn off() -> MemberCache {
        MemberCache::default()
    }

    /// The node's cache for its database, keeping members at most `max_age` (zero: off). On
    /// PostgreSQL it starts listening for the announcements at once (nothing is served until
    /// they are heard); a SQLite database in memory has no file to look at: off.
    pub fn start(db: &crate::db::Db, database_url: &str, max_age: Duration) -> Result<MemberCache, crate::error::AppError> {
        if max_age.is_zero() {
            return Ok(MemberCache::off());
        }
        match db.sqlite_path() {
            Some(path) => MemberCache::sqlite(path, max_age).map_err(|e| crate::error::AppError::Internal(format!("member cache: {e}"))),
            None if db.backend() == crate::db::Backend::Postgres => {
                let cache = MemberCache::postgres(max_age);
                cache.listen(database_url);
                Ok(cache)
            }
            None => Ok(MemberCache::off()),
        }
    }

    /// Keeps members of a SQLite database (its file at `path`) for at most `max_age`.
    pub fn sqlite(path: &Path, max_age: Duration) -> Result<MemberCache, rusqlite::Error> {
        use rusqlite::OpenFlags;
        let conn = rusqlite::Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
        conn.busy_timeout(Duration::from_millis(200))?;
        let version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let seq: i64 = conn.query_row("SELECT COALESCE(MAX(seq), 0) FROM member_changes", [], |r| r.get(0))?;
        Ok(MemberCache::with_source(max_age, Source::Sqlite(Mutex::new(Watcher { conn, version, seq }))))
    }

    /// Keeps members of a PostgreSQL database once [`MemberCache::heard`] says announcements
    /// are heard (see [`MemberCache::listen`]).
    pub fn postgres(max_age: Duration) -> MemberCache {
        MemberCache::with_source(max_age, Source::Postgres(AtomicBool::new(false)))
    }

    fn with_source(max_age: Duration, source: Source) -> MemberCache {
        if max_age.is_zero() {
            return MemberCache::off();
        }
        MemberCache { inner: Some(Arc::new(Inner { max_age, state: Mutex::new(State::default()), source })) }
    }

    /// Listens for the triggers' announcements for as long as the node runs (PostgreSQL).
    pub fn listen(&self, database_url: &str) {
        let Some(inner) = &self.inner else { return };
        if !matches!(inner.source, Source::Postgres(_)) {
            return;
        }
        let cache = self.clone();
        crate::db::listen(database_url, &[CHANNEL, crate::chat::bus::CHANNEL], "members", move |heard| cache.heard(heard));
    }

    /// An announcement (or word that some may have been missed: then everything is dropped and
    /// the cache serves again, since from now on nothing is missed).
    pub fn heard(&self, heard: crate::db::Heard) {
        let Some(inner) = &self.inner else { return };
        match heard {
            crate::db::Heard::MayHaveMissed => {
                inner.lock().clear();
                if let Source::Postgres(listening) = &inner.source {
                    listening.store(true, Ordering::Release);
                }
            }
            crate::db::Heard::Notification { channel, payload } if channel == crate::chat::bus::CHANNEL => {
                // A send keeps the triggers silent and announces its members itself (`LOCK_POSTGRES`
                // in chat/send.rs, and migration 50): its sender and recipient are all its
                // transaction changed. Where the signal tells their figures after it (the
                // sender's balance, the recipient's unread total), their sessions take them;
                // else they are dropped.
                match crate::chat::bus::decode_with_row(&payload) {
                    Some((signals, carried)) => {
                        let mut state = inner.lock();
                        for signal in signals {
                            if let crate::chat::bus::Signal::Message { id, sender, recipient, .. } = signal {
                                let figures = carried.as_ref().filter(|c| c.row.id == id).map(|c| c.figures).unwrap_or_default();
                                match figures.sender_credits {
                                    Some(credits) => {
                                        state.patched(sender, |m| m.credits = credits);
                                        let tick = state.tick;
                                        state.sent_by.insert(sender, (tick, id));
                                    }
                                    None => state.changed(sender),
                                }
                                match figures.recipient_unread {
                                    Some(unread) => state.patched(recipient, |m| m.counters.unread_messages = unread),
                                    None => state.changed(recipient),
                                }
                            }
                        }
                    }
                    None => inner.lock().clear(),
                }
            }
            crate::db::Heard::Notification { payload, .. } => match payload.trim().parse::<i64>() {
                Ok(user) => inner.lock().changed(user),
                Err(_) => inner.lock().clear(),
            },
        }
    }

    /// Brings the cache up to date with what was committed until now and returns the ticket
    /// for a read, or `None` when nothing may be served from memory now (off, not listening,
    /// the change log unreadable).
    pub fn sync(&self) -> Option<Ticket> {
        let inner = self.inner.as_ref()?;
        match &inner.source {
            Source::Postgres(listening) => {
                if !listening.load(Ordering::Acquire) {
                    return None;
                }
            }
            Source::Sqlite(watcher) => {
                let mut watcher = watcher.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(error) = watcher.catch_up(inner) {
                    tracing::warn!(%error, "reading member changes failed; members are read from the database");
                    return None;
                }
            }
        }
        Some(Ticket(inner.lock().tick))
    }

    /// The ticket a chat send takes before it starts, for [`MemberCache::sent`] (PostgreSQL
    /// only; SQLite's change log drops the members at the next request anyway).
    pub fn send_ticket(&self) -> Option<Ticket> {
        let inner = self.inner.as_ref()?;
        matches!(inner.source, Source::Postgres(_)).then(|| self.sync()).flatten()
    }

    /// After a member's own chat send on PostgreSQL (`ticket` taken before it, `message` the
    /// one it stored): their kept sessions take the balance it left at once, instead of being
    /// dropped, when nothing of theirs was heard since the ticket (their send's own signal
    /// patches them again, in commit order; a parallel send of theirs that patched first makes
    /// the other one not current), or when the last thing heard of them is this send's own
    /// signal. Answers whether the sessions are current (else the caller drops them, as after
    /// any write).
    pub fn sent(&self, ticket: Option<Ticket>, user: i64, message: i64, credits: i64) -> bool {
        let (Some(inner), Some(ticket)) = (&self.inner, ticket) else { return false };
        if !matches!(inner.source, Source::Postgres(_)) {
            return false;
        }
        let mut state = inner.lock();
        if state.current(ticket, user) {
            state.patched(user, |m| m.credits = credits);
            return true;
        }
        // The send's own signal came first: what is kept took its figures, and is current if
        // nothing of theirs was heard after it.
        state.sent_by.get(&user).is_some_and(|&(tick, id)| id == message && state.recent.get(&user) == Some(&tick) && tick >= state.floor)
    }

    /// Drops what is kept of a member on this node (after their own request wrote something:
    /// other nodes hear of it from the database).
    pub fn forget(&self, user: i64) {
        if let Some(inner) = &self.inner {
            inner.lock().changed(user);
        }
    }

    /// A kept session, unless older than the cache's age limit.
    pub fn session(&self, token_hash: &str) -> Option<CachedSession> {
        let inner = self.inner.as_ref()?;
        let state = inner.lock();
        state.sessions.get(token_hash).filter(|s| s.at.elapsed() < inner.max_age).map(|s| s.value.clone())
    }

    pub fn put_session(&self, ticket: Ticket, token_hash: &str, session: CachedSession) {
        let Some(inner) = &self.inner else { return };
        let mut state = inner.lock();
        let user = session.member.id;
        if !state.current(ticket, user) {
            return;
        }
        if state.sessions.len() >= MAX_SESSIONS {
            state.clear();
        }
        if state.sessions.insert(token_hash.to_string(), Stored { value: session, at: Instant::now() }).is_none() {
            state.members.entry(user).or_default().sessions.push(token_hash.to_string());
        }
    }

    /// Everyone the member blocked or was blocked by, and everyone they liked.
    pub fn blocks_and_likes(&self, user: i64) -> Option<BlocksAndLikes> {
        let inner = self.inner.as_ref()?;
        let state = inner.lock();
        state.members.get(&user)?.blocks_and_likes.as_ref().filter(|s| s.at.elapsed() < inner.max_age).map(|s| s.value.clone())
    }

    pub fn put_blocks_and_likes(&self, ticket: Ticket, user: i64, blocked: Arc<HashSet<i64>>, liked: Arc<HashSet<i64>>) {
        let Some(inner) = &self.inner else { return };
        let mut state = inner.lock();
        if state.current(ticket, user) && state.members.len() < MAX_SESSIONS {
            state.members.entry(user).or_default().blocks_and_likes = Some(Stored { value: (blocked, liked), at: Instant::now() });
        }
    }

    /// The profile the member opened last (as of `today`: a card shows an age), if kept.
    pub fn last_opened(&self, user: i64, today: Ymd) -> Option<Option<(MemberCard, i64)>> {
        let inner = self.inner.as_ref()?;
        let state = inner.lock();
        let kept = state.members.get(&user)?.last_opened.as_ref().filter(|s| s.at.elapsed() < inner.max_age)?;
        (kept.value.0 == today).then(|| kept.value.1.clone())
    }

    pub fn put_last_opened(&self, ticket: Ticket, user: i64, today: Ymd, opened: Option<(MemberCard, i64)>) {
        let Some(inner) = &self.inner else { return };
        let mut state = inner.lock();
        let shown = opened.as_ref().map(|(card, _)| card.id);
        if !state.current(ticket, user) || shown.is_some_and(|id| !state.current(ticket, id)) || state.members.len() >= MAX_SESSIONS {
            return;
        }
        if let Some(id) = shown {
            state.shown_by.entry(id).or_default().insert(user);
        }
        state.members.entry(user).or_default().last_opened = Some(Stored { value: (today, opened), at: Instant::now() });
    }

    /// What a page of the member's read under `key` (a likes tab, a notifications page), if kept.
    pub fn page<T: Clone + Send + Sync + 'static>(&self, user: i64, key: &str) -> Option<T> {
        let inner = self.inner.as_ref()?;
        let state = inner.lock();
        let (_, kept) = state.pages.get(&user)?.iter().find(|(k, _)| k == key)?;
        (kept.at.elapsed() < inner.max_age).then(|| kept.value.downcast_ref::<T>().cloned()).flatten()
    }

    /// Keeps what a page of the member's read under `key`, showing the members `shows`: it goes
    /// when the member or any of them changes (their profile: a name, a photo, a place).
    pub fn put_page<T: Send + Sync + 'static>(&self, ticket: Ticket, user: i64, key: String, shows: &[i64], value: T) {
        let Some(inner) = &self.inner else { return };
        let mut state = inner.lock();
        if !state.current(ticket, user) || shows.iter().any(|id| !state.current(ticket, *id)) {
            return;
        }
        if !state.pages.contains_key(&user) && state.pages.len() >= MAX_PAGE_MEMBERS {
            return;
        }
        for id in shows {
            state.shown_by.entry(*id).or_default().insert(user);
        }
        let pages = state.pages.entry(user).or_default();
        pages.retain(|(k, _)| *k != key);
        if pages.len() >= MAX_PAGES_PER_MEMBER {
            pages.remove(0);
        }
        pages.push((key, Stored { value: Arc::new(value), at: Instant::now() }));
    }

    /// A page list of the member's under `key`: kept, or `read` and then kept when `keep` names
    /// the members it shows (`None`: not to be kept). Read directly when nothing may be served
    /// from memory.
    pub async fn page_or_read<T, E, F>(&self, user: i64, key: String, read: impl FnOnce() -> F, keep: impl FnOnce(&T) -> Option<Vec<i64>>) -> Result<T, E>
    where
        T: Clone + Send + Sync + 'static,
        F: std::future::Future<Output = Result<T, E>>,
    {
        let ticket = self.sync();
        if let Some(kept) = ticket.and_then(|_| self.page::<T>(user, &key)) {
            return Ok(kept);
        }
        let value = read().await?;
        if let (Some(ticket), Some(shows)) = (ticket, keep(&value)) {
            self.put_page(ticket, user, key, &shows, value.clone());
        }
        Ok(value)
    }

    /// Drops what is older than the age limit (the hourly housekeeping).
    pub fn prune(&self) {
        let Some(inner) = &self.inner else { return };
        let max_age = inner.max_age;
        let mut state = inner.lock();
        let stale: Vec<i64> = state
            .members
            .iter()
            .filter(|(_, own)| {
                own.sessions.is_empty()
                    && own.blocks_and_likes.as_ref().is_none_or(|s| s.at.elapsed() >= max_age)
                    && own.last_opened.as_ref().is_none_or(|s| s.at.elapsed() >= max_age)
            })
            .map(|(id, _)| *id)
            .collect();
        for id in stale {
            state.members.remove(&id);
        }
        for pages in state.pages.values_mut() {
            pages.retain(|(_, s)| s.at.elapsed() < max_age);
        }
        state.pages.retain(|_, pages| !pages.is_empty());
        let old: Vec<(String, i64)> = state.sessions.iter().filter(|(_, s)| s.at.elapsed() >= max_age).map(|(k, s)| (k.clone(), s.value.member.id)).collect();
        for (hash, user) in old {
            state.sessions.remove(&hash);
            if let Some(own) = state.members.get_mut(&user) {
                own.sessions.retain(|h| h != &hash);
            }
        }
        let (members, pages) = (&state.members, &state.pages);
        let shown_by: HashMap<i64, HashSet<i64>> = state
            .shown_by
            .iter()
            .map(|(id, viewers)| {
                (
                    *id,
                    viewers
                        .iter()
                        .copied()
                        .filter(|v| members.get(v).is_some_and(|o| o.last_opened.is_some()) || pages.contains_key(v))
                        .collect::<HashSet<i64>>(),
                )
            })
            .filter(|(_, viewers)| !viewers.is_empty())
            .collect();
        state.shown_by = shown_by;
    }

    /// How many sessions are kept (metrics and tests).
    pub fn sessions_kept(&self) -> usize {
        self.inner.as_ref().map_or(0, |inner| inner.lock().sessions.len())
    }

    /// How many page lists of the member are kept (tests).
    pub fn pages_kept(&self, user: i64) -> usize {
        self.inner.as_ref().map_or(0, |inner| inner.lock().pages.get(&user).map_or(0, Vec::len))
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Watcher {
    /// Applies the change log's new rows, when anything was committed since the last look.
    fn catch_up(&mut self, inner: &Inner) -> Result<(), rusqlite::Error> {
        let version: i64 = self.conn.prepare_cached("PRAGMA data_version")?.query_row([], |r| r.get(0))?;
        if version == self.version {
            return Ok(());
        }
        let mut statement = self.conn.prepare_cached("SELECT seq, user_id FROM member_changes WHERE seq > ?1 ORDER BY seq")?;
        let rows: Vec<(i64, i64)> = statement.query_map([self.seq], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?;
        let mut state = inner.lock();
        for (seq, user) in rows {
            state.changed(user);
            self.seq = seq;
        }
        self.version = version;
        Ok(())
    }
}

impl State {
    /// Whether a read under `ticket` is still current for `user`.
    fn current(&self, ticket: Ticket, user: i64) -> bool {
        ticket.0 >= self.floor && self.recent.get(&user).is_none_or(|t| *t <= ticket.0) && self.recent.get(&0).is_none_or(|t| *t <= ticket.0)
    }

    fn changed(&mut self, user: i64) {
        if user == 0 {
            self.clear();
            return;
        }
        self.tick += 1;
        if self.recent.len() >= MAX_RECENT {
            self.recent.clear();
            self.sent_by.clear();
            self.floor = self.tick;
        }
        self.recent.insert(user, self.tick);
        if let Some(own) = self.members.remove(&user) {
            for hash in own.sessions {
                self.sessions.remove(&hash);
            }
        }
        self.pages.remove(&user);
        if let Some(viewers) = self.shown_by.remove(&user) {
            for viewer in viewers {
                if let Some(own) = self.members.get_mut(&viewer) {
                    own.last_opened = None;
                }
                self.pages.remove(&viewer);
            }
        }
    }

    /// A member's change whose new values the database told (a chat send's figures): as
    /// [`State::changed`] (reads under way are not kept, page lists that show them are
    /// dropped), but their kept sessions and own lists stay, with `patch` applied.
    fn patched(&mut self, user: i64, patch: impl Fn(&mut Member)) {
        let own = self.members.remove(&user);
        let sessions: Vec<(String, Stored<CachedSession>)> =
            own.iter().flat_map(|own| own.sessions.iter()).filter_map(|hash| self.sessions.remove(hash).map(|s| (hash.clone(), s))).collect();
        self.changed(user);
        if let Some(own) = own {
            for (hash, mut session) in sessions {
                patch(&mut session.value.member);
                self.sessions.insert(hash, session);
            }
            self.members.insert(user, own);
        }
    }

    fn clear(&mut self) {
        self.tick += 1;
        self.floor = self.tick;
        self.recent.clear();
        self.sent_by.clear();
        self.sessions.clear();
        self.members.clear();
        self.shown_by.clear();
        self.pages.clear();
    }
}

/// Deletes change-log rows older than [`CHANGES_KEPT_SECS`] (the hourly housekeeping).
pub async fn remove_old_changes(db: &crate::db::Db, now: i64) -> Result<u64, crate::error::AppError> {
    Ok(sqlx::query("DELETE FROM member_changes WHERE at < $1").bind(now - CHANGES_KEPT_SECS).execute(db.pool()).await?.rows_affected())
}

#[cfg(test)]
mod tests;
