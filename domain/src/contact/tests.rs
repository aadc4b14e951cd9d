//! The finder's disguises, the rules per kind, the staff form, and property tests.

use super::*;
use proptest::prelude::*;

fn kinds(text: &str) -> Vec<ContactKind> {
    find(text).into_iter().map(|f| f.kind).collect()
}

fn masked(text: &str) -> String {
    apply(text, &ContactPolicy::default()).unwrap().text
}

#[test]
fn phone_numbers_in_their_usual_disguises() {
    for text in [
        "bel me op 0612345678",
        "06-1234 5678",
        "06 12 34 56 78",
        "+31 6 1234 5678",
        "(020) 123 45 67",
        "nul zes 12 34 56 78",
        "nul zes een twee drie vier vijf zes zeven acht",
        "0️⃣6️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣",
        "０６１２３４５６７８",
        "0 6 - 1 2 3 4 - 5 6 7 8",
        "zero six one two three four five six seven eight",
    ] {
        assert_eq!(kinds(text), [ContactKind::Phone], "{text}");
    }
    assert_eq!(masked("bel me: 06-1234 5678 na zessen"), "bel me: ••• na zessen");
    assert_eq!(masked("+31 6 1234 5678"), "•••");
}

#[test]
fn ordinary_numbers_are_no_phone() {
    for text in [
        "ik ben 35 en woon in 1012 AB",
        "om 20:30 bij het station",
        "zaterdag 12-05-2024",
        "ik heb er 3 of 4",
        "€ 1.250.000 gewonnen",
        "een twee drie, daar gaan we",
    ] {
        assert!(kinds(text).is_empty(), "{text}: {:?}", find(text));
    }
}

#[test]
fn email_addresses_written_out_or_not() {
    for text in [
        "mail me: jan.jansen@gmail.com",
        "jan at gmail dot com",
        "jan(at)hotmail(dot)nl",
        "jan [at] ziggo [dot] nl",
        "jan apenstaartje gmail punt com",
        "anna＠outlook．com",
        "jan at gmail",
    ] {
        assert_eq!(kinds(text), [ContactKind::Email], "{text}");
    }
    assert_eq!(masked("mail jan.de.vries@example.nl!"), "mail •••!");
    assert!(kinds("ik ben at home, dot").is_empty());
    assert!(kinds("ik zit at the bar").is_empty());
}

#[test]
fn web_addresses() {
    for text in ["kijk op https://example.com/profiel?id=3", "www.vonk.nl", "zie anna-fotos.nl/album", "anna dot com", "vonk punt nl"] {
        assert_eq!(kinds(text), [ContactKind::Web], "{text}");
    }
    assert_eq!(masked("kijk op www.example.com/anna, leuk"), "kijk op •••, leuk");
    for text in ["Leuk. Nl is een mooi land", "ik woon in nl", "ok. me too", "3.14 is pi", "Zaterdag.Of zondag"] {
        assert!(!kinds(text).contains(&ContactKind::Web), "{text}: {:?}", find(text));
    }
}

#[test]
fn messenger_names() {
    for text in ["add me @anna_99", "mijn snap is annabanana", "whatsapp: jan1990", "insta @anna.b_99", "Snapchat anna_b"] {
        assert_eq!(kinds(text), [ContactKind::Messenger], "{text}");
    }
    assert_eq!(masked("mijn snap is annabanana x"), "mijn ••• x");
    for text in ["heb je whatsapp?", "ik zit niet op facebook", "leuk @ jou", "ik snap het niet", "snap je wat ik bedoel"] {
        assert!(kinds(text).is_empty(), "{text}: {:?}", find(text));
    }
}

#[test]
fn what_members_really_write() {
    for (text, kind) in [
        ("begint met 06 48 en dan 29 17 33", ContactKind::Phone),
        ("mijn 06 is 48291733", ContactKind::Phone),
        ("06 | 48 | 29 | 17 | 33", ContactKind::Phone),
        ("nul zes, vier acht, twee negen, een zeven, drie drie", ContactKind::Phone),
        ("⁰⁶⁴⁸²⁹¹⁷³³", ContactKind::Phone),
        ("06\u{200B}48\u{00AD}29\u{2060}17\u{200D}33", ContactKind::Phone),
        ("naam @ hotmail . com", ContactKind::Email),
        ("naam [@] gmail [.] com", ContactKind::Email),
        ("naam(a)gmail.com", ContactKind::Email),
        ("naam ät gmx punkt de", ContactKind::Email),
        ("gmail: naam88", ContactKind::Email),
        ("sannesite[.]nl", ContactKind::Web),
        ("w w w punt sannesite punt nl", ContactKind::Web),
        ("linktr.ee/anna_x", ContactKind::Web),
        ("ig: anna_b", ContactKind::Messenger),
        ("sc: anna.b99", ContactKind::Messenger),
        ("👻 anna_b", ContactKind::Messenger),
        ("Snapchat-naam: annab", ContactKind::Messenger),
        ("discord anna#1234", ContactKind::Messenger),
        ("skype live:anna_b", ContactKind::Messenger),
        ("mijn s•••: annab", ContactKind::Messenger),
    ] {
        let found = find(text);
        assert!(found.iter().any(|f| f.kind == kind), "{text}: {found:?}");
        assert!(found.iter().all(|f| !f.reason.is_empty()));
    }
    // The whole of it is masked: the name left by a hidden service, every invisible character.
    assert_eq!(masked("mail naam (a) ••• ok"), "mail ••• ok");
    assert_eq!(masked("bel 06\u{200B}48\u{200B}29\u{200B}17\u{200B}33 ok"), "bel ••• ok");
}

#[test]
fn ordinary_talk_that_looks_risky() {
    for text in [
        "mijn insta is privé",
        "WhatsApp is traag vandaag",
        "ik heb snapchat, insta, tiktok en facebook, jij?",
        "ben net thuis.Nu even douchen",
        "zaterdag 12-05-2024 om 21.30 bij het station?",
        "12.05.2024 21:30 lijkt me top",
        "ik ben 1.85 en weeg 80 kilo",
        "ik heb 3 katten en 2 honden",
        "500 credits gekocht voor 49,95",
        "bel me niet hoor",
        "het was 2019, 2020 en 2021 een rare tijd",
        "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ik kom eraan",
    ] {
        assert!(find(text).is_empty(), "{text}: {:?}", find(text));
    }
}

#[test]
fn the_rules_per_kind() {
    let text = "bel 0612345678 of mail jan@example.com";
    let allow = apply(text, &ContactPolicy::ALLOW_ALL).unwrap();
    assert_eq!(allow, Checked { text: text.into(), masked: vec![], held: vec![], warned: false });
    let mask_phone = ContactPolicy { phone: ContactRule::Mask, ..ContactPolicy::ALLOW_ALL };
    assert_eq!(
        apply(text, &mask_phone).unwrap(),
        Checked { text: "bel ••• of mail jan@example.com".into(), masked: vec![ContactKind::Phone], held: vec![], warned: false }
    );
    assert_eq!(
        apply(text, &ContactPolicy::default()).unwrap(),
        Checked { text: "bel ••• of mail •••".into(), masked: vec![ContactKind::Phone, ContactKind::Email], held: vec![], warned: false }
    );
    let refuse_mail = ContactPolicy { email: ContactRule::Refuse, ..ContactPolicy::default() };
    let e = apply(text, &refuse_mail).unwrap_err();
    assert_eq!((e.code, e.field), (ErrorCode::ContactDetailsRefused, Some(Field::Message)));
    assert_eq!(apply("gewoon een leuk bericht", &refuse_mail).unwrap().text, "gewoon een leuk bericht");
}

#[test]
fn the_staff_form() {
    let form = |pairs: &[(&str, &str)]| ContactPolicy::from_form(&pairs.iter().map(|(k, r)| (k.to_string(), r.to_string())).collect::<Vec<_>>());
    assert_eq!(
        form(&[("phone", "refuse"), ("email", "mask"), ("web", "allow"), ("messenger", "mask")]),
        Ok(ContactPolicy { phone: ContactRule::Refuse, email: ContactRule::Mask, web: ContactRule::Allow, messenger: ContactRule::Mask })
    );
    assert_eq!(form(&[("phone", "refuse")]).unwrap_err().code, ErrorCode::Required);
    assert_eq!(form(&[("phone", "drop"), ("email", "mask"), ("web", "allow"), ("messenger", "mask")]).unwrap_err().code, ErrorCode::ChoiceInvalid);
    assert_eq!(form(&[("fax", "mask"), ("email", "mask"), ("web", "allow"), ("messenger", "mask")]).unwrap_err().code, ErrorCode::ChoiceInvalid);
    assert_eq!(serde_json::from_str::<ContactPolicy>("{}").unwrap(), ContactPolicy::default());
    assert_eq!(serde_json::from_str::<ContactPolicy>(r#"{"web":"allow"}"#).unwrap().web, ContactRule::Allow);
}

/// A digit written one of the ways members write them.
fn disguised_digit() -> impl Strategy<Value = (u32, String)> {
    (0u32..10, 0usize..5).prop_map(|(d, way)| {
        let s = match way {
            0 => d.to_string(),
            1 => char::from_u32(0xFF10 + d).unwrap().to_string(),
            2 => format!("{d}\u{FE0F}\u{20E3}"),
            3 => ["nul", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"][d as usize].to_string(),
            _ => char::from_u32(0x1D7CE + d).unwrap().to_string(),
        };
        (d, s)
    })
}

proptest! {
    /// Any ten-digit number, each digit disguised, with any separators, is found and masked
    /// whole: no digit of it reaches the recipient.
    #[test]
    fn disguised_phone_numbers_are_masked_whole(digits in proptest::collection::vec(disguised_digit(), 10), seps in proptest::collection::vec(prop::sample::select(vec!["", " ", "-", ".", " - ", "  ", "/"]), 10)) {
        let mut number = String::new();
        for ((_, d), sep) in digits.iter().zip(&seps) {
            if !number.is_empty() {
                number.push_str(if d.chars().all(char::is_alphabetic) && sep.is_empty() { " " } else { sep });
            }
            number.push_str(d);
        }
        let text = format!("hoi, bel me op {number} vanavond");
        prop_assert_eq!(masked(&text), "hoi, bel me op ••• vanavond", "{:?}: {:?}", text, find(&text));
    }

    /// Sentences of ordinary words with small numbers find nothing and pass unchanged.
    #[test]
    fn ordinary_chat_passes_unchanged(words in proptest::collection::vec(prop::sample::select(vec!["hoi", "leuk", "je", "profiel", "zaterdag", "om", "8", "uur", "ik", "ben", "35", "jaar", "wandelen", "koffie", "?", "!", ",", "haha", "echt", "waar", "2", "kinderen", "Amsterdam", "at", "de", "bar", "snap", "het", "niet", "home"]), 0..30)) {
        let text = words.join(" ");
        let small_numbers = text.split(' ').filter(|w| w.chars().all(|c| c.is_ascii_digit())).count();
        prop_assume!(small_numbers < 4);
        prop_assert_eq!(masked(&text), text.clone(), "{:?}", find(&text));
    }

    /// Any text: what is found lies on character boundaries inside it, and masking does
    /// not panic.
    #[test]
    fn finding_and_masking_any_text(text in "\\PC{0,120}") {
        for f in find(&text) {
            prop_assert!(f.start < f.end && f.end <= text.len() && text.is_char_boundary(f.start) && text.is_char_boundary(f.end), "{:?}", f);
        }
        let out = masked(&text);
        prop_assert!(out.len() <= text.len() + MASK.len() * (text.len() + 1));
    }
}

#[test]
fn a_held_kind_keeps_the_text_for_staff_and_says_so() {
    let mut policy = ContactPolicy::default();
    policy.set(ContactKind::Email, ContactRule::Hold);
    let c = apply("bel 06 12345678 of mail jan@example.com", &policy).unwrap();
    assert_eq!((c.text.as_str(), c.masked, c.held), ("bel ••• of mail jan@example.com", vec![ContactKind::Phone], vec![ContactKind::Email]));
    // Refusing wins over holding.
    policy.set(ContactKind::Phone, ContactRule::Refuse);
    assert_eq!(apply("bel 06 12345678 of mail jan@example.com", &policy).unwrap_err().code, ErrorCode::ContactDetailsRefused);
    assert_eq!(ContactRule::parse("hold"), Some(ContactRule::Hold));
}

#[test]
fn a_sender_who_keeps_trying_is_warned_then_held() {
    let mut refuse = ContactPolicy::default();
    refuse.set(ContactKind::Phone, ContactRule::Refuse);
    let text = "app me: 06 12345678";
    // First tries: the site's rule, no warning.
    assert_eq!(apply_for(text, &refuse, 0).unwrap_err().code, ErrorCode::ContactDetailsRefused);
    assert!(!apply_for(text, &ContactPolicy::default(), WARN_AFTER - 1).unwrap().warned);
    // Then warned: a refusal says the next ones are held; a masked message is sent with the warning.
    assert_eq!(apply_for(text, &refuse, WARN_AFTER).unwrap_err().code, ErrorCode::ContactDetailsRepeated);
    let masked = apply_for(text, &ContactPolicy::default(), WARN_AFTER).unwrap();
    assert!(masked.warned && masked.masked == vec![ContactKind::Phone]);
    // Then held, whatever the rule (an allowed kind stays allowed); ordinary talk is never held.
    for policy in [refuse, ContactPolicy::default()] {
        let held = apply_for(text, &policy, HOLD_AFTER).unwrap();
        assert_eq!((held.text.as_str(), held.held, held.warned), (text, vec![ContactKind::Phone], true));
    }
    assert!(apply_for(text, &ContactPolicy::ALLOW_ALL, HOLD_AFTER + 5).unwrap().held.is_empty());
    let plain = apply_for("zin in een drankje vanavond?", &refuse, HOLD_AFTER + 5).unwrap();
    assert!(plain.held.is_empty() && plain.masked.is_empty() && !plain.warned);
}
