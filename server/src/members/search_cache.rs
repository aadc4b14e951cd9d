//! Search results kept for a few seconds: per site, filter set and day, the first cards in
//! last-active order as a visitor finds them. Most searches ask the same few filter sets and
//! pages, and the query was the largest part of a `/members` page (README, Performance).
//! Visitors and members share the list: a member's page is the list without themselves and
//! without anyone blocked either way, both read fresh for every page (`Members::search`).
//!
//! Freshness: an entry lives `VONK_SEARCH_CACHE_SECS` (default 5; 0 turns the cache off). A
//! change to whether a profile can be found (hidden, blocked by staff, deleted, made invisible)
//! clears this node's entries at once through [`invalidate`]; other nodes see it within the
//! lifetime.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use domain::account::Ymd;
use domain::search::MemberCard;

use crate::ttl_cache::TtlCache;

/// At most this many lists are kept.
const MAX_ENTRIES: usize = 2048;

/// Pages of a filter set the shared list serves; deeper pages query the database.
pub const SHARED_PAGES: u32 = 8;

/// Bumped whenever a profile's findability changes anywhere in this process.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Drops every cached result page (of every cache in this process).
pub fn invalidate() {
    GENERATION.fetch_add(1, Ordering::Release);
}

/// What a list holds: the filters that shape it. `region` is set only inside its country;
/// `ages` none means any age (the similar profiles of a short page).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CardSet {
    pub gender: Option<&'static str>,
    pub country: Option<String>,
    pub region: Option<String>,
    pub ages: Option<(u32, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    site: i64,
    today: (i32, u32, u32),
    set: CardSet,
}

impl Key {
    fn new(site: i64, set: &CardSet, today: Ymd) -> Key {
        Key { site, today: (today.year, today.month, today.day), set: set.clone() }
    }
}

/// The first cards of a filter set; `complete` when there are no more.
#[derive(Debug)]
pub struct CardList {
    pub cards: Vec<MemberCard>,
    pub complete: bool,
}

#[derive(Debug)]
pub struct SearchCache(TtlCache<Key, Arc<CardList>>);

impl SearchCache {
    pub fn new(ttl: Duration) -> SearchCache {
        SearchCache(TtlCache::new(ttl, MAX_ENTRIES))
    }

    pub fn enabled(&self) -> bool {
        self.0.enabled()
    }

    pub fn get(&self, site: i64, set: &CardSet, today: Ymd) -> Option<Arc<CardList>> {
        self.0.get(&Key::new(site, set, today), Self::generation())
    }

    /// Stores a list read at `generation` (taken before the query ran, so a change that lands
    /// during the query leaves the entry already stale).
    pub fn put(&self, site: i64, set: &CardSet, today: Ymd, generation: u64, list: Arc<CardList>) {
        self.0.put(Key::new(site, set, today), generation, list);
    }

    pub fn generation() -> u64 {
        GENERATION.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn filters(max_age: u32) -> CardSet {
        CardSet { gender: Some("female"), country: Some("NL".into()), region: None, ages: Some((25, max_age)) }
    }

    fn results(id: i64) -> Arc<CardList> {
        let card = MemberCard { id, name: "A".into(), age: 30, city: "Haarlem".into(), region: String::new(), thumb: None, fictional: false };
        Arc::new(CardList { cards: vec![card], complete: true })
    }

    const TODAY: Ymd = Ymd { year: 2026, month: 11, day: 23 };

    /// The generation is process-wide: these tests take turns.
    static TURN: Mutex<()> = Mutex::new(());

    #[test]
    fn a_page_is_served_until_it_expires_and_only_for_its_own_key() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let cache = SearchCache::new(Duration::from_millis(200));
        cache.put(1, &filters(40), TODAY, SearchCache::generation(), results(7));
        assert_eq!(cache.get(1, &filters(40), TODAY).unwrap().cards[0].id, 7);
        assert!(cache.get(1, &filters(41), TODAY).is_none(), "other filters");
        assert!(cache.get(2, &filters(40), TODAY).is_none(), "another site");
        assert!(cache.get(1, &filters(40), Ymd { day: 24, ..TODAY }).is_none(), "another day (ages move)");
        std::thread::sleep(Duration::from_millis(250));
        assert!(cache.get(1, &filters(40), TODAY).is_none(), "expired");
    }

    #[test]
    fn a_change_in_findability_clears_entries_even_one_stored_by_a_query_that_ran_across_it() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let cache = SearchCache::new(Duration::from_secs(60));
        cache.put(1, &filters(40), TODAY, SearchCache::generation(), results(7));
        let before = SearchCache::generation();
        invalidate();
        assert!(cache.get(1, &filters(40), TODAY).is_none());
        // A query that started before the change stores what it read: never served.
        cache.put(1, &filters(40), TODAY, before, results(8));
        assert!(cache.get(1, &filters(40), TODAY).is_none());
    }

    #[test]
    fn zero_lifetime_turns_it_off() {
        let cache = SearchCache::new(Duration::ZERO);
        cache.put(1, &filters(40), TODAY, SearchCache::generation(), results(7));
        assert!(cache.get(1, &filters(40), TODAY).is_none());
    }
}
