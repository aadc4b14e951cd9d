//! Tests of `app::i18n` (moved out of the crate: one compile of the app crate, not two).

//! Every literal locale key in the app's source exists in the Dutch locale (the default).
use std::collections::BTreeMap;
use std::path::Path;

const NAMESPACES: [&str; 48] = [
    "nav",
    "account",
    "footer",
    "entry",
    "home",
    "title",
    "lang",
    "pricing",
    "payment",
    "error",
    "validation",
    "date",
    "pages",
    "site",
    "mail",
    "auth",
    "reset",
    "settings",
    "reminder",
    "activate",
    "mailchange",
    "deleted",
    "complete",
    "profile",
    "location",
    "alert",
    "unsubscribe",
    "country",
    "members",
    "photo",
    "photos",
    "staff",
    "landing",
    "likes",
    "swipe",
    "chat",
    "console",
    "receipt",
    "credits",
    "checkout",
    "repeat",
    "premium",
    "transaction",
    "transactions",
    "directdebit",
    "testpay",
    "timebonus",
    "security",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Literals shaped like keys that are not texts (the session cookie's name).
const NOT_KEYS: [&str; 1] = [domain::constants::AUTH_COOKIE];

fn looks_like_key(s: &str) -> bool {
    if NOT_KEYS.contains(&s) {
        return false;
    }
    let mut parts = s.split('.');
    let first = parts.next().unwrap_or("");
    NAMESPACES.contains(&first)
        && s.contains('.')
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
        && !s.ends_with('.')
        // File names (the data download's `account.json`, …).
        && !s.ends_with(".json")
}

#[test]
fn every_key_used_in_the_app_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let nl: BTreeMap<String, String> = serde_json::from_str(&std::fs::read_to_string(root.join("../locales/nl.json")).unwrap()).unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("../domain/src"), &mut files);
    rust_files(&root.join("../server/src"), &mut files);
    let mut missing = Vec::new();
    let mut checked = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, literal) in text.split('"').enumerate() {
            if i % 2 == 1 && looks_like_key(literal) {
                checked += 1;
                // A prefix such as "pages.terms" is fine when keys are built from it, and a
                // counted text's base ("pricing.credits") when its forms are there.
                let (prefix, forms) = (format!("{literal}."), format!("{literal}#"));
                if !nl.contains_key(literal) && !nl.keys().any(|k| k.starts_with(&prefix) || k.starts_with(&forms)) {
                    missing.push(format!("{}: {literal}", file.display()));
                }
            }
        }
    }
    assert!(checked > 50, "the scan found only {checked} keys: it is not looking at the right files");
    assert!(missing.is_empty(), "keys missing from locales/nl.json: {missing:?}");
}
