//! The member's counters (SPEC §2, §4): new likes, unread notifications and unread messages.
//! They are read with the member's own row (one query per request, see
//! [`crate::accounts::Member`]) and answered by `/api/counts`; the display rules live in
//! `domain::counters`.

use crate::visibility::sees;

/// The counter columns of the member's row (`u` is the member's `users` row), named as
/// `domain::counters::Counters` reads them.
pub(crate) const COLUMNS: &str = concat!(
    "(SELECT COUNT(*) FROM likes l WHERE l.liked_id = u.id AND l.seen = FALSE AND ",
    sees!("u.id", "l.liker_id"),
    ") AS new_likes, (SELECT COUNT(*) FROM notifications n WHERE n.user_id = u.id AND n.read_at IS NULL AND ",
    crate::notifications::visible_notifications!("u.id"),
    ") AS unread_notifications, CAST(COALESCE((SELECT SUM(cm.unread) FROM chat_members cm WHERE cm.user_id = u.id), 0) AS BIGINT) AS unread_messages"
);
