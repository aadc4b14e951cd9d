//! Work that happens later, from the one job queue in the database (`server::jobs`): what kinds
//! of job there are, how often a failed one is tried again and when one is too old to be worth
//! running. The rules live here so they are tested without a database.

use serde::{Deserialize, Serialize};

/// A kind of job. The name is stored in `jobs.kind`; each kind has one handler on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum JobKind {
    /// "Confirm your address": a member who signed up and has not confirmed, reminded once
    /// after an hour and once after a day (`domain::lifecycle`).
    ConfirmReminder,
    /// Once a day: finds the members who crossed 7 or 30 days away and queues their win-back
    /// messages, then queues itself for the next day.
    LifecycleScan,
    /// "We miss you", to one member (`domain::lifecycle::LifecycleKind::WinBack`).
    WinBack,
    /// Every minute, on one node: payments whose webhook never came asked of the provider,
    /// open ones expired, receipts and refunds that did not go out sent (`server::payments`).
    /// A recurring job: each run sets its own next time.
    PaymentRecovery,
    /// "Your discount ends in N hours", to one new member: looked at from signup on, sent when
    /// true (`domain::lifecycle::discount_mail`).
    DiscountEnding,
    /// "You have unread messages", to one member for one day: the conversations still unread
    /// and unopened that no mail told of yet (`LifecycleKind::UnreadDigest`).
    UnreadDigest,
    /// "New likes and matches", to one member for one day: the likes still unseen that no mail
    /// told of yet (`LifecycleKind::LikesDigest`).
    LikesDigest,
    /// "Your credits run low", to a premium member whose balance fell to the badge's level
    /// (`LifecycleKind::LowBalance`).
    LowBalance,
    /// One postback to a traffic network (`server::postbacks`): retried with the queue's
    /// backoff while the network is down.
    Postback,
}

/// At most this many tries per job; after the last failure the job waits for staff, who see it
/// on `/staff/jobs` with its last error and can run it again.
pub const MAX_ATTEMPTS: u32 = 6;

/// A node holds a job it took for this long. A node that dies while running one lets go of it
/// when the lease ends and another node runs it again (at-least-once: every handler is
/// idempotent).
pub const LEASE_SECS: i64 = 300;

/// At most this many jobs are taken at once by one node.
pub const BATCH: u32 = 20;

impl JobKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<JobKind> {
        text.parse().ok()
    }

    /// How long after its due time a job still makes sense. A node that was down for longer
    /// drops it on catching up instead of sending something stale (a reminder a day late
    /// beside the next one, say).
    pub fn fresh_for_secs(self) -> i64 {
        match self {
            JobKind::ConfirmReminder => 12 * 3600,
            JobKind::WinBack => 24 * 3600,
            // Both look at the database as it is when they run: late, they are still right.
            JobKind::LifecycleScan | JobKind::PaymentRecovery => i64::MAX / 4,
            // It decides itself whether its message is still true (and drops it when not).
            JobKind::DiscountEnding => i64::MAX / 4,
            // They look again at what is unread, unseen or low when they run, and drop
            // themselves when nothing is; a day late they are no longer news.
            JobKind::UnreadDigest | JobKind::LikesDigest | JobKind::LowBalance => 24 * 3600,
            // A conversion told late is still paid for: networks take postbacks for days.
            JobKind::Postback => 7 * 24 * 3600,
        }
    }
}

/// When the `attempt`-th failed try (1 for the first) is tried again, in seconds after it
/// failed: 1 min, 5 min, 25 min, … at most 6 hours.
pub fn retry_after_secs(attempt: u32) -> i64 {
    const FIRST: i64 = 60;
    const MOST: i64 = 6 * 3600;
    let mut wait = FIRST;
    for _ in 1..attempt.max(1) {
        wait = wait.saturating_mul(5);
        if wait >= MOST {
            return MOST;
        }
    }
    wait.min(MOST)
}

/// What becomes of a job that failed its `attempt`-th try at `now`: tried again at a later time,
/// or left for staff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    RetryAt(i64),
    GiveUp,
}

pub fn after_failure(attempt: u32, now: i64) -> AfterFailure {
    if attempt >= MAX_ATTEMPTS {
        AfterFailure::GiveUp
    } else {
        AfterFailure::RetryAt(now + retry_after_secs(attempt))
    }
}

/// Whether a job due at `due_at` is still worth running at `now`.
pub fn is_fresh(kind: JobKind, due_at: i64, now: i64) -> bool {
    now - due_at <= kind.fresh_for_secs()
}

/// A job's state (`jobs.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum JobStatus {
    /// Waiting for its due time (or a node is running it under a lease).
    Queued,
    /// Ran to the end.
    Done,
    /// Not run: no longer true or no longer useful when its time came (the reason is kept).
    Dropped,
    /// Failed every try; waits for staff.
    Failed,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<JobStatus> {
        text.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use strum::IntoEnumIterator;

    #[test]
    fn names_round_trip() {
        for kind in JobKind::iter() {
            assert_eq!(JobKind::parse(kind.as_str()), Some(kind));
        }
        for status in JobStatus::iter() {
            assert_eq!(JobStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(JobKind::ConfirmReminder.as_str(), "confirm_reminder");
        assert_eq!(JobKind::parse("nope"), None);
    }

    #[test]
    fn retries_wait_longer_each_time() {
        assert_eq!(retry_after_secs(1), 60);
        assert_eq!(retry_after_secs(2), 300);
        assert_eq!(retry_after_secs(3), 1500);
        assert_eq!(retry_after_secs(100), 6 * 3600);
        assert_eq!(after_failure(MAX_ATTEMPTS, 10), AfterFailure::GiveUp);
        assert_eq!(after_failure(1, 10), AfterFailure::RetryAt(70));
    }

    proptest! {
        #[test]
        fn the_wait_never_shrinks_and_stays_within_bounds(attempt in 0u32..1000) {
            let wait = retry_after_secs(attempt);
            prop_assert!((60..=6 * 3600).contains(&wait));
            prop_assert!(retry_after_secs(attempt + 1) >= wait);
        }

        #[test]
        fn a_job_is_fresh_until_its_window_ends(due in 0i64..1_000_000_000, late in 0i64..200_000) {
            let kind = JobKind::ConfirmReminder;
            prop_assert_eq!(is_fresh(kind, due, due + late), late <= kind.fresh_for_secs());
        }

        #[test]
        fn a_retry_is_always_later_than_the_failure(attempt in 1u32..MAX_ATTEMPTS, now in 0i64..2_000_000_000) {
            match after_failure(attempt, now) {
                AfterFailure::RetryAt(at) => prop_assert!(at > now),
                AfterFailure::GiveUp => prop_assert!(false, "gave up before the last try"),
            }
        }
    }
}
