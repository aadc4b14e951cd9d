//! The chat's signals and how they travel as `NOTIFY` payloads: small [`Signal`]s carrying ids,
//! and a message's signal that carries its row and its members' figures after the send
//! ([`ROW_TAG`]), so that no node reads them back.

use domain::chat::{Gift, MessageKind};
use domain::moderation::PhotoReview;

use super::store::MessageRow;

/// The tag of [`Signal::Delivered`] (the batched delivered marks write it in SQL too).
pub(crate) const DELIVERED_TAG: &str = "d";

/// Something happened that sockets may need to know. Ids only: receivers read what they need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// A message was stored (or released after a confirmation).
    Message { id: i64, conversation: i64, sender: i64, recipient: i64 },
    /// `to`'s messages in the conversation reached the peer's client up to `up_to`.
    Delivered { conversation: i64, to: i64, up_to: i64 },
    /// `to`'s messages in the conversation were read up to `up_to`.
    Read { conversation: i64, to: i64, up_to: i64 },
    /// `from` is typing to `to` (not stored; the client lets it expire).
    Typing { conversation: i64, from: i64, to: i64 },
    /// The conversation is gone from `user`'s list (deleted, or a block).
    Removed { conversation: i64, user: i64 },
    /// `user`'s unread total changed.
    Counters { user: i64 },
    /// `user`'s credit balance changed outside the chat (a payment booked or reversed).
    Balance { user: i64 },
    /// The operators' queue of the site changed (a member wrote to a fictional profile, an
    /// operator answered, took or left a conversation): open queue pages read it again.
    Queue { site: i64 },
}

impl Signal {
    pub fn encode(&self) -> String {
        match *self {
            Signal::Message { id, conversation, sender, recipient } => format!("m,{id},{conversation},{sender},{recipient}"),
            Signal::Delivered { conversation, to, up_to } => format!("{DELIVERED_TAG},{conversation},{to},{up_to}"),
            Signal::Read { conversation, to, up_to } => format!("r,{conversation},{to},{up_to}"),
            Signal::Typing { conversation, from, to } => format!("t,{conversation},{from},{to}"),
            Signal::Removed { conversation, user } => format!("x,{conversation},{user}"),
            Signal::Counters { user } => format!("c,{user}"),
            Signal::Balance { user } => format!("b,{user}"),
            Signal::Queue { site } => format!("q,{site}"),
        }
    }

    pub fn decode(payload: &str) -> Option<Signal> {
        let mut parts = payload.split(',');
        let tag = parts.next()?;
        let n: Vec<i64> = parts.map(|p| p.parse().ok()).collect::<Option<_>>()?;
        Some(match (tag, n.as_slice()) {
            ("m", &[id, conversation, sender, recipient]) => Signal::Message { id, conversation, sender, recipient },
            (DELIVERED_TAG, &[conversation, to, up_to]) => Signal::Delivered { conversation, to, up_to },
            ("r", &[conversation, to, up_to]) => Signal::Read { conversation, to, up_to },
            ("t", &[conversation, from, to]) => Signal::Typing { conversation, from, to },
            ("x", &[conversation, user]) => Signal::Removed { conversation, user },
            ("c", &[user]) => Signal::Counters { user },
            ("b", &[user]) => Signal::Balance { user },
            ("q", &[site]) => Signal::Queue { site },
            _ => return None,
        })
    }
}

/// Signals as `NOTIFY` payloads: separated by `;`, each payload under PostgreSQL's 8,000 bytes.
pub fn payloads(signals: &[Signal]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for signal in signals {
        let encoded = signal.encode();
        match out.last_mut() {
            Some(last) if last.len() + 1 + encoded.len() <= PAYLOAD_MAX => {
                last.push(';');
                last.push_str(&encoded);
            }
            _ => out.push(encoded),
        }
    }
    out
}

/// One `NOTIFY` payload for a write's few signals (a send's: a message, maybe a queue change).
#[cfg(test)]
pub(crate) fn payload(signals: &[Signal]) -> String {
    signals.iter().map(Signal::encode).collect::<Vec<_>>().join(";")
}

/// A send's one `NOTIFY` payload: its other signals, then its message with the row when it
/// fits (else the message's id, and the nodes read it). Its members' figures are left out:
/// the member caches drop both.
pub(crate) fn send_payload(signals: &[Signal], row: &MessageRow) -> String {
    let mut parts: Vec<String> = signals.iter().filter(|s| !matches!(s, Signal::Message { .. })).map(Signal::encode).collect();
    parts.push(message_with_row(row, Figures::default()).unwrap_or_else(|| message_signal(row).encode()));
    parts.join(";")
}

/// Every signal of a payload; `None` when any part is not one.
#[cfg(test)]
pub fn decode_payload(payload: &str) -> Option<Vec<Signal>> {
    decode_with_row(payload).map(|(signals, _)| signals)
}

/// The [`Signal::Message`] of a stored message.
fn message_signal(row: &MessageRow) -> Signal {
    Signal::Message { id: row.id, conversation: row.conversation_id, sender: row.sender_id, recipient: row.recipient_id }
}

/// What a send changed of its two members, as the database had it at the send's commit
/// (PostgreSQL's one-call send writes them in the signal): a member cache takes them instead of
/// reading the members again. `None`: not told (the cache drops the member).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Figures {
    /// The sender's balance after the send.
    pub sender_credits: Option<i64>,
    /// The recipient's unread total after it (none when the message is held: the sender's
    /// figures are all it changed, and the recipient is dropped all the same).
    pub recipient_unread: Option<i64>,
}

/// A message as its signal carries it: the row, and its members' [`Figures`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    pub row: MessageRow,
    pub figures: Figures,
}

/// Every signal of a payload, and the message a [`ROW_TAG`] part carries.
pub fn decode_with_row(payload: &str) -> Option<(Vec<Signal>, Option<Carried>)> {
    let mut signals = Vec::new();
    let mut rest = payload;
    loop {
        if rest.starts_with(ROW_TAG) && rest[ROW_TAG.len()..].starts_with(',') {
            let carried = decode_row(rest)?;
            signals.push(message_signal(&carried.row));
            return Some((signals, Some(carried)));
        }
        let (part, next) = match rest.split_once(';') {
            Some((part, next)) => (part, Some(next)),
            None => (rest, None),
        };
        signals.push(Signal::decode(part)?);
        match next {
            Some(next) => rest = next,
            None => return Some((signals, None)),
        }
    }
}

/// The tag of a message's signal that carries its row, so that no node reads it back: `M,`,
/// the numbers of [`Signal::Message`], whether it is held (`1`/`0`), the sender's balance and
/// the recipient's unread total after it ([`Figures`], empty when not told), then
/// [`row_tail`]. The body comes last and may hold `,` and `;`, so this part is always a
/// payload's last.
pub(crate) const ROW_TAG: &str = "M";

/// The columns of a message's signal after its id, members, held flag and figures (the part
/// the writer knows before the database does; PostgreSQL's one-call send puts the rest in
/// front): time, kind, gift, photo (`1`/`0`), photo review, client id, body.
pub(crate) fn row_tail(m: &MessageRow) -> String {
    format!(
        "{},{},{},{},{},{},{}",
        m.created_at,
        m.kind.as_str(),
        m.gift.map(Gift::code).unwrap_or(""),
        u8::from(m.has_photo),
        m.photo_review.map(PhotoReview::as_str).unwrap_or(""),
        m.client_id,
        m.body
    )
}

/// A message's signal with its row (see [`ROW_TAG`]); `None` when it would not fit a payload.
pub(crate) fn message_with_row(m: &MessageRow, figures: Figures) -> Option<String> {
    let told = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
    let part = format!(
        "{ROW_TAG},{},{},{},{},{},{},{},{}",
        m.id,
        m.conversation_id,
        m.sender_id,
        m.recipient_id,
        u8::from(m.held),
        told(figures.sender_credits),
        told(figures.recipient_unread),
        row_tail(m)
    );
    (part.len() <= ROW_MAX).then_some(part)
}

/// A message's signal with its row is at most this long (room for a queue signal before it).
pub(crate) const ROW_MAX: usize = PAYLOAD_MAX - 100;

/// Room for what comes before [`row_tail`] in a message's signal: its tag and seven numbers.
pub(crate) const ROW_HEAD_MAX: usize = 200;

fn decode_row(part: &str) -> Option<Carried> {
    let mut f = part.splitn(15, ',');
    let _tag = f.next()?;
    let mut number = || f.next().and_then(|n| n.parse::<i64>().ok());
    let (id, conversation_id, sender_id, recipient_id, held) = (number()?, number()?, number()?, number()?, number()?);
    let mut told = || match f.next()? {
        "" => Some(None),
        n => n.parse::<i64>().ok().map(Some),
    };
    let figures = Figures { sender_credits: told()?, recipient_unread: told()? };
    let created_at = f.next()?.parse::<i64>().ok()?;
    let kind = MessageKind::parse(f.next()?)?;
    let gift = match f.next()? {
        "" => None,
        code => Some(Gift::parse(code)?),
    };
    let has_photo = f.next()? == "1";
    let photo_review = match f.next()? {
        "" => None,
        review => Some(PhotoReview::parse(review)?),
    };
    let client_id = f.next()?.to_string();
    let body = f.next()?.to_string();
    let row = MessageRow { id, conversation_id, sender_id, recipient_id, kind, body, gift, has_photo, photo_review, client_id, held: held == 1, created_at };
    Some(Carried { row, figures })
}

/// A `NOTIFY` payload stays below this (PostgreSQL refuses 8,000 bytes and more).
const PAYLOAD_MAX: usize = 7_000;

#[cfg(test)]
mod tests {
    use super::Signal;

    #[test]
    fn signals_round_trip() {
        for s in [
            Signal::Message { id: 9, conversation: 2, sender: 3, recipient: 4 },
            Signal::Delivered { conversation: 2, to: 3, up_to: 9 },
            Signal::Read { conversation: 2, to: 3, up_to: 9 },
            Signal::Typing { conversation: 2, from: 3, to: 4 },
            Signal::Removed { conversation: 2, user: 4 },
            Signal::Counters { user: 4 },
            Signal::Balance { user: 4 },
            Signal::Queue { site: 1 },
        ] {
            assert_eq!(Signal::decode(&s.encode()), Some(s));
        }
        assert_eq!(Signal::decode("m,1,2"), None);
        assert_eq!(Signal::decode("z,1"), None);
        assert_eq!(Signal::decode("q,1,2"), None);
        assert_eq!(Signal::decode("m,1,2,x,4"), None);
    }

    #[test]
    fn payloads_carry_several_signals_and_stay_small() {
        use super::{decode_payload, payload, payloads, PAYLOAD_MAX};
        let two = [Signal::Message { id: 9, conversation: 2, sender: 3, recipient: 4 }, Signal::Queue { site: 1 }];
        assert_eq!(payload(&two), "m,9,2,3,4;q,1");
        assert_eq!(decode_payload(&payload(&two)), Some(two.to_vec()));
        assert_eq!(decode_payload("m,9,2,3,4;z,1"), None);
        let many: Vec<Signal> = (0..2_000).map(|user| Signal::Removed { conversation: 1_000_000 + user, user }).collect();
        let split = payloads(&many);
        assert!(split.len() > 1);
        assert!(split.iter().all(|p| p.len() <= PAYLOAD_MAX));
        assert_eq!(split.iter().flat_map(|p| decode_payload(p).unwrap()).collect::<Vec<_>>(), many);
    }

    #[test]
    fn a_message_signal_carries_its_row_whatever_its_body() {
        use super::{decode_payload, decode_with_row, message_with_row, Carried, Figures, MessageRow, ROW_MAX};
        use domain::chat::{Gift, MessageKind};
        use domain::moderation::PhotoReview;
        let text = MessageRow {
            id: 41,
            conversation_id: 7,
            sender_id: 3,
            recipient_id: 4,
            kind: MessageKind::Text,
            body: "hoi, hoe gaat het?; m,1,2,3,4\n<b>zo</b> M,9".into(),
            gift: None,
            has_photo: false,
            photo_review: None,
            client_id: "abc-DEF_12345".into(),
            held: true,
            created_at: 1_790_000_000,
        };
        let photo = MessageRow {
            kind: MessageKind::Photo,
            body: String::new(),
            has_photo: true,
            photo_review: Some(PhotoReview::Waiting),
            held: false,
            ..text.clone()
        };
        let gift = MessageRow { kind: MessageKind::Gift, body: String::new(), gift: Some(Gift::Rose), ..text.clone() };
        let told = Figures { sender_credits: Some(120), recipient_unread: Some(3) };
        let held = Figures { sender_credits: Some(0), recipient_unread: None };
        for (row, figures) in [(text.clone(), held), (photo, told), (gift, Figures::default())] {
            let payload = format!("{};{}", Signal::Queue { site: 2 }.encode(), message_with_row(&row, figures).unwrap());
            let message = Signal::Message { id: row.id, conversation: row.conversation_id, sender: row.sender_id, recipient: row.recipient_id };
            let carried = Carried { row: row.clone(), figures };
            assert_eq!(decode_with_row(&payload), Some((vec![Signal::Queue { site: 2 }, message], Some(carried))));
            assert_eq!(decode_payload(&payload), Some(vec![Signal::Queue { site: 2 }, message]));
        }
        // Too long for a payload: the short signal (and a read) instead.
        let long = MessageRow { body: "é".repeat(ROW_MAX), ..text };
        assert_eq!(message_with_row(&long, told), None);
        assert_eq!(decode_with_row("M,1,2,3"), None);
        assert_eq!(decode_with_row("M,1,2,3,4,0,x,,1790000000,text,,0,,abcdefgh,hoi"), None, "a figure that is not a number");
    }
}
