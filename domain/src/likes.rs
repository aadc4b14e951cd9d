//! Likes and matches (SPEC §2 likes routes, §3 Like item, §9): the kinds of the likes pages, the
//! swipe game's daily allowance for free members, and the counter caps of the top bar.

use serde::{Deserialize, Serialize};

/// SPEC §9: free members may like 4 profiles a day in the swipe game.
pub const SWIPE_LIKES_PER_DAY: usize = 4;
/// The allowance counts the likes of the last 24 hours (a rolling day, so the time left is exact).
pub const SWIPE_WINDOW_SECS: i64 = 24 * 3600;

/// Cards per likes page (`/likes/{type}?page=N`), as many as on a search page.
pub const PAGE_SIZE: u32 = crate::search::PAGE_SIZE;

/// The page of `/likes/{type}?page=N`: the first when missing or not a number, and no deeper
/// than a search goes.
pub fn page(raw: Option<&str>) -> u32 {
    raw.and_then(|v| v.trim().parse::<u32>().ok()).unwrap_or(1).clamp(1, crate::search::MAX_PAGE)
}

/// The cards before `page`.
pub fn offset(page: u32) -> i64 {
    i64::from(page.clamp(1, crate::search::MAX_PAGE) - 1) * i64::from(PAGE_SIZE)
}

/// `/likes/{type}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LikeKind {
    /// Profiles I liked.
    Given,
    /// Members who liked me (new ones first).
    Received,
    /// Both liked each other.
    Matches,
}

impl LikeKind {
    pub const ALL: [LikeKind; 3] = [LikeKind::Received, LikeKind::Matches, LikeKind::Given];

    pub fn code(self) -> &'static str {
        match self {
            LikeKind::Given => "given",
            LikeKind::Received => "received",
            LikeKind::Matches => "matches",
        }
    }

    pub fn parse(code: &str) -> Option<LikeKind> {
        LikeKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// Where a like was given; kept with the like for the counters and the daily allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LikeSource {
    Profile,
    Search,
    Swipe,
    Auto,
}

impl LikeSource {
    pub fn code(self) -> &'static str {
        match self {
            LikeSource::Profile => "profile",
            LikeSource::Search => "search",
            LikeSource::Swipe => "swipe",
            LikeSource::Auto => "auto",
        }
    }

    pub fn parse(code: &str) -> Option<LikeSource> {
        [LikeSource::Profile, LikeSource::Search, LikeSource::Swipe, LikeSource::Auto].into_iter().find(|s| s.code() == code)
    }
}

/// The member who liked you, as the like popup shows it (SPEC §3 Auto-like profile).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Liker {
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub place: String,
    /// The thumbnail's address, if the profile has a photo.
    pub photo: Option<String>,
}

/// What the swipe game may still do today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allowance {
    /// `None`: no limit (premium members).
    pub remaining: Option<usize>,
    /// When the next like becomes possible again, once none remain (unix seconds).
    pub next_at: Option<i64>,
}

/// The allowance from the times of the swipe likes given in the last [`SWIPE_WINDOW_SECS`].
pub fn swipe_allowance(premium: bool, recent: &[i64], now: i64) -> Allowance {
    if premium {
        return Allowance { remaining: None, next_at: None };
    }
    let mut inside: Vec<i64> = recent.iter().copied().filter(|t| *t > now - SWIPE_WINDOW_SECS && *t <= now).collect();
    inside.sort_unstable();
    let remaining = SWIPE_LIKES_PER_DAY.saturating_sub(inside.len());
    // The oldest like that must age out before another one fits.
    let next_at = (remaining == 0).then(|| inside[inside.len() - SWIPE_LIKES_PER_DAY] + SWIPE_WINDOW_SECS);
    Allowance { remaining: Some(remaining), next_at }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: i64 = 1_795_348_800;

    #[test]
    fn kinds_and_sources_round_trip() {
        for k in LikeKind::ALL {
            assert_eq!(LikeKind::parse(k.code()), Some(k));
        }
        assert_eq!(LikeKind::parse("m"), None);
        assert_eq!(LikeSource::parse("swipe"), Some(LikeSource::Swipe));
    }

    #[test]
    fn four_a_day_then_come_back() {
        let a = swipe_allowance(false, &[], NOW);
        assert_eq!(a.remaining, Some(4));
        let times = [NOW - 5000, NOW - 4000, NOW - 3000];
        assert_eq!(swipe_allowance(false, &times, NOW).remaining, Some(1));
        let times = [NOW - 5000, NOW - 4000, NOW - 3000, NOW - 10];
        let a = swipe_allowance(false, &times, NOW);
        assert_eq!(a.remaining, Some(0));
        assert_eq!(a.next_at, Some(NOW - 5000 + SWIPE_WINDOW_SECS));
        // A day later the oldest has aged out.
        assert_eq!(swipe_allowance(false, &times, NOW - 5000 + SWIPE_WINDOW_SECS).remaining, Some(1));
        assert_eq!(swipe_allowance(true, &times, NOW), Allowance { remaining: None, next_at: None });
    }

    #[test]
    fn likes_pages_start_at_one_and_stop_where_search_stops() {
        assert_eq!((page(None), page(Some("")), page(Some("0")), page(Some("-3")), page(Some("x"))), (1, 1, 1, 1, 1));
        assert_eq!((page(Some("2")), page(Some(" 7 ")), page(Some("99999999999"))), (2, 7, 1));
        assert_eq!(page(Some("100000")), crate::search::MAX_PAGE);
        assert_eq!((offset(1), offset(2), offset(0)), (0, 24, 0));
    }

    proptest! {
        /// Whatever `?page=` says, the page is a real one and its cards follow the previous page's.
        #[test]
        fn any_page_parameter_gives_a_page_in_range(raw in any::<Option<String>>()) {
            let p = page(raw.as_deref());
            prop_assert!((1..=crate::search::MAX_PAGE).contains(&p));
            prop_assert_eq!(offset(p), i64::from(p - 1) * i64::from(PAGE_SIZE));
            prop_assert!(p == 1 || offset(p) == offset(p - 1) + i64::from(PAGE_SIZE));
        }

        /// Never more than four swipe likes inside any 24 hours, and `next_at` is when one fits.
        #[test]
        fn allowance_is_consistent(offsets in proptest::collection::vec(0i64..3 * SWIPE_WINDOW_SECS, 0..12)) {
            let times: Vec<i64> = offsets.iter().map(|o| NOW - o).collect();
            let a = swipe_allowance(false, &times, NOW);
            let inside = times.iter().filter(|t| **t > NOW - SWIPE_WINDOW_SECS).count();
            prop_assert_eq!(a.remaining, Some(SWIPE_LIKES_PER_DAY.saturating_sub(inside)));
            if let Some(at) = a.next_at {
                prop_assert!(at > NOW);
                prop_assert!(swipe_allowance(false, &times, at).remaining.unwrap() >= 1);
                prop_assert_eq!(swipe_allowance(false, &times, at - 1).remaining, Some(0));
            } else {
                prop_assert!(a.remaining.unwrap() > 0);
            }
        }
    }
}
