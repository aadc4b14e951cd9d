//! A small in-memory map whose entries live a fixed time: what pages read often and change
//! rarely (a visitor's search results, the credit packs on offer). An entry also carries the
//! generation it was read at; a reader that passes a newer one does not get it.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct TtlCache<K, V> {
    ttl: Duration,
    max_entries: usize,
    entries: Mutex<HashMap<K, (Instant, u64, V)>>,
}

impl<K, V> std::fmt::Debug for TtlCache<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TtlCache").field("ttl", &self.ttl).field("max_entries", &self.max_entries).finish_non_exhaustive()
    }
}

impl<K: Hash + Eq, V: Clone> TtlCache<K, V> {
    /// A zero `ttl` keeps nothing. When `max_entries` are held, expired ones go, and if that
    /// is not enough, all.
    pub fn new(ttl: Duration, max_entries: usize) -> TtlCache<K, V> {
        TtlCache { ttl, max_entries, entries: Mutex::new(HashMap::new()) }
    }

    pub fn enabled(&self) -> bool {
        !self.ttl.is_zero()
    }

    pub fn get(&self, key: &K, generation: u64) -> Option<V> {
        if !self.enabled() {
            return None;
        }
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (stored, stored_generation, value) = entries.get(key)?;
        (*stored_generation == generation && stored.elapsed() < self.ttl).then(|| value.clone())
    }

    /// Stores `value` as read at `generation` (taken before reading it, so that a change made
    /// meanwhile leaves the entry stale).
    pub fn put(&self, key: K, generation: u64, value: V) {
        if !self.enabled() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.max_entries {
            let ttl = self.ttl;
            entries.retain(|_, (stored, _, _)| stored.elapsed() < ttl);
            if entries.len() >= self.max_entries {
                entries.clear();
            }
        }
        entries.insert(key, (Instant::now(), generation, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_lives_its_time_and_generation() {
        let cache = TtlCache::new(Duration::from_millis(150), 8);
        cache.put("a", 1, 10);
        assert_eq!(cache.get(&"a", 1), Some(10));
        assert_eq!(cache.get(&"a", 2), None, "read before a later change");
        assert_eq!(cache.get(&"b", 1), None);
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(cache.get(&"a", 1), None, "expired");
    }

    #[test]
    fn a_full_cache_makes_room_and_zero_time_keeps_nothing() {
        let cache = TtlCache::new(Duration::from_secs(60), 2);
        cache.put(1, 0, "one");
        cache.put(2, 0, "two");
        cache.put(3, 0, "three");
        assert_eq!(cache.get(&3, 0), Some("three"));
        assert!(cache.entries.lock().unwrap().len() <= 2);
        let off = TtlCache::new(Duration::ZERO, 2);
        off.put(1, 0, "one");
        assert_eq!(off.get(&1, 0), None);
    }
}
