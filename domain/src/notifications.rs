//! Notifications (SPEC §2 `/notifications`, §4 periodic refresh and auto-like, §9 constants):
//! the kinds a member is told about, when a like is worth a mail, when a new member is due an
//! auto-like, and how the counters in the top bar and the page title refresh.

use serde::{Deserialize, Serialize};

use crate::profile::{Gender, Sexuality};

/// What a notification is about. Likes and matches name the other member; the rest are
/// system notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    Like,
    Match,
    PhotoApproved,
    PhotoRejected,
    Welcome,
}

impl NotificationKind {
    pub const ALL: [NotificationKind; 5] =
        [NotificationKind::Like, NotificationKind::Match, NotificationKind::PhotoApproved, NotificationKind::PhotoRejected, NotificationKind::Welcome];

    pub fn code(self) -> &'static str {
        match self {
            NotificationKind::Like => "like",
            NotificationKind::Match => "match",
            NotificationKind::PhotoApproved => "photo_approved",
            NotificationKind::PhotoRejected => "photo_rejected",
            NotificationKind::Welcome => "welcome",
        }
    }

    pub fn parse(code: &str) -> Option<NotificationKind> {
        NotificationKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Likes and matches come from another member; system notices from the site.
    pub fn has_actor(self) -> bool {
        matches!(self, NotificationKind::Like | NotificationKind::Match)
    }
}

/// A like mail goes out at most once in this many seconds per member; a match always mails
/// (within the pair's spacing, [`pair_mail_due`]).
pub const LIKE_MAIL_GAP_SECS: i64 = 6 * 3600;

/// Whether a like (or match) is worth a mail, given when the last like mail went out.
pub fn like_mail_due(matched: bool, last_mailed: Option<i64>, now: i64) -> bool {
    matched || last_mailed.is_none_or(|at| now - at >= LIKE_MAIL_GAP_SECS)
}

/// One like or match mail per pair of members a day: a like taken back and given again, or a
/// match undone and made again, within a day mails nobody.
pub const PAIR_MAIL_GAP_SECS: i64 = 24 * 3600;

/// Whether a like or match mail about one member may go to another: the pair's spacing first,
/// then [`like_mail_due`] for the receiver's likes overall.
pub fn pair_mail_due(matched: bool, last_for_member: Option<i64>, last_for_pair: Option<i64>, now: i64) -> bool {
    last_for_pair.is_none_or(|at| now - at >= PAIR_MAIL_GAP_SECS) && like_mail_due(matched, last_for_member, now)
}

/// Members one member may like at once through "like them all" (the match finder) per day.
pub const BULK_LIKES_PER_DAY: i64 = 30;

/// SPEC §9: user, chats and likes refresh every 60 s, or every 300 s once push is subscribed,
/// starting 5 s after the page loads.
pub const REFRESH_SECS: u32 = 60;
pub const REFRESH_PUSH_SECS: u32 = 300;
pub const REFRESH_START_SECS: u32 = 5;
/// SPEC §4, §9: after an auto-like call the like state reloads 500 ms later.
pub const LIKES_RELOAD_MS: u32 = 500;

pub fn refresh_interval_secs(push_subscribed: bool) -> u32 {
    if push_subscribed {
        REFRESH_PUSH_SECS
    } else {
        REFRESH_SECS
    }
}

/// Auto-likes: a new member receives likes from fitting operator-run profiles during the first
/// days, per site setting (how many, and how far apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct AutoLikePolicy {
    /// At most this many auto-likes per member; 0 switches them off.
    #[cfg_attr(feature = "sqlx", sqlx(rename = "auto_likes", try_from = "i64"))]
    pub count: u32,
    /// At least this long between two.
    #[cfg_attr(feature = "sqlx", sqlx(rename = "auto_like_gap_secs"))]
    pub gap_secs: i64,
}

/// Auto-likes come only in the first week after signup.
pub const AUTO_LIKE_WINDOW_SECS: i64 = 7 * 86_400;
/// Without a `t` parameter a page asks for a due auto-like this long after it loads (a like that
/// arrives while the member browses, not one that greets every page).
pub const AUTO_LIKE_DELAY_SECS: u32 = 30;

/// SPEC §2: the member area comprises members, members-id, chats, likes, likes-m-id and premium.
/// Auto-likes arrive on its pages, where a member is browsing profiles.
pub fn in_member_area(path: &str) -> bool {
    ["/members", "/chats", "/likes", "/premium"].iter().any(|p| path == *p || path.strip_prefix(p).is_some_and(|rest| rest.starts_with('/')))
}

/// Whether a member who signed up at `signup` and received auto-likes at `received` is due
/// another one now.
pub fn auto_like_due(policy: AutoLikePolicy, signup: i64, received: &[i64], now: i64) -> bool {
    if policy.count == 0 || now < signup || now - signup > AUTO_LIKE_WINDOW_SECS || received.len() >= policy.count as usize {
        return false;
    }
    received.iter().max().is_none_or(|last| now - last >= policy.gap_secs)
}

/// How long ago something happened, as the notifications list says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ago {
    JustNow,
    Minutes(i64),
    Hours(i64),
    Days(i64),
}

impl Ago {
    pub fn between(at: i64, now: i64) -> Ago {
        let secs = (now - at).max(0);
        match secs {
            s if s < 60 => Ago::JustNow,
            s if s < 3600 => Ago::Minutes(s / 60),
            s if s < 86_400 => Ago::Hours(s / 3600),
            s => Ago::Days(s / 86_400),
        }
    }

    /// The locale key and its `{count}`.
    pub fn key(self) -> (&'static str, i64) {
        match self {
            Ago::JustNow => ("time.just_now", 0),
            Ago::Minutes(n) => ("time.minutes_ago", n),
            Ago::Hours(n) => ("time.hours_ago", n),
            Ago::Days(n) => ("time.days_ago", n),
        }
    }
}

/// Notifications per page; older ones follow a link.
pub const NOTIFICATIONS_PAGE: usize = 30;

/// Where the next page of notifications starts: after this (time, id), newest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    pub at: i64,
    pub id: i64,
}

impl Cursor {
    /// As the `before` query parameter: `{at}-{id}`.
    pub fn to_param(self) -> String {
        format!("{}-{}", self.at, self.id)
    }

    pub fn parse(param: &str) -> Option<Cursor> {
        let (at, id) = param.split_once('-')?;
        Some(Cursor { at: at.parse().ok().filter(|v: &i64| *v >= 0)?, id: id.parse().ok().filter(|v: &i64| *v > 0)? })
    }
}

/// How many suggestions the match finder shows, and likes in one go at most.
pub const MATCH_FINDER_SIZE: usize = 12;

/// The sexualities of members of `gender` who look for `target` (a fit both ways needs the
/// member to look for them too).
pub fn sexualities_seeking(gender: Gender, target: Gender) -> Vec<Sexuality> {
    Sexuality::ALL.into_iter().filter(|s| s.fits(gender) && s.seeks(gender).contains(&target)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: i64 = 1_795_348_800;

    #[test]
    fn kinds_round_trip() {
        for k in NotificationKind::ALL {
            assert_eq!(NotificationKind::parse(k.code()), Some(k));
        }
        assert_eq!(NotificationKind::parse("likes"), None);
        assert!(NotificationKind::Match.has_actor());
        assert!(!NotificationKind::PhotoApproved.has_actor());
    }

    #[test]
    fn like_mails_are_spaced_matches_are_not() {
        assert!(like_mail_due(false, None, NOW));
        assert!(!like_mail_due(false, Some(NOW - 60), NOW));
        assert!(like_mail_due(true, Some(NOW - 60), NOW));
        assert!(like_mail_due(false, Some(NOW - LIKE_MAIL_GAP_SECS), NOW));
        // The pair's spacing holds for matches too.
        assert!(!pair_mail_due(true, None, Some(NOW - 60), NOW));
        assert!(!pair_mail_due(false, None, Some(NOW - PAIR_MAIL_GAP_SECS + 1), NOW));
        assert!(pair_mail_due(true, Some(NOW - 60), Some(NOW - PAIR_MAIL_GAP_SECS), NOW));
        assert!(pair_mail_due(false, None, None, NOW));
    }

    #[test]
    fn ago_picks_the_largest_whole_unit() {
        assert_eq!(Ago::between(NOW - 5, NOW), Ago::JustNow);
        assert_eq!(Ago::between(NOW + 50, NOW), Ago::JustNow);
        assert_eq!(Ago::between(NOW - 125, NOW), Ago::Minutes(2));
        assert_eq!(Ago::between(NOW - 7200, NOW), Ago::Hours(2));
        assert_eq!(Ago::between(NOW - 3 * 86_400 - 5, NOW), Ago::Days(3));
        assert_eq!(Ago::Hours(2).key(), ("time.hours_ago", 2));
    }

    #[test]
    fn cursors_round_trip_and_refuse_junk() {
        let c = Cursor { at: NOW, id: 42 };
        assert_eq!(Cursor::parse(&c.to_param()), Some(c));
        for junk in ["", "12", "a-b", "-5-3", "12-0", "12-", "1e3-4"] {
            assert_eq!(Cursor::parse(junk), None, "{junk}");
        }
    }

    #[test]
    fn refresh_follows_push() {
        assert_eq!(refresh_interval_secs(false), 60);
        assert_eq!(refresh_interval_secs(true), 300);
    }

    #[test]
    fn auto_likes_in_the_first_week_spaced_and_counted() {
        let p = AutoLikePolicy { count: 2, gap_secs: 3600 };
        assert!(auto_like_due(p, NOW, &[], NOW));
        assert!(!auto_like_due(p, NOW, &[NOW], NOW + 10));
        assert!(auto_like_due(p, NOW, &[NOW], NOW + 3600));
        assert!(!auto_like_due(p, NOW, &[NOW, NOW + 3600], NOW + 99_999));
        assert!(!auto_like_due(p, NOW, &[], NOW + AUTO_LIKE_WINDOW_SECS + 1));
        assert!(!auto_like_due(AutoLikePolicy { count: 0, gap_secs: 0 }, NOW, &[], NOW));
    }

    #[test]
    fn the_member_area() {
        for path in ["/members", "/members/12", "/likes", "/likes/received", "/likes/m/3", "/chats/9", "/premium"] {
            assert!(in_member_area(path), "{path}");
        }
        for path in ["/", "/profile", "/settings", "/activate/done", "/swipe-game", "/membership", "/likes-x", "/notifications"] {
            assert!(!in_member_area(path), "{path}");
        }
    }

    #[test]
    fn who_seeks_whom() {
        assert_eq!(sexualities_seeking(Gender::Male, Gender::Female), vec![Sexuality::Hetero, Sexuality::Bi]);
        assert_eq!(sexualities_seeking(Gender::Female, Gender::Female), vec![Sexuality::Lesbian, Sexuality::Bi]);
        assert_eq!(sexualities_seeking(Gender::Male, Gender::Male), vec![Sexuality::Gay, Sexuality::Bi]);
    }

    proptest! {
        /// Never more than `count` auto-likes, never two closer than the gap, never after the first week.
        #[test]
        fn auto_like_limits_hold(count in 0u32..5, gap in 0i64..10_000, steps in proptest::collection::vec(0i64..20_000, 0..40)) {
            let p = AutoLikePolicy { count, gap_secs: gap };
            let mut received = Vec::new();
            let mut now = NOW;
            for step in steps {
                now += step;
                if auto_like_due(p, NOW, &received, now) {
                    if let Some(last) = received.last() { prop_assert!(now - last >= gap); }
                    prop_assert!(now - NOW <= AUTO_LIKE_WINDOW_SECS);
                    received.push(now);
                }
            }
            prop_assert!(received.len() <= count as usize);
        }

    }
}
