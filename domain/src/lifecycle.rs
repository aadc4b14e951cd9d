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
    /// "Your discount ends in N hours": the last hours of a new member's offer, when nothing as
    /// good follows it.
    DiscountEnding,
    /// The conversations with unread messages the member has not opened and no mail told of
    /// (a push may have), [`DIGEST_AFTER_SECS`] after the first of them arrived.
    UnreadDigest,
    /// Likes and matches not yet seen that no mail told of, [`DIGEST_AFTER_SECS`] after the
    /// first of them.
    LikesDigest,
    /// A premium member's balance fell to [`LOW_BALANCE_CREDITS`] or less, and stayed there for
    /// [`LOW_BALANCE_AFTER_SECS`].
    LowBalance,
}

/// Which of the member's preferences (SPEC §4: messages, likes, "Tips en aanbiedingen") a
/// lifecycle kind obeys; `None` for the reminder to confirm the address, which is about the
/// account itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preference {
    Messages,
    Likes,
    News,
}

/// How a lifecycle message reaches the member: web push where the member allowed it, mail
/// otherwise (never both for one message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Channel {
    Push,
    Mail,
}

impl LifecycleKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The preference that must be on for this kind to go out.
    pub fn preference(self) -> Option<Preference> {
        match self {
            LifecycleKind::ConfirmReminder => None,
            LifecycleKind::UnreadDigest => Some(Preference::Messages),
            LifecycleKind::LikesDigest => Some(Preference::Likes),
            LifecycleKind::WinBack | LifecycleKind::DiscountEnding | LifecycleKind::LowBalance => Some(Preference::News),
        }
    }

    /// Whether a web push may carry this kind: all but the reminder to confirm the address,
    /// whose point is the mailbox.
    pub fn pushable(self) -> bool {
        self != LifecycleKind::ConfirmReminder
    }

    pub fn parse(text: &str) -> Option<LifecycleKind> {
        text.parse().ok()
    }
}

/// Pick the channel: push when the kind can go by push and the member has a browser that
/// takes pushes (its preference is checked before), mail otherwise.
pub fn channel(kind: LifecycleKind, push_subscriptions: i64) -> Channel {
    if kind.pushable() && push_subscriptions > 0 {
        Channel::Push
    } else {
        Channel::Mail
    }
}

/// A digest waits this long after the first thing it tells of: a member who comes by in the
/// meantime has seen it, and the digest drops itself (the default of a site's
/// `digest_after_hours`).
pub const DIGEST_AFTER_SECS: i64 = 6 * 3600;

/// A premium member's balance at or under this many credits is low (SPEC §3: the top bar's
/// credits badge shows at 10 or less).
pub const LOW_BALANCE_CREDITS: i64 = crate::constants::CREDITS_BADGE_THRESHOLD;
/// The low-balance message waits this long after the balance fell: a member buying at once
/// needs no reminder (the default of `low_balance_after_hours`).
pub const LOW_BALANCE_AFTER_SECS: i64 = 2 * 3600;

/// Whether a send from `before` to `after` credits takes a premium member's balance low (once
/// per fall: a balance already low falls no further in this sense).
pub fn falls_low(before: i64, after: i64) -> bool {
    before > LOW_BALANCE_CREDITS && after <= LOW_BALANCE_CREDITS
}

/// The confirm reminders' delays after signup: one hour, then one day (the defaults of
/// `confirm_first_hours` and `confirm_second_hours`).
pub const CONFIRM_REMINDERS_AFTER_SECS: [i64; 2] = [3600, 24 * 3600];

/// Days away after which a member is asked back, the last time with the leaving discount (the
/// defaults of `win_back_first_days` and `win_back_second_days`).
pub const WIN_BACK_AFTER_DAYS: [i64; 2] = [7, 30];

/// The "your discount ends" mail goes out this long before the offer ends (the default of
/// `discount_notice_hours`) …
pub const DISCOUNT_NOTICE_SECS: i64 = 6 * 3600;
/// … and not when less than this is left (the member's night or the cap held it too long).
pub const DISCOUNT_LATEST_SECS: i64 = 3600;
/// An offer gets the mail only when it ran this long before the mail would go: a short offer's
/// end is already on the banner and the credits page the member has just seen.
pub const DISCOUNT_RUNS_FIRST_SECS: i64 = 12 * 3600;

/// When each lifecycle kind goes, as a site sets it (`staff::LifecycleSettings`); a site
/// without a value (0: a row from before these settings) gets the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub confirm_reminders_after_secs: [i64; 2],
    pub win_back_after_days: [i64; 2],
    pub discount_notice_secs: i64,
    pub digest_after_secs: i64,
    pub low_balance_after_secs: i64,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            confirm_reminders_after_secs: CONFIRM_REMINDERS_AFTER_SECS,
            win_back_after_days: WIN_BACK_AFTER_DAYS,
            discount_notice_secs: DISCOUNT_NOTICE_SECS,
            digest_after_secs: DIGEST_AFTER_SECS,
            low_balance_after_secs: LOW_BALANCE_AFTER_SECS,
        }
    }
}

impl Timing {
    /// The timing a site's settings give ([`crate::site::SiteSettings::lifecycle_timing`]).
    pub fn of(site: &crate::staff::LifecycleSettings) -> Timing {
        let d = Timing::default();
        let or = |value: i64, unit: i64, default: i64| if value > 0 { value * unit } else { default };
        let first_hours = or(site.confirm_first_hours, 3600, d.confirm_reminders_after_secs[0]);
        let first_days = or(site.win_back_first_days, 1, d.win_back_after_days[0]);
        Timing {
            // A later reminder before the first (settings are checked; old rows are not) goes
            // an hour after it.
            confirm_reminders_after_secs: [first_hours, or(site.confirm_second_hours, 3600, d.confirm_reminders_after_secs[1]).max(first_hours + 3600)],
            win_back_after_days: [first_days, or(site.win_back_second_days, 1, d.win_back_after_days[1]).max(first_days + 1)],
            discount_notice_secs: or(site.discount_notice_hours, 3600, d.discount_notice_secs),
            digest_after_secs: or(site.digest_after_hours, 3600, d.digest_after_secs),
            low_balance_after_secs: or(site.low_balance_after_hours, 3600, d.low_balance_after_secs),
        }
    }
}

/// What to do about the "your discount ends" mail of a member who signed up at `signup`, whose
/// offers at `now` are `offers` (`crate::offers::offers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiscountMail {
    /// Send it now: this percentage ends at this time.
    Send { percent: i64, ends_at: i64 },
    /// Look again at this time (the notice time, or when the next offer begins).
    At(i64),
    /// Not for this member (no offer, one as good follows, too short, too late).
    Never,
}

/// When "your discount ends in N hours" is true and worth saying: for the offer now, when
/// nothing as good follows it, it ran long enough, and at least an hour of it is left. The mail
/// goes `notice_secs` before the end ([`Timing::discount_notice_secs`]).
pub fn discount_mail(offers: &crate::offers::Offers, signup: i64, now: i64, notice_secs: i64) -> DiscountMail {
    let Some(phase) = offers.now else { return DiscountMail::Never };
    let later = || if offers.next.is_some() && phase.ends_at > now { DiscountMail::At(phase.ends_at) } else { DiscountMail::Never };
    let notice = phase.ends_at - notice_secs;
    if !offers.only_now() || notice - signup < DISCOUNT_RUNS_FIRST_SECS {
        return later();
    }
    if now < notice {
        DiscountMail::At(notice)
    } else if phase.ends_at - now >= DISCOUNT_LATEST_SECS {
        DiscountMail::Send { percent: phase.percent, ends_at: phase.ends_at }
    } else {
        later()
    }
}

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

    fn rules(bonus: (i64, i64), welcome: (i64, i64)) -> crate::offers::OfferRules {
        crate::offers::OfferRules { time_bonus_percent: bonus.0, time_bonus_hours: bonus.1, welcome_percent: welcome.0, welcome_hours: welcome.1 }
    }

    #[test]
    fn the_discount_mail_comes_six_hours_before_a_long_offer_ends() {
        let signup = 1_000_000;
        let r = rules((0, 0), (25, 48));
        let at = |now: i64| discount_mail(&crate::offers::offers(&r, signup, now, false, |_| false), signup, now, DISCOUNT_NOTICE_SECS);
        assert_eq!(at(signup), DiscountMail::At(signup + 42 * 3600));
        assert_eq!(at(signup + 42 * 3600), DiscountMail::Send { percent: 25, ends_at: signup + 48 * 3600 });
        assert_eq!(at(signup + 47 * 3600 + 1), DiscountMail::Never, "less than an hour left");
        assert_eq!(at(signup + 49 * 3600), DiscountMail::Never, "over");
        // Bought before: no offer, no mail.
        assert_eq!(discount_mail(&crate::offers::offers(&r, signup, signup, true, |_| false), signup, signup, DISCOUNT_NOTICE_SECS), DiscountMail::Never);
        // A four-hour time bonus gets none (the banner says it); the welcome discount after it does.
        let r = rules((30, 4), (20, 48));
        let at = |now: i64| discount_mail(&crate::offers::offers(&r, signup, now, false, |_| false), signup, now, DISCOUNT_NOTICE_SECS);
        assert_eq!(at(signup), DiscountMail::At(signup + 4 * 3600));
        assert_eq!(at(signup + 4 * 3600), DiscountMail::At(signup + 42 * 3600));
    }

    proptest! {
        #[test]
        fn the_discount_mail_only_says_what_is_true(
            bonus in (0i64..60, 0i64..30),
            welcome in (0i64..60, 0i64..200),
            after in 0i64..300 * 3600,
            notice_hours in 1i64..48,
        ) {
            let r = rules(bonus, welcome);
            prop_assume!(crate::offers::check_rules(&r).is_ok());
            let signup = 1_000_000;
            let now = signup + after;
            let offers = crate::offers::offers(&r, signup, now, false, |_| false);
            let notice_secs = notice_hours * 3600;
            match discount_mail(&offers, signup, now, notice_secs) {
                DiscountMail::Send { percent, ends_at } => {
                    let phase = offers.now.unwrap();
                    prop_assert_eq!((percent, ends_at), (phase.percent, phase.ends_at));
                    prop_assert!(offers.only_now(), "nothing as good follows");
                    prop_assert!(ends_at - now <= notice_secs && ends_at - now >= DISCOUNT_LATEST_SECS);
                    prop_assert!(ends_at - notice_secs - signup >= DISCOUNT_RUNS_FIRST_SECS, "a short offer gets no mail");
                }
                DiscountMail::At(t) => prop_assert!(t > now),
                DiscountMail::Never => {}
            }
        }
    }

    #[test]
    fn a_site_sets_when_each_kind_goes() {
        let settings = crate::staff::LifecycleSettings {
            confirm_reminders: true,
            confirm_first_hours: 2,
            confirm_second_hours: 48,
            win_back: true,
            win_back_first_days: 3,
            win_back_second_days: 14,
            discount_ending: true,
            discount_notice_hours: 12,
            unread_digest: true,
            likes_digest: true,
            digest_after_hours: 3,
            low_balance: true,
            low_balance_after_hours: 1,
            sign_in_link_hours: 48,
        };
        let t = Timing::of(&settings);
        assert_eq!(t.confirm_reminders_after_secs, [2 * 3600, 48 * 3600]);
        assert_eq!(t.win_back_after_days, [3, 14]);
        assert_eq!((t.discount_notice_secs, t.digest_after_secs, t.low_balance_after_secs), (12 * 3600, 3 * 3600, 3600));
        assert!(settings.clone().validate().is_ok());
        // A row from before the settings (zeros) gets the defaults.
        let old = crate::staff::LifecycleSettings {
            confirm_first_hours: 0,
            confirm_second_hours: 0,
            win_back_first_days: 0,
            win_back_second_days: 0,
            discount_notice_hours: 0,
            digest_after_hours: 0,
            low_balance_after_hours: 0,
            ..settings.clone()
        };
        assert_eq!(Timing::of(&old), Timing::default());
        // The second reminder and the second win-back come after the first, or the form says no.
        let reversed = crate::staff::LifecycleSettings { confirm_first_hours: 12, confirm_second_hours: 6, ..settings.clone() };
        let error = reversed.validate().unwrap_err();
        assert_eq!(error.args["setting"], "confirm_second_hours");
        assert_eq!(error.args["min"], "13");
        let reversed = crate::staff::LifecycleSettings { win_back_first_days: 14, win_back_second_days: 14, ..settings };
        assert_eq!(reversed.validate().unwrap_err().args["setting"], "win_back_second_days");
    }

    #[test]
    fn the_notice_time_is_the_sites() {
        let signup = 1_000_000;
        let r = rules((0, 0), (25, 72));
        let at = |now: i64| discount_mail(&crate::offers::offers(&r, signup, now, false, |_| false), signup, now, 24 * 3600);
        assert_eq!(at(signup), DiscountMail::At(signup + 48 * 3600));
        assert_eq!(at(signup + 48 * 3600), DiscountMail::Send { percent: 25, ends_at: signup + 72 * 3600 });
        // A notice as long as the offer would come at signup: none.
        let at = |now: i64| discount_mail(&crate::offers::offers(&r, signup, now, false, |_| false), signup, now, 66 * 3600);
        assert_eq!(at(signup), DiscountMail::Never);
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
    fn each_kind_obeys_its_preference_and_channel() {
        assert_eq!(LifecycleKind::ConfirmReminder.preference(), None);
        assert_eq!(LifecycleKind::UnreadDigest.preference(), Some(Preference::Messages));
        assert_eq!(LifecycleKind::LikesDigest.preference(), Some(Preference::Likes));
        for kind in [LifecycleKind::WinBack, LifecycleKind::DiscountEnding, LifecycleKind::LowBalance] {
            assert_eq!(kind.preference(), Some(Preference::News));
        }
        assert_eq!(channel(LifecycleKind::ConfirmReminder, 3), Channel::Mail, "the address reminder is a mail");
        assert_eq!(channel(LifecycleKind::UnreadDigest, 1), Channel::Push);
        assert_eq!(channel(LifecycleKind::UnreadDigest, 0), Channel::Mail);
    }

    #[test]
    fn a_balance_falls_low_once() {
        assert!(falls_low(12, 10));
        assert!(falls_low(LOW_BALANCE_CREDITS + 1, 0));
        assert!(!falls_low(10, 8), "already low");
        assert!(!falls_low(30, 11));
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
