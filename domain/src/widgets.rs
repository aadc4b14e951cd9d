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

#[cfg(test)]
mod tests {
    //! Keeps `react-widgets/src/generated/` in step with these types.
    //! `UPDATE_TS_TYPES=1 cargo test -p domain generated_types` rewrites the files.
    use super::*;
    use crate::locale::Locale;
    use ts_rs::TS;

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
