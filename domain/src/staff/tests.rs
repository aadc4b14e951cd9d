use super::*;
use crate::chat::Gift;
use crate::site::{MessageCost, Theme};
use proptest::prelude::*;

fn credits() -> CreditSettings {
    CreditSettings {
        message_credits: 10,
        photo_credits: 15,
        gift_credits: 20,
        signup_credits: 0,
        free_messages: 3,
        message_length: 1000,
        welcome_discount_percent: 15,
        welcome_discount_hours: 48,
        time_bonus_percent: 25,
        time_bonus_hours: 4,
        refund_days: 14,
        direct_debit_monthly_limit: 150,
        direct_debit_on_collection: false,
        first_payment_needs_confirmed_address: false,
    }
}

#[test]
fn credit_settings_in_range_pass_and_out_of_range_name_the_setting() {
    assert_eq!(credits().validate(), Ok(credits()));
    let e = CreditSettings { message_credits: -1, ..credits() }.validate().unwrap_err();
    assert_eq!((e.code, e.args["setting"].as_str(), e.args["min"].as_str(), e.args["max"].as_str()), (ErrorCode::OutOfRange, "message_credits", "0", "1000"));
    let e = CreditSettings { welcome_discount_percent: 91, ..credits() }.validate().unwrap_err();
    assert_eq!(e.args["setting"], "welcome_discount_percent");
    let e = CreditSettings { message_length: 10, ..credits() }.validate().unwrap_err();
    assert_eq!(e.args["setting"], "message_length");
}

#[test]
fn a_time_bonus_no_better_than_the_welcome_discount_is_refused() {
    for bad in [
        CreditSettings { welcome_discount_percent: 25, ..credits() },
        CreditSettings { time_bonus_percent: 10, ..credits() },
        CreditSettings { time_bonus_hours: 48, ..credits() },
    ] {
        let e = bad.validate().unwrap_err();
        assert_eq!((e.code, e.args["setting"].as_str()), (ErrorCode::TimeBonusNotBetter, "time_bonus_percent"));
    }
    // Either offer alone is fine, whatever the other's numbers.
    assert!(CreditSettings { time_bonus_percent: 0, welcome_discount_percent: 40, ..credits() }.validate().is_ok());
    assert!(CreditSettings { welcome_discount_percent: 0, time_bonus_hours: 72, ..credits() }.validate().is_ok());
}

fn texts() -> SiteTexts {
    SiteTexts {
        name: " Vonk ".into(),
        index_title: "Daten".into(),
        description: "Echte mensen.\r\nEchte dates.".into(),
        support_email: "Support@Vonk.NL".into(),
        support_phone: "+31 20-123 4567".into(),
        mail_name: "Vonk".into(),
        fictional_singular: "".into(),
        fictional_plural: "".into(),
        fictional_warning: true,
    }
}

#[test]
fn texts_are_trimmed_and_checked() {
    let t = texts().validate().unwrap();
    assert_eq!((t.name.as_str(), t.support_email.as_str(), t.description.as_str()), ("Vonk", "support@vonk.nl", "Echte mensen.\nEchte dates."));
    assert_eq!(SiteTexts { name: " \u{0} ".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::Required);
    let e = SiteTexts { name: "x".repeat(121), ..texts() }.validate().unwrap_err();
    assert_eq!((e.code, e.args["setting"].as_str()), (ErrorCode::TextTooLong, "name"));
    assert_eq!(SiteTexts { support_email: "nope".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::EmailInvalid);
    assert_eq!(SiteTexts { support_phone: "bel ons".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::PhoneInvalid);
    assert_eq!(SiteTexts { support_phone: "12".into(), ..texts() }.validate().unwrap_err().code, ErrorCode::PhoneInvalid);
}

#[test]
fn countries_are_known_ordered_once_and_hold_the_default() {
    let c = CountrySettings {
        countries: vec!["be".into(), "NL".into(), "BE".into()],
        geoip_country: "nl".into(),
        geoip_selected_country: Some(" ".into()),
        min_age: 18,
    }
    .validate()
    .unwrap();
    assert_eq!((c.countries, c.geoip_country.as_str(), c.geoip_selected_country), (vec!["NL".to_string(), "BE".to_string()], "NL", None));
    let base = CountrySettings { countries: vec!["NL".into()], geoip_country: "NL".into(), geoip_selected_country: None, min_age: 18 };
    assert_eq!(CountrySettings { countries: vec![], ..base.clone() }.validate().unwrap_err().code, ErrorCode::Required);
    assert_eq!(CountrySettings { countries: vec!["XX".into()], ..base.clone() }.validate().unwrap_err().code, ErrorCode::ChoiceInvalid);
    assert_eq!(CountrySettings { geoip_country: "BE".into(), ..base.clone() }.validate().unwrap_err().args["setting"], "geoip_country");
    assert_eq!(CountrySettings { geoip_selected_country: Some("DE".into()), ..base.clone() }.validate().unwrap_err().args["setting"], "geoip_selected_country");
    assert_eq!(CountrySettings { min_age: 17, ..base }.validate().unwrap_err().args["setting"], "min_age");
}

#[test]
fn theme_colours_are_written_out() {
    let t = Theme { primary: "#ABC".into(), secondary: " #e0263a ".into(), accent: "#FF9F1C".into() }.validate().unwrap();
    assert_eq!((t.primary.as_str(), t.secondary.as_str(), t.accent.as_str()), ("#aabbcc", "#e0263a", "#ff9f1c"));
    let e = Theme { accent: "red;}".into(), ..Theme::default() }.validate().unwrap_err();
    assert_eq!((e.code, e.args["setting"].as_str()), (ErrorCode::ColourInvalid, "theme_accent"));
}

#[test]
fn gifts_at_least_one_known() {
    assert_eq!(validate_gifts(&["kiss".into(), "rose".into(), "kiss".into()]), Ok(vec![Gift::Rose, Gift::Kiss]));
    assert_eq!(validate_gifts(&[]).unwrap_err().code, ErrorCode::Required);
    assert_eq!(validate_gifts(&["diamond".into()]).unwrap_err().code, ErrorCode::ChoiceInvalid);
}

#[test]
fn packs_and_discounts() {
    let pack = PackEdit { id: None, credits: 100, price_minor: 4995, currency: "eur".into(), highlighted: true, sort_order: 1, active: true };
    assert_eq!(pack.clone().validate().unwrap().currency, "EUR");
    assert_eq!(PackEdit { currency: "XBT".into(), ..pack.clone() }.validate().unwrap_err().args["setting"], "currency");
    assert_eq!(PackEdit { credits: 0, ..pack.clone() }.validate().unwrap_err().args["setting"], "credits");
    assert_eq!(PackEdit { price_minor: 0, ..pack }.validate().unwrap_err().args["setting"], "price");
    let d = DiscountEdit { code: " summer-25 ".into(), percentage: 25, minimum_order: 0, country: Some("nl".into()), expires_at: Some(200) };
    let ok = d.clone().validate(100).unwrap();
    assert_eq!((ok.code.as_str(), ok.country.as_deref()), ("SUMMER-25", Some("NL")));
    assert_eq!(DiscountEdit { code: "a b".into(), ..d.clone() }.validate(100).unwrap_err().code, ErrorCode::CodeInvalid);
    assert_eq!(DiscountEdit { code: "ab".into(), ..d.clone() }.validate(100).unwrap_err().code, ErrorCode::CodeInvalid);
    assert_eq!(DiscountEdit { percentage: 95, ..d.clone() }.validate(100).unwrap_err().args["setting"], "percentage");
    assert_eq!(d.validate(300).unwrap_err().args["setting"], "expires_at");
}

#[test]
fn every_range_names_a_labelled_setting() {
    for r in [
        MESSAGE_CREDITS,
        SIGNUP_CREDITS,
        PHOTO_CREDITS,
        GIFT_CREDITS,
        MESSAGE_LENGTH,
        FREE_MESSAGES,
        WELCOME_PERCENT,
        WELCOME_HOURS,
        REFUND_DAYS,
        MIN_AGE,
        PACK_CREDITS,
        PACK_PRICE,
        PACK_SORT,
        DISCOUNT_PERCENT,
        DISCOUNT_MINIMUM,
    ] {
        assert!(settings().any(|s| s == r.setting), "{}", r.setting);
        assert!(r.min <= r.max);
    }
}

proptest! {
    #[test]
    fn a_range_accepts_exactly_its_values(v in -10_000i64..10_000, min in -100i64..100, span in 0i64..1000) {
        let r = Range::new("x", min, min + span);
        prop_assert_eq!(r.check(v).is_ok(), v >= min && v <= min + span);
    }

    #[test]
    fn a_normalised_code_is_stable_and_well_formed(raw in "\\PC{0,40}") {
        if let Ok(code) = normalise_code(&raw) {
            prop_assert_eq!(normalise_code(&code), Ok(code.clone()));
            prop_assert!(code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_'));
        }
    }

    #[test]
    fn validated_texts_stay_within_their_limits(name in "\\PC{0,200}", desc in "\\PC{0,700}") {
        let t = SiteTexts { name, description: desc, ..texts() };
        if let Ok(v) = t.validate() {
            prop_assert!(!v.name.is_empty() && v.name.chars().count() <= LINE_MAX_CHARS);
            prop_assert!(v.description.chars().count() <= DESCRIPTION_MAX_CHARS);
            prop_assert!(!v.name.chars().any(char::is_control));
        }
    }
}

fn rules() -> SiteRules {
    SiteRules {
        niche: 6,
        signups: "traffic_source_only".into(),
        logged_out_search: false,
        logged_out_search_trafficsource: true,
        enable_site_entry_popup: true,
        domain_language: "nl_be".into(),
        visible_profile_fields: vec!["tattoos".into(), "hair_colour".into(), "tattoos".into()],
        visible_profile_notes: false,
        auto_likes: 3,
        auto_like_gap_minutes: 60,
        search_fields: vec!["age".into(), "gender".into(), "age".into()],
    }
}

#[test]
fn site_rules_are_checked_and_written_the_way_the_site_reads_them() {
    let r = rules().validate().unwrap();
    assert_eq!((r.niche, r.signups.as_str(), r.domain_language.as_str()), (6, "traffic_source_only", "nl-BE"));
    assert_eq!(r.visible_profile_fields, vec!["hair_colour".to_string(), "tattoos".to_string()]);
    assert_eq!(r.search_fields, vec!["gender".to_string(), "age".to_string()], "each once, in the form's order");
    assert_eq!(SiteRules { search_fields: vec!["email".into()], ..rules() }.validate().unwrap_err().args["setting"], "search_fields");
    assert_eq!(SiteRules { search_fields: vec![], ..rules() }.validate().unwrap().search_fields, Vec::<String>::new());
    assert_eq!(SiteRules { niche: 8, ..rules() }.validate().unwrap_err().args["setting"], "niche");
    assert_eq!(SiteRules { auto_likes: 21, ..rules() }.validate().unwrap_err().args["setting"], "auto_likes");
    assert_eq!(SiteRules { auto_like_gap_minutes: -1, ..rules() }.validate().unwrap_err().args["setting"], "auto_like_gap_minutes");
    assert_eq!(SiteRules { signups: "everyone".into(), ..rules() }.validate().unwrap_err().args["setting"], "signups");
    assert_eq!(SiteRules { visible_profile_fields: vec!["password_hash".into()], ..rules() }.validate().unwrap_err().args["setting"], "visible_profile_fields");
    for bad in ["xx", "nl-BEL", "dutch", "nl-B1", "", "nl-BE-x"] {
        assert_eq!(SiteRules { domain_language: bad.into(), ..rules() }.validate().unwrap_err().args["setting"], "domain_language", "{bad}");
    }
    for tag in DOMAIN_LANGUAGES {
        assert_eq!(normalise_language_tag(tag).as_deref(), Ok(tag));
    }
}

#[test]
fn message_costs_are_one_per_served_country_in_range() {
    let served = vec!["NL".to_string(), "BE".to_string()];
    let row = |c: &str, costs: i64, cur: &str| MessageCost { country: c.into(), costs, currency: cur.into() };
    let ok = validate_message_costs(&[row("be", 99, "eur"), row("NL", 149, "EUR")], &served).unwrap();
    assert_eq!(ok, vec![row("NL", 149, "EUR"), row("BE", 99, "EUR")]);
    assert_eq!(validate_message_costs(&[], &served), Ok(vec![]));
    assert_eq!(validate_message_costs(&[row("DE", 99, "EUR")], &served).unwrap_err().code, ErrorCode::ChoiceInvalid);
    assert_eq!(validate_message_costs(&[row("NL", 99, "EUR"), row("NL", 1, "EUR")], &served).unwrap_err().code, ErrorCode::ChoiceInvalid);
    assert_eq!(validate_message_costs(&[row("NL", 0, "EUR")], &served).unwrap_err().code, ErrorCode::OutOfRange);
    assert_eq!(validate_message_costs(&[row("NL", 99, "XYZ")], &served).unwrap_err().args["setting"], "currency");
}

fn company() -> CompanyDetails {
    CompanyDetails {
        name: "Vonk B.V.".into(),
        address: "Keizersgracht 1".into(),
        postal_code: "1015 AA".into(),
        city: "Amsterdam".into(),
        country: "nl".into(),
        kvk: "12345678".into(),
        tradenames: split_list("Vonk\nVonk Dating, "),
        vat_numbers: split_list("nl 0012.34.567.B01"),
        support_phone: "020-123 4567".into(),
        delete_discount: 50,
    }
}

#[test]
fn company_details_are_checked() {
    let c = company().validate().unwrap();
    assert_eq!((c.country.as_str(), c.tradenames.len(), c.vat_numbers[0].as_str()), ("NL", 2, "NL001234567B01"));
    assert_eq!(CompanyDetails { name: " ".into(), ..company() }.validate().unwrap_err().args["setting"], "company_name");
    assert_eq!(CompanyDetails { country: "XX".into(), ..company() }.validate().unwrap_err().args["setting"], "company_country");
    assert_eq!(CompanyDetails { vat_numbers: vec!["<script>".into()], ..company() }.validate().unwrap_err().args["setting"], "vat_numbers");
    assert_eq!(CompanyDetails { tradenames: vec!["a".into(); 11], ..company() }.validate().unwrap_err().code, ErrorCode::TextTooLong);
    assert_eq!(CompanyDetails { support_phone: "bel".into(), ..company() }.validate().unwrap_err().args["setting"], "company_phone");
    assert_eq!(CompanyDetails { delete_discount: 91, ..company() }.validate().unwrap_err().args["setting"], "delete_discount");
}

#[test]
fn domains_are_host_names() {
    for (raw, want) in [
        ("Flirt.Example.COM", "flirt.example.com"),
        ("https://www.vonk.be/", "vonk.be"),
        ("vonk-dating.nl.", "vonk-dating.nl"),
        ("xn--vnk-sna.nl", "xn--vnk-sna.nl"),
    ] {
        assert_eq!(normalise_domain(raw).as_deref(), Ok(want), "{raw}");
    }
    for bad in ["localhost", "vonk", "-vonk.nl", "vonk-.nl", "vo nk.nl", "vonk..nl", "1.2.3.4", "vonk.nl:8080", "", "<b>.nl"] {
        assert_eq!(normalise_domain(bad).map_err(|e| e.code), Err(ErrorCode::DomainInvalid), "{bad}");
    }
}

proptest! {
    #[test]
    fn a_normalised_domain_normalises_to_itself(raw in "[a-zA-Z0-9.:/-]{0,40}") {
        if let Ok(d) = normalise_domain(&raw) {
            prop_assert_eq!(normalise_domain(&d), Ok(d.clone()));
            prop_assert!(d.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'));
        }
    }
}

#[test]
fn a_declared_setting_is_named_once_for_its_range_its_column_and_its_label() {
    for (name, field) in
        [SiteTexts::FIELDS, CreditSettings::FIELDS, InviteSettings::FIELDS, DeliverySettings::FIELDS, LifecycleSettings::FIELDS].into_iter().flatten()
    {
        if let Field::Int(r) | Field::Money(r) = field {
            assert_eq!(r.setting, *name, "the range names the setting it checks");
        }
        assert_eq!(settings().filter(|s| s == name).count(), 1, "{name} labelled once");
    }
    let columns: Vec<&str> = credits().columns().into_iter().map(|(c, _)| c).collect();
    assert_eq!(columns, CreditSettings::FIELDS.iter().map(|(n, _)| *n).collect::<Vec<_>>());
}

#[test]
fn a_declared_form_reads_a_posted_form_and_json_alike() {
    // As a browser posts it: every value text, an unticked box absent.
    let form = "message_credits=10&photo_credits=15&gift_credits=20&signup_credits=0&free_messages=3&message_length=1000&welcome_discount_percent=15&welcome_discount_hours=48&time_bonus_percent=25&time_bonus_hours=4&refund_days=14&direct_debit_monthly_limit=150";
    let posted: std::collections::BTreeMap<&str, &str> = form.split('&').filter_map(|kv| kv.split_once('=')).collect();
    let read: CreditSettings = serde_json::from_value(serde_json::to_value(posted).unwrap()).unwrap();
    assert_eq!(read, credits());
    // As JSON carries it to the page and back.
    let ticked = CreditSettings { direct_debit_on_collection: true, ..credits() };
    assert_eq!(serde_json::from_str::<CreditSettings>(&serde_json::to_string(&ticked).unwrap()).unwrap(), ticked);
    assert_eq!(serde_json::from_str::<CreditSettings>(&form_json(&[("direct_debit_on_collection", "on")])).unwrap(), ticked);
    // A missing or malformed number is refused, never read as 0.
    let missing = serde_json::to_value(credits())
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
        .into_iter()
        .filter(|(k, _)| k != "photo_credits")
        .collect::<serde_json::Map<_, _>>();
    assert!(serde_json::from_value::<CreditSettings>(serde_json::Value::Object(missing)).is_err());
    assert!(serde_json::from_str::<CreditSettings>(&form_json(&[("photo_credits", "veel")])).is_err());
    assert!(serde_json::from_str::<CreditSettings>(&form_json(&[("direct_debit_on_collection", "misschien")])).is_err());
}

/// The credits form as JSON with some values replaced by texts.
fn form_json(texts: &[(&str, &str)]) -> String {
    let mut v = serde_json::to_value(credits()).unwrap();
    for (k, t) in texts {
        v[*k] = serde_json::Value::String(t.to_string());
    }
    v.to_string()
}

#[test]
fn a_declared_form_shows_and_stores_amounts_in_their_units() {
    let c = credits();
    let columns = c.columns();
    assert!(columns.contains(&("direct_debit_monthly_limit", Stored::Int(15_000))), "stored in minor units");
    assert!(c.inputs().contains(&("direct_debit_monthly_limit", Field::Money(DIRECT_DEBIT_LIMIT), Stored::Int(150))), "shown in whole units");
    let texts = texts().validate().unwrap();
    assert_eq!(texts.support_email, "support@vonk.nl");
    assert_eq!(texts.name, "Vonk");
}

#[test]
fn a_file_origin_is_a_plain_http_address_or_nothing() {
    for (given, read) in [
        ("", Some("")),
        (" https://CDN.vonk.nl/ ", Some("https://cdn.vonk.nl")),
        ("http://127.0.0.1:3108", Some("http://127.0.0.1:3108")),
        ("https://cdn.example.com/vonk/", Some("https://cdn.example.com/vonk")),
        ("cdn.vonk.nl", None),
        ("javascript:alert(1)", None),
        ("https://", None),
        ("https://cdn.vonk.nl\" onload=\"x", None),
        ("https://cdn.vonk.nl 'unsafe-inline'", None),
        ("https://cdn.vonk.nl;script-src *", None),
        ("https://a//b", None),
        ("ftp://cdn.vonk.nl", None),
    ] {
        assert_eq!(file_origin(given).as_deref(), read, "{given}");
    }
    let e = DeliverySettings { cdn_prefix: "cdn.vonk.nl".into() }.validate().unwrap_err();
    assert_eq!((e.code, e.args["setting"].as_str()), (ErrorCode::UrlInvalid, "cdn_prefix"));
}
