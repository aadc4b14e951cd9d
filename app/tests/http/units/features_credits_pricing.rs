//! Tests of `app::features::credits::pricing` (moved out of the crate: one compile of the app crate, not two).

use app::features::credits::pricing::*;
use app::i18n::I18n;
use domain::payment::PaymentGroup;
use domain::payment::PaymentMethod;
use std::sync::Arc;

#[test]
fn props_use_translated_generic_labels_and_country_filter() {
    let mut texts = domain::i18n::Texts::new();
    texts.insert("payment.method.credit_card".into(), "Creditcard".into());
    let i18n = I18n::new(domain::Locale::Nl, Arc::new(texts));
    let props = payment_blocks_props(&i18n, "NL", None);
    let card = props.methods.iter().find(|m| m.method == PaymentMethod::CreditCard).unwrap();
    assert_eq!(card.label, "Creditcard");
    assert_eq!(card.group, PaymentGroup::Card);
    assert!(props.methods.iter().any(|m| m.method == PaymentMethod::Ideal && m.label == "iDEAL"));
    assert!(!props.methods.iter().any(|m| m.method == PaymentMethod::Blik));
}
