//! Who may see whom: the one home of the rule, as SQL fragments every query shares.
//!
//! A member is visible to another when their profile is `searchable` — which folds together
//! everything that hides a member (profile not active, invisible, account unconfirmed, blocked by
//! staff or deleted, basics missing; kept by [`crate::members::search::refresh_searchable`]) —
//! when both are on the same site, and when neither has blocked the other.

/// Neither `a` nor `b` (SQL expressions for member ids) has blocked the other.
macro_rules! not_blocked {
    ($a:expr, $b:expr) => {
        concat!(
            "NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ",
            $a,
            " AND b.blocked_id = ",
            $b,
            ") OR (b.blocker_id = ",
            $b,
            " AND b.blocked_id = ",
            $a,
            "))"
        )
    };
}
pub(crate) use not_blocked;

/// The member `$me` can see the member `$other`: a visible profile, not blocked either way.
/// (Same-site is the caller's filter: its queries already bind the site.)
macro_rules! sees {
    ($me:expr, $other:expr) => {
        concat!(
            "EXISTS (SELECT 1 FROM profiles vp WHERE vp.user_id = ",
            $other,
            " AND vp.searchable = TRUE) AND ",
            $crate::visibility::not_blocked!($me, $other)
        )
    };
}
pub(crate) use sees;

/// For queries over profiles `p` with the viewer bound as `$1` (0 for visitors): not blocked
/// either way. The query itself filters `p.searchable` and the site, so that its index applies.
pub(crate) const NOT_BLOCKED: &str = not_blocked!("$1", "p.user_id");

/// Whether `$1` blocked `$2` and whether `$2` blocked `$1`, as two counts (`blocked_by_me`,
/// `blocked_me`): the one place that needs the direction ('user blocked by another member').
pub(crate) const BLOCK_DIRECTIONS: &str = "(SELECT COUNT(*) FROM blocks b WHERE b.blocker_id = $1 AND b.blocked_id = $2) AS blocked_by_me, \
     (SELECT COUNT(*) FROM blocks b WHERE b.blocker_id = $2 AND b.blocked_id = $1) AS blocked_me";

#[cfg(test)]
mod tests {
    #[test]
    fn fragments_read_both_ways() {
        assert_eq!(
            super::NOT_BLOCKED,
            "NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = $1 AND b.blocked_id = p.user_id) OR (b.blocker_id = p.user_id AND b.blocked_id = $1))"
        );
        assert!(
            sees!("u.id", "l.liker_id").starts_with("EXISTS (SELECT 1 FROM profiles vp WHERE vp.user_id = l.liker_id AND vp.searchable = TRUE) AND NOT EXISTS")
        );
    }
}
