//! Search results for visitors, kept for a few seconds. A visitor's results depend only on the
//! site, the filters and the day (no blocks, no own profile), and most visitors ask the same few
//! pages; the query is the largest part of a `/members` page (README, Performance).
//!
//! Freshness: an entry lives `VONK_SEARCH_CACHE_SECS` (default 5; 0 turns the cache off). A
//! change to whether a profile can be found (hidden, blocked by staff, deleted, made invisible)
//! clears this node's entries at once through [`invalidate`]; other nodes see it within the
//! lifetime. Members always search the database (their blocks and own profile shape the list).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use domain::account::Ymd;
use domain::search::{SearchFilters, SearchResults};

use crate::ttl_cache::TtlCache;

/// At most this many result pages are kept.
const MAX_ENTRIES: usize = 4096;

/// Bumped whenever a profile's findability changes anywhere in this process.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Drops every cached result page (of every cache in this process).
pub fn invalidate() {
    GENERATION.fetch_add(1, Ordering::Release);
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    site: i64,
    today: (i32, u32, u32),
    gender: Option<&'static str>,
    country: Option<String>,
    region: Option<String>,
    ages: (u32, u32),
    page: u32,
}

impl Key {
    fn new(site: i64, filters: &SearchFilters, today: Ymd) -> Key {
        Key {
            site,
            today: (today.year, today.month, today.day),
            gender: filters.gender.map(|g| g.code()),
            country: filters.country.clone(),
            region: filters.region.clone(),
            ages: (filters.min_age, filters.max_age),
            page: filters.page,
        }
    }
}

#[derive(Debug)]
pub struct SearchCache(TtlCache<Key, Arc<SearchResults>>);

impl SearchCache {
    pub fn new(ttl: Duration) -> SearchCache {
        SearchCache(TtlCache::new(ttl, MAX_ENTRIES))
    }

    pub fn enabled(&self) -> bool {
        self.0.enabled()
    }

    pub fn get(&self, site: i64, filters: &SearchFilters, today: Ymd) -> Option<Arc<SearchResults>> {
        self.0.get(&Key::new(site, filters, today), Self::generation())
    }

    /// Stores results read at `generation` (taken before the query ran, so a change that
    /// lands during the query leaves the entry already stale).
    pub fn put(&self, site: i64, filters: &SearchFilters, today: Ymd, generation: u64, results: Arc<SearchResults>) {
        self.0.put(Key::new(site, filters, today), generation, results);
    }

    pub fn generation() -> u64 {
        GENERATION.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::profile::Gender;
    use std::sync::Mutex;

    fn filters(page: u32) -> SearchFilters {
        SearchFilters { gender: Some(Gender::Female), country: Some("NL".into()), region: None, min_age: 25, max_age: 40, page }
    }

    fn results(id: i64) -> Arc<SearchResults> {
        let card = domain::search::MemberCard { id, name: "A".into(), age: 30, city: "Haarlem".into(), region: String::new(), thumb: None, fictional: false };
        Arc::new(SearchResults { results: vec![card], has_more: false, similar: vec![], liked: vec![] })
    }

    const TODAY: Ymd = Ymd { year: 2026, month: 11, day: 23 };

    /// The generation is process-wide: these tests take turns.
    static TURN: Mutex<()> = Mutex::new(());

    #[test]
    fn a_page_is_served_until_it_expires_and_only_for_its_own_key() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let cache = SearchCache::new(Duration::from_millis(200));
        cache.put(1, &filters(1), TODAY, SearchCache::generation(), results(7));
        assert_eq!(cache.get(1, &filters(1), TODAY).unwrap().results[0].id, 7);
        assert!(cache.get(1, &filters(2), TODAY).is_none(), "another page");
        assert!(cache.get(2, &filters(1), TODAY).is_none(), "another site");
        assert!(cache.get(1, &filters(1), Ymd { day: 24, ..TODAY }).is_none(), "another day (ages move)");
        std::thread::sleep(Duration::from_millis(250));
        assert!(cache.get(1, &filters(1), TODAY).is_none(), "expired");
    }

    #[test]
    fn a_change_in_findability_clears_entries_even_one_stored_by_a_query_that_ran_across_it() {
        let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let cache = SearchCache::new(Duration::from_secs(60));
        cache.put(1, &filters(1), TODAY, SearchCache::generation(), results(7));
        let before = SearchCache::generation();
        invalidate();
        assert!(cache.get(1, &filters(1), TODAY).is_none());
        // A query that started before the change stores what it read: never served.
        cache.put(1, &filters(1), TODAY, before, results(8));
        assert!(cache.get(1, &filters(1), TODAY).is_none());
    }

    #[test]
    fn zero_lifetime_turns_it_off() {
        let cache = SearchCache::new(Duration::ZERO);
        cache.put(1, &filters(1), TODAY, SearchCache::generation(), results(7));
        assert!(cache.get(1, &filters(1), TODAY).is_none());
    }
}
