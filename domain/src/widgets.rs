//! Props and events of the React widgets. Written once here; TypeScript types are generated
//! from these (`make types`) into `react-widgets/src/generated/`, and a test fails when those
//! files are stale.

use serde::{Deserialize, Serialize};

use crate::payment::{PaymentGroup, PaymentMethod};

/// One block in the payment-method picker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodOption {
    pub method: PaymentMethod,
    pub group: PaymentGroup,
    /// Display name, already translated where the method is generic.
    pub label: String,
}

/// Texts the payment-method picker shows, already translated by the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodBlocksLabels {
    /// Accessible name of the whole picker.
    pub title: String,
    pub group_card: String,
    pub group_wallet: String,
    pub group_bank: String,
    pub group_voucher: String,
    /// Shown when the list is empty.
    pub empty: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodBlocksProps {
    /// Methods in display order, already filtered for the visitor's country.
    pub methods: Vec<PaymentMethodOption>,
    pub selected: Option<PaymentMethod>,
    pub labels: PaymentMethodBlocksLabels,
}

/// Detail of the `vonk:payment-method-select` event the widget dispatches on its mount element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaymentMethodSelected {
    pub method: PaymentMethod,
}

/// Name of the DOM event for a payment-method choice.
pub const PAYMENT_METHOD_SELECT_EVENT: &str = "vonk:payment-method-select";

/// One profile in the swipe game's stack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeCard {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub place: String,
    /// Photo address, or none (the card shows the initial).
    pub photo: Option<String>,
    /// The profile page.
    pub href: String,
}

/// Texts of the swipe game, already translated by the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeGameLabels {
    /// Accessible name of the card stack.
    pub title: String,
    pub like: String,
    pub pass: String,
    pub view_profile: String,
    /// How to play with the keyboard.
    pub keys: String,
    /// With `{count}`: likes left today.
    pub remaining: String,
    /// The 'come back' state's heading.
    pub used_up: String,
    /// With `{time}` (hours and minutes): when the next like is possible.
    pub come_back: String,
    /// No more profiles to show.
    pub empty: String,
    pub search: String,
    /// The match overlay ('New like!') and its one button.
    pub match_title: String,
    /// With `{name}`.
    pub match_body: String,
    pub match_close: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeGameProps {
    pub cards: Vec<SwipeCard>,
    /// Likes left today; `None` without a limit (premium).
    pub remaining: Option<u32>,
    /// Once none remain: when the next like is possible (unix seconds).
    #[cfg_attr(test, ts(type = "number | null"))]
    pub next_at: Option<i64>,
    /// The profile just matched, for the match overlay.
    pub matched: Option<SwipeCard>,
    pub labels: SwipeGameLabels,
}

/// Detail of the `vonk:swipe` event: a like (right) or a pass (left) on one card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SwipeDecision {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub like: bool,
}

/// Name of the DOM event for a swipe.
pub const SWIPE_EVENT: &str = "vonk:swipe";

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
    /// The photo's address (photo messages).
    pub photo: Option<String>,
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

/// A struct of texts (every field a `String`) whose reader takes a map of texts and picks its
/// fields from it. Same JSON as the derived reader, but the browser's module holds one map
/// reader for all fields instead of a derived state machine per struct (for the chat panel's
/// 48 texts about 20 KB of wasm before compression).
macro_rules! texts_struct {
    ($(#[$attr:meta])* pub struct $name:ident { $($(#[$field_attr:meta])* pub $field:ident: String,)* }) => {
        $(#[$attr])*
        pub struct $name { $($(#[$field_attr])* pub $field: String,)* }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let mut texts = std::collections::BTreeMap::<String, String>::deserialize(deserializer)?;
                let mut take = |field: &'static str| texts.remove(field).ok_or_else(|| <D::Error as serde::de::Error>::missing_field(field));
                Ok(Self { $($field: take(stringify!($field))?,)* })
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
    /// With `{count}`: what a text message costs.
    pub cost_message: String,
    /// With `{count}`.
    pub cost_photo: String,
    /// With `{count}`.
    pub cost_gift: String,
    /// With `{count}`: the member's balance.
    pub balance: String,
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
    pub today: String,
    pub yesterday: String,
    /// With `{count}`: unread messages in a conversation (accessible text of its pill).
    pub unread: String,
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

/// One member shown on a lander.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderProfile {
    #[cfg_attr(test, ts(type = "number"))]
    pub id: i64,
    pub name: String,
    pub age: i32,
    pub place: String,
    /// Photo address (a thumbnail), or none (the tile shows the initial).
    pub photo: Option<String>,
    /// The same photo larger, for the designs that show one member big.
    pub large: Option<String>,
    pub online: bool,
    /// Where the tile leads: signup about this member.
    pub href: String,
}

/// The looping clip of the video landers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderClip {
    pub src: String,
    pub poster: Option<String>,
}

/// Texts of the landers, already translated by the page (`headline` and `intro` per design).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderLabels {
    pub headline: String,
    pub intro: String,
    pub cta: String,
    pub have_account: String,
    pub login: String,
    pub free: String,
    pub online: String,
    /// "{count} leden nu online"
    pub members_online: String,
    pub nearby: String,
    pub live: String,
    pub live_now: String,
    /// "{count} kijken mee"
    pub watching: String,
    /// "{name} vindt jou leuk!"
    pub liked_you: String,
    pub view_profile: String,
    pub close: String,
    pub point_discreet: String,
    pub point_discreet_body: String,
    pub point_match: String,
    pub point_match_body: String,
    pub point_chat: String,
    pub point_chat_body: String,
    pub react_like: String,
    pub react_message: String,
    pub swipe_stack: String,
    pub swipe_like: String,
    pub swipe_pass: String,
    pub swipe_done: String,
}

/// Props of every lander widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LanderProps {
    pub profiles: Vec<LanderProfile>,
    /// The member of `/members/{id}/landing2|3`.
    pub featured: Option<LanderProfile>,
    pub clip: Option<LanderClip>,
    /// Members of the site seen in the last quarter of an hour.
    pub online_count: u32,
    pub signup_href: String,
    pub login_href: String,
    /// `?t=N`: the like popup after N seconds.
    pub like_after: Option<u32>,
    pub labels: LanderLabels,
}

#[cfg(test)]
mod tests {
    //! Keeps `react-widgets/src/generated/` in step with these types.
    //! `UPDATE_TS_TYPES=1 cargo test -p domain generated_types` rewrites the files.
    use super::*;
    use crate::locale::Locale;
    use ts_rs::TS;

    #[test]
    fn chat_texts_read_back_as_written_and_a_missing_one_is_refused() {
        let mut json = serde_json::Map::new();
        // Every field of the struct (from its TypeScript declaration, comments left out), each with its own text.
        let mut decl = ChatPanelLabels::decl(&ts_rs::Config::default());
        while let Some(start) = decl.find("/*") {
            let end = decl[start..].find("*/").map_or(decl.len(), |e| start + e + 2);
            decl.replace_range(start..end, "");
        }
        let body = &decl[decl.find('{').unwrap() + 1..decl.rfind('}').unwrap()];
        for field in body.split([',', ';']).filter_map(|f| f.trim().split_once(':')).map(|(name, _)| name.trim().to_string()) {
            json.insert(field.clone(), serde_json::Value::String(format!("<b>{field}</b> {{n}}")));
        }
        assert_eq!(json.len(), 48);
        let labels: ChatPanelLabels = serde_json::from_value(serde_json::Value::Object(json.clone())).unwrap();
        assert_eq!(labels.today, "<b>today</b> {n}");
        assert_eq!(serde_json::to_value(&labels).unwrap(), serde_json::Value::Object(json.clone()));
        json.remove("unread");
        let refused = serde_json::from_value::<ChatPanelLabels>(serde_json::Value::Object(json)).unwrap_err();
        assert!(refused.to_string().contains("missing field `unread`"), "{refused}");
    }

    fn generated() -> Vec<(String, String)> {
        let cfg = ts_rs::Config::default();
        vec![
            (PaymentMethod::name(&cfg), PaymentMethod::export_to_string(&cfg).unwrap()),
            (PaymentGroup::name(&cfg), PaymentGroup::export_to_string(&cfg).unwrap()),
            (PaymentMethodOption::name(&cfg), PaymentMethodOption::export_to_string(&cfg).unwrap()),
            (PaymentMethodBlocksLabels::name(&cfg), PaymentMethodBlocksLabels::export_to_string(&cfg).unwrap()),
            (PaymentMethodBlocksProps::name(&cfg), PaymentMethodBlocksProps::export_to_string(&cfg).unwrap()),
            (PaymentMethodSelected::name(&cfg), PaymentMethodSelected::export_to_string(&cfg).unwrap()),
            (Locale::name(&cfg), Locale::export_to_string(&cfg).unwrap()),
            (SwipeCard::name(&cfg), SwipeCard::export_to_string(&cfg).unwrap()),
            (SwipeGameLabels::name(&cfg), SwipeGameLabels::export_to_string(&cfg).unwrap()),
            (SwipeGameProps::name(&cfg), SwipeGameProps::export_to_string(&cfg).unwrap()),
            (SwipeDecision::name(&cfg), SwipeDecision::export_to_string(&cfg).unwrap()),
            (crate::chat::MessageKind::name(&cfg), crate::chat::MessageKind::export_to_string(&cfg).unwrap()),
            (crate::chat::Gift::name(&cfg), crate::chat::Gift::export_to_string(&cfg).unwrap()),
            (ChatPeer::name(&cfg), ChatPeer::export_to_string(&cfg).unwrap()),
            (ChatSummary::name(&cfg), ChatSummary::export_to_string(&cfg).unwrap()),
            (ChatMessage::name(&cfg), ChatMessage::export_to_string(&cfg).unwrap()),
            (PendingMessage::name(&cfg), PendingMessage::export_to_string(&cfg).unwrap()),
            (OpenChat::name(&cfg), OpenChat::export_to_string(&cfg).unwrap()),
            (Connection::name(&cfg), Connection::export_to_string(&cfg).unwrap()),
            (ChatAlert::name(&cfg), ChatAlert::export_to_string(&cfg).unwrap()),
            (ChatLink::name(&cfg), ChatLink::export_to_string(&cfg).unwrap()),
            (GiftOption::name(&cfg), GiftOption::export_to_string(&cfg).unwrap()),
            (ChatPanelLabels::name(&cfg), ChatPanelLabels::export_to_string(&cfg).unwrap()),
            (ChatPanelProps::name(&cfg), ChatPanelProps::export_to_string(&cfg).unwrap()),
            (ChatAction::name(&cfg), ChatAction::export_to_string(&cfg).unwrap()),
            (LanderProfile::name(&cfg), LanderProfile::export_to_string(&cfg).unwrap()),
            (LanderClip::name(&cfg), LanderClip::export_to_string(&cfg).unwrap()),
            (LanderLabels::name(&cfg), LanderLabels::export_to_string(&cfg).unwrap()),
            (LanderProps::name(&cfg), LanderProps::export_to_string(&cfg).unwrap()),
        ]
    }

    #[test]
    fn generated_types_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../react-widgets/src/generated");
        let update = std::env::var("UPDATE_TS_TYPES").is_ok();
        let mut stale = Vec::new();
        for (name, content) in generated() {
            let path = dir.join(format!("{name}.ts"));
            if update {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &content).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(content.as_str()) {
                stale.push(path.display().to_string());
            }
        }
        assert!(stale.is_empty(), "generated TypeScript types are stale, run `make types`: {stale:?}");
    }

    #[test]
    fn props_serialize_as_the_widget_expects() {
        let props = PaymentMethodBlocksProps {
            methods: vec![PaymentMethodOption { method: PaymentMethod::Ideal, group: PaymentGroup::Bank, label: "iDEAL".into() }],
            selected: None,
            labels: PaymentMethodBlocksLabels {
                title: "t".into(),
                group_card: "c".into(),
                group_wallet: "w".into(),
                group_bank: "b".into(),
                group_voucher: "v".into(),
                empty: "e".into(),
            },
        };
        let json = serde_json::to_value(&props).unwrap();
        assert_eq!(json["methods"][0]["method"], "ideal");
        assert_eq!(json["methods"][0]["group"], "bank");
        assert!(json["selected"].is_null());
    }
}
