//! Messages Vonk sends on its own initiative to bring a member back ("lifecycle" messages), and
//! the rules every one of them obeys: never in the member's night, at most one a day and three
//! a week per member, and never after the member said no to that kind.

use serde::{Deserialize, Serialize};

/// A kind of lifecycle message (stored in `lifecycle_sent.kind` and `lifecycle_optouts.kind`;
/// texts under `lifecycle.{kind}.*` in `locales/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LifecycleKind {
    /// A member who has not confirmed the address: after one hour, and once more after a day.
    ConfirmReminder,
    /// A member away for 7 days, and again after 30 (with the company's leaving discount, where
    /// it gives one).
    WinBack,
}

impl LifecycleKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<LifecycleKind> {
        text.parse().ok()
    }
}

/// The confirm reminders' delays after signup: one hour, then one day.
pub const CONFIRM_REMINDERS_AFTER_SECS: [i64; 2] = [3600, 24 * 3600];

/// Days away after which a member is asked back (the last one with the leaving discount).
pub const WIN_BACK_AFTER_DAYS: [i64; 2] = [7, 30];

/// Whether a member last seen at `last_seen` is, at `now`, in the day after crossing `days`
/// days away: what the daily scan picks up (each member once per absence and threshold).
pub fn crossed_away(last_seen: i64, days: i64, now: i64) -> bool {
    let away = now - last_seen;
    away >= days * DAY && away < (days + 1) * DAY
}

/// The member's night, in local hours: nothing is sent from 22:00 until 08:00.
pub const QUIET_FROM_HOUR: i64 = 22;
pub const QUIET_UNTIL_HOUR: i64 = 8;

/// At most one lifecycle message a day and three a week per member, of all kinds together.
pub const MAX_PER_DAY: usize = 1;
pub const MAX_PER_WEEK: usize = 3;

const DAY: i64 = 24 * 3600;
const WEEK: i64 = 7 * DAY;

/// Seconds to wait from a local time of day (seconds since local midnight) until the member's
/// night is over; 0 outside the night.
pub fn quiet_wait_secs(local_secs_of_day: i64) -> i64 {
    let t = local_secs_of_day.rem_euclid(DAY);
    let (from, until) = (QUIET_FROM_HOUR * 3600, QUIET_UNTIL_HOUR * 3600);
    if t >= from {
        DAY - t + until
    } else if t < until {
        until - t
    } else {
        0
    }
}

/// The earliest time at or after `now` when the cap allows one more lifecycle message, given
/// the times (unix seconds) of the ones already sent to this member.
pub fn cap_allows_at(sent: &[i64], now: i64) -> i64 {
    let mut at = now;
    // Each step moves `at` to the moment the oldest message blocking it leaves its window; a
    // handful of steps at most (the week holds at most MAX_PER_WEEK messages that count).
    loop {
        let in_day: Vec<i64> = sent.iter().copied().filter(|&s| s > at - DAY && s <= at).collect();
        let in_week: Vec<i64> = sent.iter().copied().filter(|&s| s > at - WEEK && s <= at).collect();
        let next = if in_day.len() >= MAX_PER_DAY {
            nth_oldest(&in_day, in_day.len() - MAX_PER_DAY) + DAY
        } else if in_week.len() >= MAX_PER_WEEK {
            nth_oldest(&in_week, in_week.len() - MAX_PER_WEEK) + WEEK
        } else {
            return at;
        };
        at = next.max(at + 1);
    }
}

fn nth_oldest(times: &[i64], n: usize) -> i64 {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted[n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use strum::IntoEnumIterator;

    #[test]
    fn names_round_trip() {
        for kind in LifecycleKind::iter() {
            assert_eq!(LifecycleKind::parse(kind.as_str()), Some(kind));
        }
    }

    #[test]
    fn away_is_counted_in_whole_days_once() {
        let seen = 1_000_000;
        assert!(!crossed_away(seen, 7, seen + 7 * DAY - 1));
        assert!(crossed_away(seen, 7, seen + 7 * DAY));
        assert!(crossed_away(seen, 7, seen + 8 * DAY - 1));
        assert!(!crossed_away(seen, 7, seen + 8 * DAY));
    }

    #[test]
    fn the_night_ends_at_eight() {
        assert_eq!(quiet_wait_secs(12 * 3600), 0);
        assert_eq!(quiet_wait_secs(8 * 3600), 0);
        assert_eq!(quiet_wait_secs(22 * 3600 - 1), 0);
        assert_eq!(quiet_wait_secs(22 * 3600), 10 * 3600);
        assert_eq!(quiet_wait_secs(23 * 3600 + 1800), 8 * 3600 + 1800);
        assert_eq!(quiet_wait_secs(3 * 3600), 5 * 3600);
    }

    #[test]
    fn the_cap_counts_a_day_and_a_week() {
        let now = 100 * DAY;
        assert_eq!(cap_allows_at(&[], now), now);
        assert_eq!(cap_allows_at(&[now - 3600], now), now - 3600 + DAY);
        assert_eq!(cap_allows_at(&[now - DAY - 1], now), now);
        // Three in the week: the next waits until the oldest of them is a week old.
        let sent = [now - 6 * DAY, now - 4 * DAY, now - 2 * DAY];
        assert_eq!(cap_allows_at(&sent, now), now - 6 * DAY + WEEK);
    }

    proptest! {
        #[test]
        fn nothing_is_sent_at_night(t in 0i64..DAY) {
            let at = t + quiet_wait_secs(t);
            let hour = at.rem_euclid(DAY) / 3600;
            prop_assert!((QUIET_UNTIL_HOUR..QUIET_FROM_HOUR).contains(&hour));
            prop_assert!(quiet_wait_secs(at) == 0);
            prop_assert!(quiet_wait_secs(t) <= 10 * 3600);
        }

        #[test]
        fn sending_when_the_cap_allows_keeps_the_cap(
            gaps in proptest::collection::vec(0i64..3 * DAY, 0..12),
            start in 0i64..1_000_000,
        ) {
            // Each message is sent at the first moment allowed after the wish to send it.
            let mut sent: Vec<i64> = Vec::new();
            let mut wish = start;
            for gap in gaps {
                wish += gap;
                let at = cap_allows_at(&sent, wish);
                prop_assert!(at >= wish);
                sent.push(at);
                wish = wish.max(at);
            }
            for &t in &sent {
                prop_assert!(sent.iter().filter(|&&s| s > t - DAY && s <= t).count() <= MAX_PER_DAY);
                prop_assert!(sent.iter().filter(|&&s| s > t - WEEK && s <= t).count() <= MAX_PER_WEEK);
            }
        }
    }
}
