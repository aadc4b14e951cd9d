//! Keeps `react-widgets/src/generated/` in step with these types.
//! `UPDATE_TS_TYPES=1 cargo test -p domain generated_types` rewrites the files.
use super::*;
use crate::locale::Locale;
use crate::payment::{PaymentGroup, PaymentMethod};
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
    for (field, kind) in body.split([',', ';']).filter_map(|f| f.trim().split_once(':')).map(|(name, kind)| (name.trim().to_string(), kind.trim())) {
        let text = serde_json::Value::String(format!("<b>{field}</b> {{n}}"));
        let value = match kind {
            "Counted" => serde_json::json!({ "lang": "nl", "forms": { "one": text, "other": text } }),
            _ => text,
        };
        json.insert(field, value);
    }
    assert_eq!(json.len(), 51);
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
        (Counted::name(&cfg), Counted::export_to_string(&cfg).unwrap()),
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
        (crate::moderation::PhotoReview::name(&cfg), crate::moderation::PhotoReview::export_to_string(&cfg).unwrap()),
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
