//! Business constants from the specification (§9). One place to change a number.

/// Periodic refresh of user, chats and likes, in seconds.
pub const REFRESH_INTERVAL_SECS: u32 = 60;
/// Refresh interval once push notifications are subscribed.
pub const REFRESH_INTERVAL_PUSH_SECS: u32 = 300;
/// Delay before the first periodic refresh.
pub const REFRESH_START_DELAY_SECS: u32 = 5;
/// The time-bonus modal appears after this long in the member area.
pub const TIME_BONUS_MODAL_DELAY_SECS: u32 = 40;
/// The code the time bonus is booked under (its percentage and hours are site settings,
/// `domain::offers`; SPEC §4's 25 % for 4 hours are the defaults).
pub const TIME_BONUS_CODE: &str = "TIMEBONUS25";
/// The credits badge shows at or below this balance.
pub const CREDITS_BADGE_THRESHOLD: i64 = 10;
/// Counters (unread messages, new likes) are capped at this in the UI ("99+").
pub const COUNTER_CAP: u32 = 99;
/// Language cookie, kept for a year.
pub const LANGUAGE_COOKIE: &str = "i18n_redirected";
pub const LANGUAGE_COOKIE_DAYS: i64 = 365;
/// Cookie that records that a visitor accepted the adult-content entry warning.
pub const ENTRY_WARNING_COOKIE: &str = "entry_accepted";
pub const ENTRY_WARNING_COOKIE_DAYS: i64 = 365;
/// Authentication cookie prefix and lifetime.
pub const AUTH_COOKIE_PREFIX: &str = "auth.";
pub const AUTH_COOKIE_DAYS: i64 = 30;
/// The session cookie's name.
pub const AUTH_COOKIE: &str = "auth.session";
/// The browser's time zone (an IANA name such as `Europe/Amsterdam`), set by the page's first
/// script; the server keeps it on the account for the member's quiet hours.
pub const TIME_ZONE_COOKIE: &str = "tz";
/// Deleted accounts can be reactivated for this many days.
pub const REACTIVATION_DAYS: i64 = 14;
/// Photo limits.
pub const FREE_PHOTO_LIMIT: u32 = 3;
pub const PREMIUM_PHOTO_LIMIT: u32 = 25;
/// Conversations a free member may start.
pub const FREE_CONVERSATION_LIMIT: u32 = 2;
/// Swipe game likes per day for free members.
pub const SWIPE_LIKES_PER_DAY: u32 = 4;
/// Minimum age when a site does not set one.
pub const DEFAULT_MIN_AGE: u32 = 18;
/// Terms version date: 2023-12-01 12:00 UTC (unix seconds).
pub const TERMS_VERSION_DATE: i64 = 1_701_432_000;
/// Responsive breakpoints in CSS pixels.
pub const BREAKPOINTS_PX: [u32; 4] = [576, 768, 992, 1200];

/// SPEC §7, §9: a failed read from the browser is tried again up to this many times, waiting
/// `RETRY_FIRST_DELAY_MS` and then twice as long each time.
pub const REQUEST_RETRIES: u32 = 5;
pub const RETRY_FIRST_DELAY_MS: u32 = 500;

/// The waits before each retry, in milliseconds.
pub fn retry_delays_ms() -> impl Iterator<Item = u32> {
    (0..REQUEST_RETRIES).map(|i| RETRY_FIRST_DELAY_MS << i)
}

#[cfg(test)]
mod tests {
    #[test]
    fn retries_wait_longer_each_time() {
        assert_eq!(super::retry_delays_ms().collect::<Vec<_>>(), vec![500, 1000, 2000, 4000, 8000]);
    }
}
