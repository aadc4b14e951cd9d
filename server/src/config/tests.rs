use super::*;
use std::collections::HashMap;

/// A configuration from `pairs`, with the test provider unless they choose.
fn cfg(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let mut map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    map.entry("VONK_PAYMENTS".into()).or_insert_with(|| "test".into());
    Config::from_lookup(|k| map.get(k).cloned())
}

#[test]
fn mail_secrets_stay_out_of_debug_output() {
    let c = cfg(&[("VONK_SMTP_URL", "smtps://mailer:hunter2@smtp.example.com"), ("VONK_MAIL_EVENTS_SECRET", "a-very-long-shared-secret-value")]).unwrap();
    let shown = format!("{c:?}");
    assert!(!shown.contains("hunter2") && !shown.contains("a-very-long-shared-secret-value"), "{shown}");
    assert!(shown.contains("smtp.example.com"));
}

#[test]
fn s3_needs_its_keys_and_hides_the_secret() {
    assert!(cfg(&[]).unwrap().media_s3.is_none());
    assert!(cfg(&[("VONK_S3_BUCKET", "photos")]).is_err());
    assert!(cfg(&[("VONK_S3_BUCKET", "photos"), ("AWS_ACCESS_KEY_ID", "AK"), ("AWS_SECRET_ACCESS_KEY", "s3cr3t-value"), ("VONK_S3_ENDPOINT", "minio:9000")])
        .is_err());
    let c = cfg(&[
        ("VONK_S3_BUCKET", "photos"),
        ("AWS_ACCESS_KEY_ID", "AK"),
        ("AWS_SECRET_ACCESS_KEY", "s3cr3t-value"),
        ("VONK_S3_ENDPOINT", "http://10.0.0.5:9000/"),
    ])
    .unwrap();
    let s3 = c.media_s3.clone().unwrap();
    assert_eq!((s3.endpoint.as_str(), s3.region.as_str()), ("http://10.0.0.5:9000", "us-east-1"));
    assert!(!format!("{c:?}").contains("s3cr3t-value"));
}

/// docs/configuration.md is the configuration's documentation: every variable read here is
/// named there, and every variable with a row there is read here (or by what it names:
/// the site's files and the log filter are read at start by the binary).
#[test]
fn every_variable_is_documented_and_every_documented_one_is_read() {
    let code = include_str!("mod.rs");
    let docs = include_str!("../../../docs/configuration.md");
    let mut read = std::collections::BTreeSet::new();
    for call in ["get(\"", "secs(\"", "count(\""] {
        for (at, _) in code.match_indices(call) {
            let name: String = code[at + call.len()..].chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_').collect();
            if name.len() > 3 && code[at + call.len() + name.len()..].starts_with('"') {
                read.insert(name);
            }
        }
    }
    assert!(read.len() > 40 && read.contains("VONK_STREAMS_PER_SESSION"), "{read:?}");
    for name in &read {
        assert!(docs.contains(&format!("`{name}`")), "{name} is read but not in docs/configuration.md");
    }
    for row in docs.lines().filter(|l| l.starts_with("| `")) {
        let name = row.trim_start_matches("| `").split('`').next().unwrap_or_default();
        assert!(read.contains(name) || ["LEPTOS_SITE_ROOT", "RUST_LOG"].contains(&name), "{name} is documented but never read");
    }
}

#[test]
fn defaults() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.addr.to_string(), "127.0.0.1:3000");
    assert_eq!(c.database_url, "sqlite://./data/vonk.db");
    assert_eq!(c.seed, SeedMode::Demo);
    assert_eq!(c.site_cache_refresh, Duration::from_secs(60));
    assert_eq!(c.search_cache, Duration::from_secs(5));
    assert_eq!(c.member_cache, Duration::from_secs(60));
    assert_eq!(c.page_cache, Duration::from_secs(5));
    assert_eq!(c.streams, crate::streams::Limits { per_session: 4, per_node: 10_000, check_every: Duration::from_secs(2) });
    assert!(cfg(&[("VONK_STREAMS_PER_SESSION", "0")]).is_err() && cfg(&[("VONK_STREAM_CHECK_SECS", "x")]).is_err());
}

#[test]
fn data_dir_moves_the_default_database() {
    let c = cfg(&[("DATA_DIR", "/tmp/x"), ("VONK_ADDR", "127.0.0.1:0")]).unwrap();
    assert_eq!(c.database_url, "sqlite:///tmp/x/vonk.db");
    assert_eq!(c.addr.port(), 0);
}

#[test]
fn bad_values_are_rejected() {
    assert!(cfg(&[("VONK_ADDR", "nope")]).is_err());
    assert!(cfg(&[("VONK_SEED", "lots")]).is_err());
    assert!(cfg(&[("DATABASE_MAX_CONNECTIONS", "-1")]).is_err());
    assert!(cfg(&[("VONK_SMTP_URL", "http://mail.example.com")]).is_err());
    assert!(cfg(&[("VONK_MAIL_EVENTS_SECRET", "short")]).is_err());
    assert!(cfg(&[("VONK_RATE_LIMIT_FACTOR", "0")]).is_err());
    assert_eq!(cfg(&[("VONK_RATE_LIMIT_FACTOR", "10")]).unwrap().rate_limit_factor, 10);
    assert!(cfg(&[("VONK_RATE_LIMITS", "login=ten/60")]).is_err());
    let limits = cfg(&[("VONK_RATE_LIMITS", "login=50/60")]).unwrap().rate_limits;
    assert_eq!(limits.per_window(crate::http::rate_limit::Limit::Login), (50, 60));
}

#[test]
fn the_payment_provider_is_chosen_and_the_test_one_stays_off_https_sites() {
    let only = |pairs: &[(&str, &str)]| {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|k| map.get(k).cloned())
    };
    assert!(only(&[]).is_err(), "no silent default");
    assert_eq!(only(&[("VONK_PAYMENTS", "test")]).unwrap().payments, PaymentsChoice::Test);
    // A command that takes no payments reads the rest without it, and still refuses a wrong value.
    let without = |pairs: &[(&str, &str)]| {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup_with(|k| map.get(k).cloned(), false)
    };
    assert_eq!(without(&[("DATA_DIR", "/srv/vonk")]).unwrap().payments, PaymentsChoice::NotSet);
    assert!(without(&[("VONK_PAYMENTS", "paypal")]).is_err() && without(&[("MOLLIE_API_KEY", "live_x")]).is_err());
    assert!(only(&[("VONK_PAYMENTS", "stripe")]).is_err());
    assert!(only(&[("VONK_PAYMENTS", "mollie")]).is_err(), "mollie needs its key");
    assert!(only(&[("VONK_PAYMENTS", "test"), ("MOLLIE_API_KEY", "live_abc")]).is_err(), "a key with the test provider is a mistake");
    let mollie = only(&[("VONK_PAYMENTS", "mollie"), ("MOLLIE_API_KEY", "live_s3cret")]).unwrap();
    assert_eq!(mollie.payments, PaymentsChoice::Mollie { api_key: "live_s3cret".into() });
    assert!(!format!("{mollie:?}").contains("s3cret"));
    // Served over https: the test provider only when explicitly allowed.
    for https in [&[("VONK_SECURE_COOKIES", "true")][..], &[("VONK_PUBLIC_URL", "https://vonk.nl")][..]] {
        let mut pairs = vec![("VONK_PAYMENTS", "test")];
        pairs.extend_from_slice(https);
        let refused = only(&pairs).unwrap_err().to_string();
        assert!(refused.contains("VONK_ALLOW_TEST_PAYMENTS"), "{refused}");
        pairs.push(("VONK_ALLOW_TEST_PAYMENTS", "true"));
        assert_eq!(only(&pairs).unwrap().payments, PaymentsChoice::Test);
        let mut real = vec![("VONK_PAYMENTS", "mollie"), ("MOLLIE_API_KEY", "live_abc")];
        real.extend_from_slice(https);
        assert!(only(&real).is_ok());
    }
}

#[test]
fn debug_hides_database_password() {
    let c = cfg(&[("DATABASE_URL", "postgres://vonk:s3cret@db:5432/vonk")]).unwrap();
    let text = format!("{c:?}");
    assert!(!text.contains("s3cret"), "{text}");
    assert!(text.contains("postgres://vonk:***@db:5432/vonk"), "{text}");
}
