//! The chat panel (`ChatPanel`): its props, texts and the actions it reports.

use serde::{Deserialize, Serialize};

use super::Counted;

/// The other member of a conversation, as the chat list and the in-chat top bar show them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatPeer {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub name: String,
    /// None when the profile keeps its age to itself.
    pub age: Option<i32>,
    pub place: String,
    /// Thumbnail address, or none (the initial shows).
    pub photo: Option<String>,
    /// An operator-run profile: the site's fictional mark shows beside the name.
    pub fictional: bool,
    /// The profile page.
    pub href: String,
}

/// One conversation in the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatSummary {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub peer: ChatPeer,
    /// The last message as one short line (a gift or photo shows its label).
    pub last: String,
    /// When the last message was sent (unix seconds); 0 for none.
    #[cfg_attr(test, ts(type = "number"))]
    pub last_at: i64,
    /// Whether the last message is the member's own.
    pub last_mine: bool,
    #[cfg_attr(test, ts(type = "number"))]
    pub unread: i64,
    /// The conversation's page (`/chats/{id}`).
    pub href: String,
}

/// One stored message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatMessage {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    #[cfg_attr(test, ts(type = "number"))]
    pub conversation: i64,
    /// Sent by the member who looks at it.
    pub mine: bool,
    pub kind: crate::chat::MessageKind,
    /// The text (empty for photos and gifts).
    pub body: String,
    /// The photo's address (photo messages), None where its viewer may not see it (waiting
    /// hidden, or turned down, for its recipient).
    pub photo: Option<String>,
    /// Where a photo stands in staff's review, if it was queued (`domain::moderation`).
    #[serde(default)]
    pub photo_review: Option<crate::moderation::PhotoReview>,
    pub gift: Option<crate::chat::Gift>,
    /// Unix seconds.
    #[cfg_attr(test, ts(type = "number"))]
    pub at: i64,
    /// The id the sender's client made (matches a pending send to its stored message).
    pub client_id: String,
    /// Not delivered yet: held until the recipient (or the sender) confirms their email
    /// address, or until staff review it.
    pub waiting: bool,
}

/// A send the member made that is not stored yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PendingMessage {
    pub client_id: String,
    pub kind: crate::chat::MessageKind,
    pub body: String,
    pub gift: Option<crate::chat::Gift>,
    /// A local preview address for a photo being sent (an object URL).
    pub photo: Option<String>,
    /// The send failed; the widget offers to retry.
    pub failed: bool,
}

/// The conversation on screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OpenChat {
    /// None before the first message (`/members/{id}/chat`).
    #[cfg_attr(test, ts(type = "number | null"))]
    pub id: Option<i64>,
    pub peer: ChatPeer,
    /// Oldest first.
    pub messages: Vec<ChatMessage>,
    /// Older messages can be loaded (a page at a time).
    pub has_older: bool,
    pub loading_older: bool,
    pub pending: Vec<PendingMessage>,
    /// The peer's client received the member's messages up to this id.
    #[cfg_attr(test, ts(type = "number"))]
    pub delivered_up_to: i64,
    /// The peer read the member's messages up to this id.
    #[cfg_attr(test, ts(type = "number"))]
    pub read_up_to: i64,
    pub peer_typing: bool,
    /// The peer has not confirmed their email address yet: messages wait.
    pub peer_unconfirmed: bool,
    /// The peer blocked the member: the footer is replaced by the blocked text.
    pub blocked: bool,
}

/// The socket's state, for the reconnecting / offline bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Connection {
    Connecting,
    Online,
    Reconnecting,
    Offline,
}

/// A refusal shown above the footer, with an optional link (buy credits, premium).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatAlert {
    /// The error's public code (`insufficient_credits`, `premium_only`, `blocked_by_member`, …).
    pub code: String,
    pub text: String,
    pub link: Option<ChatLink>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatLink {
    pub href: String,
    pub text: String,
}

/// A gift in the picker, with its translated name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GiftOption {
    pub gift: crate::chat::Gift,
    pub label: String,
}

/// A struct of texts (each field a `String` or a [`Counted`]) with a hand-written map reader.
/// Same JSON as the derived reader, but the browser's module holds one small visitor instead of
/// a derived state machine per struct (for the chat panel's 48 texts about 20 KB of wasm before
/// compression).
macro_rules! texts_struct {
    ($(#[$attr:meta])* pub struct $name:ident { $($(#[$field_attr:meta])* pub $field:ident: $ty:ty,)* }) => {
        $(#[$attr])*
        pub struct $name { $($(#[$field_attr])* pub $field: $ty,)* }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Texts;
                impl<'de> serde::de::Visitor<'de> for Texts {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("a map of texts")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<$name, A::Error> {
                        $(let mut $field: Option<$ty> = None;)*
                        while let Some(key) = map.next_key::<String>()? {
                            match key.as_str() {
                                $(stringify!($field) => $field = Some(map.next_value()?),)*
                                _ => {
                                    map.next_value::<serde::de::IgnoredAny>()?;
                                }
                            }
                        }
                        Ok($name { $($field: $field.ok_or_else(|| <A::Error as serde::de::Error>::missing_field(stringify!($field)))?,)* })
                    }
                }
                deserializer.deserialize_map(Texts)
            }
        }
    };
}

texts_struct! {
/// Texts of the chat panel, already translated by the page. `{…}` are placeholders.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatPanelLabels {
    /// Heading and accessible name of the conversation list.
    pub conversations: String,
    pub loading: String,
    pub empty_list: String,
    /// Link under the empty list (to search).
    pub find_members: String,
    /// An empty conversation, with `{name}`.
    pub empty_chat: String,
    pub back: String,
    pub view_profile: String,
    pub block: String,
    /// The link to the complaint form about this conversation.
    pub report: String,
    pub delete: String,
    /// Asked before deleting, with `{name}`.
    pub delete_confirm: String,
    pub cancel: String,
    /// The text box's label.
    pub message: String,
    pub placeholder: String,
    pub send: String,
    pub sending: String,
    pub failed: String,
    pub retry: String,
    pub photo: String,
    pub gift: String,
    pub gifts_title: String,
    pub icebreakers: String,
    pub icebreakers_title: String,
    pub close: String,
    /// Counted: what a text message costs.
    pub cost_message: Counted,
    /// Counted: what a photo costs.
    pub cost_photo: Counted,
    /// Counted: what a gift costs.
    pub cost_gift: Counted,
    /// Counted: the member's balance.
    pub balance: Counted,
    /// With `{count}`: free text messages left.
    pub free_left: String,
    /// Said before sending when the balance does not cover the next text message.
    pub balance_short: String,
    /// The link to buy credits.
    pub buy: String,
    /// With `{count}` and `{max}`: characters used.
    pub characters: String,
    pub load_older: String,
    /// With `{name}`.
    pub typing: String,
    pub delivered: String,
    pub read: String,
    pub waiting: String,
    /// The recipient has not confirmed their address, with `{name}`.
    pub peer_unconfirmed: String,
    pub blocked: String,
    pub reconnecting: String,
    pub offline: String,
    /// The fictional mark's accessible text (the site's `fictional_singular`).
    pub fictional: String,
    /// The site's fictional warning, shown in the header of such conversations (empty: none).
    pub fictional_warning: String,
    /// A gift message's text, with `{gift}`.
    pub gift_sent: String,
    pub photo_sent: String,
    /// Beside the member's own photo while staff review it.
    pub photo_in_review: String,
    /// In place of a photo staff review before its recipient sees it.
    pub photo_held: String,
    /// In place of (or, for its sender, beside) a photo staff turned down.
    pub photo_rejected: String,
    pub today: String,
    pub yesterday: String,
    /// Counted: unread messages in a conversation (accessible text of its pill).
    pub unread: Counted,
}
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChatPanelProps {
    /// None while the list loads.
    pub conversations: Option<Vec<ChatSummary>>,
    /// The conversation on screen; on phones the list shows when there is none.
    pub open: Option<OpenChat>,
    /// The site's `message_length`.
    #[cfg_attr(test, ts(type = "number"))]
    pub message_length: i64,
    #[cfg_attr(test, ts(type = "number"))]
    pub message_credits: i64,
    #[cfg_attr(test, ts(type = "number"))]
    pub photo_credits: i64,
    #[cfg_attr(test, ts(type = "number"))]
    pub gift_credits: i64,
    /// Free text messages the member has left.
    #[cfg_attr(test, ts(type = "number"))]
    pub free_messages: i64,
    /// The member's credits, after every send.
    #[cfg_attr(test, ts(type = "number"))]
    pub balance: i64,
    /// Where to buy credits (the bundles, or the repeat order for premium members).
    pub buy_href: String,
    pub gifts: Vec<GiftOption>,
    /// Opening lines in the member's language; choosing one fills the text box.
    pub icebreakers: Vec<String>,
    pub connection: Connection,
    pub alert: Option<ChatAlert>,
    /// The site's fictional icon (an image address; empty: a drawn mark).
    pub fictional_icon: String,
    /// Language for dates and times (BCP 47, e.g. "nl").
    pub locale: String,
    pub labels: ChatPanelLabels,
    /// Text typed before the panel took over (into the page's own form while the panel loaded,
    /// or a send that came back): the empty text box starts with it.
    #[serde(default)]
    pub draft: String,
    /// The gift picker opens as the panel shows (the chat reached through a profile's gift
    /// button, `?gift=1`).
    #[serde(default)]
    pub gift_picker: bool,
}

/// Detail of the `vonk:chat` event: what the member did in the chat panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ChatAction {
    /// Open a conversation from the list.
    Open {
        #[cfg_attr(test, ts(type = "number"))]
        conversation: i64,
    },
    /// Back to the list (phones).
    Back,
    Send {
        client_id: String,
        text: String,
    },
    SendGift {
        client_id: String,
        gift: crate::chat::Gift,
    },
    /// A photo was chosen; the event's `file` field (not JSON) holds the `File`.
    SendPhoto {
        client_id: String,
    },
    /// Send a failed message again with the same client id.
    Retry {
        client_id: String,
    },
    /// Drop a failed message.
    Discard {
        client_id: String,
    },
    LoadOlder {
        #[cfg_attr(test, ts(type = "number"))]
        before: i64,
    },
    Delete {
        #[cfg_attr(test, ts(type = "number"))]
        conversation: i64,
    },
    Block {
        #[cfg_attr(test, ts(type = "number"))]
        member: i64,
    },
    /// A keystroke in the text box (the host throttles what it sends on).
    Typing,
    /// The member saw the newest message (the conversation is on screen and focused).
    Seen {
        #[cfg_attr(test, ts(type = "number"))]
        up_to: i64,
    },
    DismissAlert,
}

/// Name of the DOM event the chat panel dispatches.
pub const CHAT_EVENT: &str = "vonk:chat";
