//! Mail that arrives: every mail has its own `Message-ID` in the sender's domain and a `Date`,
//! and with a DKIM key configured a signature that a well-kept verifier (mail-auth, with the
//! public key as DNS would give it) accepts — for RSA and Ed25519 keys — and that breaks when
//! the mail is altered. Bad keys stop the start.

use std::sync::Arc;

use base64ct::Encoding;
use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::verify::DomainKey;
use mail_auth::{AuthenticatedMessage, DkimResult, MessageAuthenticator, Parameters, ResolverCache, Txt};
use server::mail::{Dkim, Mail, Outbox};

const RSA_KEY: &str = include_str!("../fixtures/dkim-test-rsa.pem");
const RSA_PUBLIC: &str = include_str!("../fixtures/dkim-test-rsa.pub.b64");
const ED25519_KEY: &str = include_str!("../fixtures/dkim-test-ed25519.key");

fn mail() -> Mail {
    Mail {
        from_name: "Vonk".into(),
        from_address: "support@vonk.example".into(),
        to: "anna@example.nl".into(),
        subject: "Bevestig je e-mailadres".into(),
        text: "Hoi Anna,\r\n\r\nklik op de knop.\r\n".into(),
        html: "<p>Hoi Anna,</p><p>klik op de knop.</p>".into(),
        unsubscribe: Some("https://vonk.example/api/unsubscribe?token=abc&kind=confirm_reminder".into()),
    }
}

/// Sends one mail through an outbox that writes files, and reads it back.
async fn sent(dkim: Option<Dkim>) -> String {
    let dir = tempfile::tempdir().unwrap();
    Outbox::files(dir.path()).with_dkim(dkim).send(mail()).await.unwrap();
    let file = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
    std::fs::read_to_string(file).unwrap()
}

/// A DNS that knows one TXT record: the selector's public key.
struct OneKey(String, Txt);

impl ResolverCache<String, Txt> for OneKey {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        String: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        let key: &Q = std::borrow::Borrow::borrow(&self.0);
        (key == name).then(|| self.1.clone())
    }
    fn remove<Q>(&self, _: &Q) -> Option<Txt>
    where
        String: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        None
    }
    fn insert(&self, _: String, _: Txt, _: std::time::Instant) {}
}

async fn verify(raw: &str, record: &str) -> Vec<DkimResult> {
    let dns = OneKey("vonk._domainkey.vonk.example.".into(), Txt::from(DomainKey::parse(record.as_bytes()).unwrap()));
    let authenticator = MessageAuthenticator::new(Default::default(), Default::default()).unwrap();
    let message = AuthenticatedMessage::parse(raw.as_bytes()).unwrap();
    let results = authenticator.verify_dkim(Parameters::new(&message).with_txt_cache(&dns)).await;
    results.into_iter().map(|r| r.result().clone()).collect()
}

fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.lines().find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

#[tokio::test]
async fn every_mail_has_a_message_id_in_the_senders_domain_and_a_date() {
    let first = sent(None).await;
    let second = sent(None).await;
    let id = header(&first, "Message-ID").expect("a Message-ID");
    assert!(id.starts_with('<') && id.ends_with("@vonk.example>"), "{id}");
    assert_ne!(Some(id), header(&second, "Message-ID"), "each mail its own");
    assert!(header(&first, "Date").is_some());
    assert!(!first.contains("DKIM-Signature"), "no key, no signature");
}

#[tokio::test]
async fn an_rsa_signature_verifies_and_breaks_when_the_mail_is_altered() {
    let raw = sent(Some(Dkim::new("vonk", RSA_KEY).unwrap())).await;
    assert!(raw.contains("DKIM-Signature: "));
    let record = format!("v=DKIM1; k=rsa; p={}", RSA_PUBLIC.trim());
    assert_eq!(verify(&raw, &record).await, vec![DkimResult::Pass]);
    // The unsubscribe headers are signed (one-click unsubscribe counts only then).
    let signature = raw.split("DKIM-Signature: ").nth(1).unwrap();
    let signed = signature.split("h=").nth(1).unwrap().split(';').next().unwrap().replace(['\r', '\n', ' ', '\t'], "").to_lowercase();
    for name in ["from", "to", "subject", "date", "message-id", "list-unsubscribe", "list-unsubscribe-post"] {
        assert!(signed.split(':').any(|h| h == name), "{name} in h={signed}");
    }
    let altered = raw.replace("Subject: Bevestig", "Subject: Betaal");
    assert!(!matches!(verify(&altered, &record).await.as_slice(), [DkimResult::Pass]), "an altered subject fails");
    let other_key = format!("v=DKIM1; k=rsa; p={}", include_str!("../fixtures/dkim-other-rsa.pub.b64").trim());
    assert!(!matches!(verify(&raw, &other_key).await.as_slice(), [DkimResult::Pass]), "another key fails");
}

#[tokio::test]
async fn an_ed25519_signature_verifies() {
    let secret: [u8; 32] = base64ct::Base64::decode_vec(ED25519_KEY.trim()).unwrap().try_into().unwrap();
    let public = ed25519_dalek::SigningKey::from_bytes(&secret).verifying_key();
    let raw = sent(Some(Dkim::new("vonk", ED25519_KEY).unwrap())).await;
    let record = format!("v=DKIM1; k=ed25519; p={}", base64ct::Base64::encode_string(public.as_bytes()));
    assert_eq!(verify(&raw, &record).await, vec![DkimResult::Pass]);
}

#[test]
fn a_bad_key_or_selector_is_refused() {
    assert!(Dkim::new("vonk", "not a key").is_err());
    assert!(Dkim::new("vonk", "-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----").is_err(), "PKCS#8 is named, not guessed");
    assert!(Dkim::new("", RSA_KEY).is_err());
    assert!(Dkim::new("a;b=c", RSA_KEY).is_err());
    // The key never shows in logs.
    let dkim = Dkim::new("vonk", RSA_KEY).unwrap();
    assert!(!format!("{dkim:?}").contains("PRIVATE"));
    let _ = Arc::new(dkim);
}
