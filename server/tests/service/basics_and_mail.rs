//! Profile basics (`/complete-signup`, location), region data, mail preferences, one-click
//! unsubscribe, bounce and spam reports, dismissed alerts, and SMTP delivery, on a real SQLite
//! file and a real PostgreSQL.

use crate::support;

use std::sync::Arc;

use domain::account::{SignupForm, Tracking};
use domain::profile::{BasicsForm, LocationForm};
use domain::site::SiteSettings;
use domain::Locale;
use server::accounts::{Accounts, DisabledReason, NotificationKind, NotificationPrefs, SignupRequest};
use server::clock::Clock;
use server::locales::Catalog;
use server::mail::{Mail, Outbox};
use server::members::Members;
use server::regions::Regions;
use server::seed::seed_if_empty;
use server::Db;

const NOW: i64 = 1_795_348_800;

struct Ctx {
    db: Db,
    accounts: Accounts,
    members: Members,
    site: SiteSettings,
    mail_dir: tempfile::TempDir,
}

async fn ctx(db: Db) -> Ctx {
    seed_if_empty(&db).await.unwrap();
    let site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap().settings;
    let mail_dir = tempfile::tempdir().unwrap();
    let accounts = Accounts::new(db.clone(), Clock::fixed(NOW), Outbox::files(mail_dir.path().to_path_buf()), Arc::new(Catalog::embedded()), support::links());
    let members = Members::new(db.clone(), Arc::new(Regions::load(&db).await.unwrap()), std::time::Duration::ZERO);
    Ctx { db, accounts, members, site, mail_dir }
}

async fn signup(c: &Ctx, email: &str) -> (i64, String) {
    let form = SignupForm {
        email: email.into(),
        name: "Anna".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1990-05-17".into(),
        signup_message: String::new(),
    };
    c.accounts
        .signup(SignupRequest {
            site: &c.site,
            form,
            tracking: Tracking::default(),
            locale: Locale::Nl,
            base_url: "http://127.0.0.1:3000".into(),
            client: Default::default(),
            invitation: None,
        })
        .await
        .unwrap()
}

fn mails(dir: &tempfile::TempDir) -> Vec<String> {
    let mut list: Vec<String> =
        std::fs::read_dir(dir.path()).map(|d| d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect()).unwrap_or_default();
    list.sort();
    list
}

fn basics(gender: &str, sexuality: &str, country: &str, region: &str, city: &str) -> BasicsForm {
    BasicsForm {
        gender: gender.into(),
        sexuality: sexuality.into(),
        location: LocationForm { country: country.into(), region: region.into(), city: city.into() },
    }
}

on_both_databases!(region_data_is_in_the_database, |db: Db| async move {
    let c = ctx(db).await;
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM regions").fetch_one(c.db.pool()).await.unwrap();
    assert_eq!(count as usize, server::regions::shipped().len());
    let nl: Vec<String> = c.members.regions_for(&c.site).iter().filter(|r| r.country == "NL").map(|r| r.name.clone()).collect();
    assert_eq!(nl.len(), 12);
    assert!(nl.contains(&"Noord-Holland".to_string()));
    // The default site serves NL and BE only: a position in Germany finds nothing there.
    assert_eq!(c.members.guess_region(&c.site, 52.37, 4.90).map(|r| r.code), Some("NL-NH".into()));
    assert_eq!(c.members.guess_region(&c.site, 50.85, 4.35).map(|r| r.code), Some("BE-BRU".into()));
    assert_eq!(c.members.guess_region(&c.site, 48.14, 11.58), None);
    // Syncing again changes nothing.
    server::regions::sync(&c.db).await.unwrap();
});

on_both_databases!(complete_signup_saves_basics_and_refuses_bad_input, |db: Db| async move {
    let c = ctx(db).await;
    let (id, session) = signup(&c, "anna@example.nl").await;
    let m = c.accounts.member_for_session(&session).await.unwrap().unwrap();
    assert!(!m.basics_complete);
    assert_eq!(m.profile_status, domain::account::ProfileStatus::Disabled, "hidden until the address is confirmed");

    // Every bad input answers with its text and changes nothing.
    for (form, key) in [
        (basics("", "hetero", "NL", "NL-NH", "Haarlem"), "validation.gender_required"),
        (basics("male", "lesbian", "NL", "NL-NH", "Haarlem"), "validation.sexuality_required"),
        (basics("female", "hetero", "DE", "DE-BY", "München"), "validation.country_required"),
        (basics("female", "hetero", "NL", "BE-VAN", "Haarlem"), "validation.region_required"),
        (basics("female", "hetero", "NL", "NL-NH", ""), "validation.city_required"),
        (basics("female", "hetero", "NL", "NL-NH", "<b>Haarlem</b>"), "validation.city_invalid"),
    ] {
        assert_eq!(c.members.save_basics(&c.site, id, &form).await.unwrap_err().code().locale_key(), key);
        let stored = c.members.basics(id).await.unwrap();
        assert_eq!((stored.gender, stored.region, stored.city), (None, None, None), "{key} changed nothing");
    }

    c.members.save_basics(&c.site, id, &basics("female", "bi", "nl", "NL-NH", " Haarlem ")).await.unwrap();
    let stored = c.members.basics(id).await.unwrap();
    assert_eq!(stored.gender.as_deref(), Some("female"));
    assert_eq!(stored.sexuality.as_deref(), Some("bi"));
    assert_eq!((stored.country.as_deref(), stored.region.as_deref(), stored.city.as_deref()), (Some("NL"), Some("NL-NH"), Some("Haarlem")));
    assert!(c.accounts.member(id).await.unwrap().unwrap().basics_complete);

    // The location alone, from the settings.
    c.members.save_location(&c.site, id, &LocationForm { country: "BE".into(), region: "BE-VOV".into(), city: "Gent".into() }).await.unwrap();
    let bad = LocationForm { country: "BE".into(), region: "NL-NH".into(), city: "Gent".into() };
    assert_eq!(c.members.save_location(&c.site, id, &bad).await.unwrap_err().code().locale_key(), "validation.region_required");
    assert_eq!(c.members.basics(id).await.unwrap().region.as_deref(), Some("BE-VOV"));

    // Confirming the address shows the profile.
    let mail = mails(&c.mail_dir).remove(0).replace("=\r\n", "").replace("=3D", "=");
    let start = mail.find("/activate?token=").unwrap() + "/activate?token=".len();
    c.accounts.activate(&mail[start..start + 64]).await.unwrap();
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().profile_status, domain::account::ProfileStatus::Active);
});

/// The unsubscribe URL of the newest mail's List-Unsubscribe header.
fn list_unsubscribe(mail: &str) -> String {
    let line = mail.lines().find(|l| l.starts_with("List-Unsubscribe: ")).expect("List-Unsubscribe header");
    line.trim_start_matches("List-Unsubscribe: <").trim_end_matches('>').to_string()
}

on_both_databases!(preferences_unsubscribe_bounces_and_alerts, |db: Db| async move {
    let c = ctx(db).await;
    let (id, _) = signup(&c, "anna@example.nl").await;
    let (other, _) = signup(&c, "bart@example.nl").await;
    assert_eq!(c.accounts.notification_prefs(id).await.unwrap(), NotificationPrefs { messages: true, likes: true, news: true });
    assert!(c.accounts.may_mail(id, NotificationKind::Like).await.unwrap());

    // The member's own choice.
    c.accounts.set_notification_prefs(id, NotificationPrefs { messages: true, likes: false, news: false }).await.unwrap();
    assert!(c.accounts.may_mail(id, NotificationKind::Message).await.unwrap());
    assert!(!c.accounts.may_mail(id, NotificationKind::Like).await.unwrap());
    assert!(c.accounts.member(id).await.unwrap().unwrap().alerts.notifications_disabled.is_empty(), "a choice is not an alert");

    // Every mail carries List-Unsubscribe with RFC 8058's one-click marker, and the footer link.
    let sent = mails(&c.mail_dir);
    let anna = sent.iter().find(|m| m.contains("To: anna@example.nl")).unwrap();
    assert!(anna.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    let url = list_unsubscribe(anna);
    assert!(url.starts_with("http://127.0.0.1:3000/api/unsubscribe?token="), "one-click goes to the POST endpoint: {url}");
    let token = url.split("token=").nth(1).unwrap().to_string();
    let bart = sent.iter().find(|m| m.contains("To: bart@example.nl")).unwrap();
    assert_ne!(list_unsubscribe(bart), url, "each member has an own link");

    // One click switches notification mails off for that member only; unknown tokens do nothing.
    assert!(!c.accounts.unsubscribe("x".repeat(64).as_str()).await.unwrap());
    assert!(c.accounts.unsubscribe(&token).await.unwrap());
    assert!(c.accounts.unsubscribe(&token).await.unwrap(), "twice is fine");
    assert!(!c.accounts.may_mail(id, NotificationKind::Message).await.unwrap());
    assert!(c.accounts.may_mail(other, NotificationKind::Message).await.unwrap());
    assert_eq!(c.accounts.member(id).await.unwrap().unwrap().alerts.notifications_disabled, ["list_unsubscribe"]);
    // The same link in the next mail.
    assert_eq!(c.accounts.unsubscribe_token(id).await.unwrap(), token);

    // Saving preferences again is a fresh choice and lifts list-unsubscribe.
    c.accounts.set_notification_prefs(id, NotificationPrefs { messages: true, likes: true, news: false }).await.unwrap();
    assert!(c.accounts.may_mail(id, NotificationKind::Message).await.unwrap());

    // The provider reports a bounce: mails stop, the alert shows, dismissing it holds.
    assert_eq!(c.accounts.mail_event(" ANNA@example.nl", DisabledReason::Bounce).await.unwrap(), 1);
    assert!(!c.accounts.may_mail(id, NotificationKind::Message).await.unwrap());
    c.accounts.dismiss_alert(id, "notifications_disabled").await.unwrap();
    assert!(c.accounts.dismiss_alert(id, "made_up").await.is_err());
    let m = c.accounts.member(id).await.unwrap().unwrap();
    assert_eq!(m.alerts.notifications_disabled, ["bounce"]);
    assert_eq!(m.alerts.dismissed, ["notifications_disabled"]);
    // A new reason brings the alert back.
    c.accounts.mail_event("anna@example.nl", DisabledReason::Spam).await.unwrap();
    let m = c.accounts.member(id).await.unwrap().unwrap();
    assert_eq!(m.alerts.notifications_disabled, ["bounce", "spam"]);
    assert!(m.alerts.dismissed.is_empty());
    // Settings do not lift a bounce or a spam report; turning notifications on does.
    c.accounts.set_notification_prefs(id, NotificationPrefs { messages: true, likes: true, news: true }).await.unwrap();
    assert!(!c.accounts.may_mail(id, NotificationKind::Message).await.unwrap());
    c.accounts.enable_notifications(id).await.unwrap();
    assert!(c.accounts.may_mail(id, NotificationKind::Message).await.unwrap());
    assert!(c.accounts.member(id).await.unwrap().unwrap().alerts.notifications_disabled.is_empty());
    // Unknown addresses are ignored.
    assert_eq!(c.accounts.mail_event("nobody@example.nl", DisabledReason::Bounce).await.unwrap(), 0);
});

/// A minimal SMTP server: accepts one mail and returns what it received.
async fn fake_smtp() -> (u16, tokio::task::JoinHandle<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read).lines();
        let mut received = String::new();
        write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
        let mut in_data = false;
        while let Ok(Some(line)) = lines.next_line().await {
            if in_data {
                if line == "." {
                    // The pooled client keeps the connection open: one mail is all we wait for.
                    write.write_all(b"250 queued\r\n").await.unwrap();
                    break;
                } else {
                    received.push_str(&line);
                    received.push('\n');
                }
                continue;
            }
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("MAIL FROM") {
                // The envelope, before the message.
                received.push_str(&line);
                received.push('\n');
            }
            let answer: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                b"250-fake\r\n250 8BITMIME\r\n"
            } else if upper.starts_with("DATA") {
                in_data = true;
                b"354 go on\r\n"
            } else if upper.starts_with("QUIT") {
                write.write_all(b"221 bye\r\n").await.unwrap();
                break;
            } else {
                b"250 ok\r\n"
            };
            write.write_all(answer).await.unwrap();
        }
        received
    });
    (port, handle)
}

#[tokio::test]
async fn smtp_outbox_delivers_through_the_configured_server() {
    let (port, server) = fake_smtp().await;
    let outbox = Outbox::from_config(Some(&format!("smtp://127.0.0.1:{port}")), std::path::Path::new("/nonexistent")).unwrap();
    assert_eq!(format!("{outbox:?}"), "Outbox { transport: Smtp, dkim: None, bounce_address: None }", "never the SMTP credentials");
    outbox
        .send(Mail {
            from_name: "Vonk".into(),
            from_address: "support@vonk.example".into(),
            to: "anna@example.nl".into(),
            subject: "Hallo".into(),
            text: "Tekst".into(),
            html: "<p>Tekst</p>".into(),
            unsubscribe: Some("https://vonk.example/unsubscribe?token=abc".into()),
        })
        .await
        .unwrap();
    let received = tokio::time::timeout(std::time::Duration::from_secs(10), server).await.unwrap().unwrap();
    assert!(received.contains("To: anna@example.nl"), "{received}");
    assert!(received.contains("Subject: Hallo"));
    assert!(received.contains("List-Unsubscribe: <https://vonk.example/unsubscribe?token=abc>"));
    assert!(received.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
}

#[tokio::test]
async fn bounces_go_to_the_bounce_address_when_one_is_set() {
    let (port, server) = fake_smtp().await;
    let outbox = Outbox::from_config(Some(&format!("smtp://127.0.0.1:{port}")), std::path::Path::new("/nonexistent"))
        .unwrap()
        .with_bounce_address(Some("bounces@vonk.example".parse().unwrap()));
    outbox
        .send(Mail {
            from_name: "Vonk".into(),
            from_address: "support@vonk.example".into(),
            to: "anna@example.nl".into(),
            subject: "Hallo".into(),
            text: "Tekst".into(),
            html: "<p>Tekst</p>".into(),
            unsubscribe: None,
        })
        .await
        .unwrap();
    let received = tokio::time::timeout(std::time::Duration::from_secs(10), server).await.unwrap().unwrap();
    assert!(received.starts_with("MAIL FROM:<bounces@vonk.example>"), "{received}");
    assert!(received.contains("From: Vonk <support@vonk.example>"), "the visible sender stays");
}

#[tokio::test]
async fn a_bad_smtp_url_is_refused_at_start() {
    assert!(Outbox::from_config(Some("smtp://"), std::path::Path::new("/tmp")).is_err());
}
