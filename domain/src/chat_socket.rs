//! What the chat socket (`/ws`) pushes to a member's tab. Apart from `chat` (the rules of
//! messages) because it carries the widgets' message type, which itself uses `chat`'s kinds.

use serde::{Deserialize, Serialize};

use crate::widgets::ChatMessage;

/// What the chat socket (`/ws`) pushes to a member's tab, as JSON tagged by `type`. Sending
/// stays a server function; the socket only pushes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Push {
    /// A message to or from the member (also the member's own, sent from another tab).
    Message { message: ChatMessage },
    /// The peer's client received the member's messages up to `up_to`.
    Delivered { conversation: i64, up_to: i64 },
    /// The peer read the member's messages up to `up_to`.
    Read { conversation: i64, up_to: i64 },
    /// The peer is typing (expires after [`crate::chat::TYPING_EXPIRY_SECS`]).
    Typing { conversation: i64 },
    /// The conversation left the member's list (deleted in another tab, or a block).
    Removed { conversation: i64 },
    /// The member's unread total; also the first frame on every socket, once it listens.
    Unread { total: i64 },
    /// The member's credit balance changed outside the chat (a purchase booked, a payment
    /// reversed): the footer shows it at once.
    Balance { credits: i64 },
    /// Too much happened while away: read the list and the open conversation again.
    Resync,
}
