//! Web push against a fake push service started by the test: it checks every request's VAPID
//! signature (audience, subject, key) and decrypts the payload with the browser's keys. New
//! likes, matches and messages arrive in the member's language and as their preferences allow;
//! a 410 removes the subscription, and so does the end of its session; subscriptions for
//! unlisted services, bad keys or another member's session are refused.

use crate::support;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use base64ct::{Base64UrlUnpadded, Encoding as _};
use domain::likes::LikeSource;
use domain::push::Subscription;
use server::chat::bus::Bus;
use server::chat::{Chat, Content, To};
use server::credits::{self, Entry, Reason};
use server::locales::Catalog;
use server::push::{PushConfig, PushKind, Pusher};
use server::Db;
use support::world::{world, World, NOW};
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256PublicKey};
use web_push_native::jwt_simple::claims::NoCustomClaims;
use web_push_native::jwt_simple::common::VerificationOptions;
use web_push_native::p256;

const SUBJECT: &str = "mailto:support@vonk.example";

/// A browser: its push keys, as `pushManager.subscribe` makes them.
struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new() -> Browser {
        loop {
            let mut bytes = [0u8; 32];
            getrandom::getrandom(&mut bytes).unwrap();
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                let mut auth = [0u8; 16];
                getrandom::getrandom(&mut auth).unwrap();
                return Browser { secret, auth };
            }
        }
    }

    fn subscription(&self, endpoint: String) -> Subscription {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        Subscription {
            endpoint,
            p256dh: Base64UrlUnpadded::encode_string(self.secret.public_key().to_encoded_point(false).as_bytes()),
            auth: Base64UrlUnpadded::encode_string(&self.auth),
        }
    }
}

/// What the fake push service received and could read.
#[derive(Clone, Default)]
struct Received {
    pushes: Arc<Mutex<Vec<(String, serde_json::Value)>>>,
    refused: Arc<Mutex<Vec<String>>>,
}

/// Each subscribed browser's key pair and auth secret, by endpoint.
type Browsers = Arc<Mutex<std::collections::HashMap<String, (p256::SecretKey, [u8; 16])>>>;

struct FakePushService {
    base: String,
    received: Received,
    browsers: Browsers,
    task: tokio::task::JoinHandle<()>,
}

#[derive(Clone)]
struct FakeState {
    received: Received,
    browsers: Browsers,
    server_key: String,
}

async fn push(State(s): State<FakeState>, Path(id): Path<String>, headers: HeaderMap, body: axum::body::Bytes) -> StatusCode {
    let refuse = |why: &str| {
        s.received.refused.lock().unwrap().push(format!("{id}: {why}"));
        StatusCode::UNAUTHORIZED
    };
    let Some(auth) = headers.get("authorization").and_then(|v| v.to_str().ok()) else { return refuse("no authorization") };
    let Some(rest) = auth.strip_prefix("vapid ") else { return refuse("not vapid") };
    let parts: std::collections::HashMap<&str, &str> = rest.split(", ").filter_map(|p| p.split_once('=')).collect();
    let (Some(token), Some(key)) = (parts.get("t"), parts.get("k")) else { return refuse("no t or k") };
    if *key != s.server_key {
        return refuse("unknown application server key");
    }
    let public = ES256PublicKey::from_bytes(&Base64UrlUnpadded::decode_vec(key).unwrap()).unwrap();
    // RFC 8292: the audience is the push service's origin, here without its port.
    let options = VerificationOptions { allowed_audiences: Some(HashSet::from(["http://127.0.0.1".to_string()])), ..Default::default() };
    let claims = match public.verify_token::<NoCustomClaims>(token, Some(options)) {
        Ok(claims) => claims,
        Err(e) => return refuse(&format!("bad signature: {e}")),
    };
    if claims.subject.as_deref() != Some(SUBJECT) {
        return refuse("wrong subject");
    }
    if headers.get("content-encoding").and_then(|v| v.to_str().ok()) != Some("aes128gcm") || headers.get("ttl").is_none() {
        return refuse("missing content-encoding or ttl");
    }
    let Some((secret, auth)) = s.browsers.lock().unwrap().get(&id).cloned() else { return StatusCode::NOT_FOUND };
    let plain = match web_push_native::decrypt(body.to_vec(), &secret, web_push_native::Auth::from_slice(&auth)) {
        Ok(plain) => plain,
        Err(e) => return refuse(&format!("cannot decrypt: {e}")),
    };
    s.received.pushes.lock().unwrap().push((id, serde_json::from_slice(&plain).unwrap()));
    StatusCode::CREATED
}

impl FakePushService {
    async fn start(server_key: &str) -> FakePushService {
        let received = Received::default();
        let browsers = Arc::new(Mutex::new(std::collections::HashMap::new()));
        let state = FakeState { received: received.clone(), browsers: browsers.clone(), server_key: server_key.to_string() };
        let app = Router::new().route("/push/{id}", post(push)).route("/gone/{id}", post(|| async { StatusCode::GONE })).with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        FakePushService { base, received, browsers, task }
    }

    /// A browser whose subscription lives at `/push/{id}` on this service.
    fn browser(&self, id: &str) -> Subscription {
        let browser = Browser::new();
        self.browsers.lock().unwrap().insert(id.to_string(), (browser.secret.clone(), browser.auth));
        browser.subscription(format!("{}/push/{id}", self.base))
    }

    fn pushes_to(&self, id: &str) -> Vec<serde_json::Value> {
        self.received.pushes.lock().unwrap().iter().filter(|(to, _)| to == id).map(|(_, v)| v.clone()).collect()
    }

    /// Waits for background pushes until `id` has received `n`.
    async fn wait_for(&self, id: &str, n: usize) -> Vec<serde_json::Value> {
        for _ in 0..200 {
            if self.pushes_to(id).len() >= n {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.pushes_to(id)
    }
}

impl Drop for FakePushService {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A fake push service and a pusher whose key it knows and which lists it.
async fn setup(w: &World) -> (FakePushService, Pusher) {
    let (private_key, public_key) = server::push::new_vapid_keys();
    let service = FakePushService::start(&public_key).await;
    let config = PushConfig { private_key, subject: SUBJECT.into(), services: vec![service.base.clone()] };
    let pusher = Pusher::new(w.db.clone(), Some(&config), Arc::new(Catalog::embedded()), support::links()).unwrap();
    assert_eq!(pusher.public_key(), Some(public_key.as_str()));
    (service, pusher)
}

async fn rows(db: &Db) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM push_subscriptions").fetch_one(db.pool()).await.unwrap();
    n
}

/// A logged-in session of the member, as a browser holds it.
async fn session(w: &World, email: &str) -> String {
    w.accounts.login(w.site.id, email, "rode kater op het dak", None, &Default::default()).await.unwrap().session().unwrap()
}

async fn fund(w: &World, id: i64) -> server::accounts::Member {
    let mut tx = w.db.begin().await.unwrap();
    credits::book(&mut tx, Entry { user_id: id, delta: 1000, reason: Reason::Adjustment, reference: &format!("adjustment:push:{id}") }, NOW).await.unwrap();
    tx.commit().await.unwrap();
    sqlx::query("UPDATE users SET free_messages_used = 1000 WHERE id = $1").bind(id).execute(w.db.pool()).await.unwrap();
    w.reload(id).await
}

on_both_databases!(likes_matches_and_messages_reach_the_browser_signed_and_encrypted, |db: Db| async move {
    let w = world(db.clone()).await;
    let (service, push) = setup(&w).await;
    let likes = server::likes::Likes::new(w.members.clone()).with_push(push.clone());
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused")).with_push(push.clone());
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id).await;
    let bob = fund(&w, w.member("bob@example.nl", "male").await.id).await;
    sqlx::query("UPDATE users SET language = 'en' WHERE id = $1").bind(bob.id).execute(db.pool()).await.unwrap();
    let (anna_session, bob_laptop, bob_phone) =
        (session(&w, "anna@example.nl").await, session(&w, "bob@example.nl").await, session(&w, "bob@example.nl").await);
    push.subscribe(anna.id, &anna_session, service.browser("anna-phone"), NOW).await.unwrap();
    push.subscribe(bob.id, &bob_laptop, service.browser("bob-laptop"), NOW).await.unwrap();
    push.subscribe(bob.id, &bob_phone, service.browser("bob-phone"), NOW).await.unwrap();
    assert_eq!(push.subscriptions(bob.id).await.unwrap(), 2);

    // Anna likes Bob: both of Bob's browsers hear it, in English, and nobody else.
    likes.like(&w.site, &anna, bob.id, LikeSource::Profile, NOW).await.unwrap();
    let got = service.wait_for("bob-phone", 1).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["type"], "like");
    assert_eq!(got[0]["body"], "Anna likes you");
    assert_eq!(got[0]["url"], format!("/likes/m/{}", anna.id));
    assert_eq!(got[0]["title"], w.site.name.as_str());
    assert_eq!(service.wait_for("bob-laptop", 1).await.len(), 1);
    // Liking again tells no one again.
    likes.like(&w.site, &anna, bob.id, LikeSource::Profile, NOW).await.unwrap();
    // Bob likes back: a match, in Dutch for Anna.
    likes.like(&w.site, &bob, anna.id, LikeSource::Profile, NOW).await.unwrap();
    let got = service.wait_for("anna-phone", 1).await;
    assert_eq!(got[0]["body"], "Het is een match met Anna!".replace("Anna!", &format!("{}!", bob.name)));

    // A message: the push leads to the conversation and carries no message text.
    let sent = chat.send(&w.site, &anna, To::Member(bob.id), "client-id-push-01", Content::Text("geheim bericht".into()), NOW).await.unwrap();
    let got = service.wait_for("bob-phone", 2).await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1]["type"], "message");
    assert_eq!(got[1]["url"], format!("/chats/{}", sent.message.conversation));
    assert_eq!(got[1]["tag"], format!("chat-{}", sent.message.conversation));
    assert!(!got[1].to_string().contains("geheim"));
    assert!(service.received.refused.lock().unwrap().is_empty(), "{:?}", service.received.refused.lock().unwrap());

    // Bob turns off message notifications: the next message pushes nothing; likes still do.
    sqlx::query("UPDATE users SET notify_messages = $1 WHERE id = $2").bind(false).bind(bob.id).execute(db.pool()).await.unwrap();
    assert_eq!(push.send(&w.site.name, bob.id, anna.id, PushKind::Message { conversation: sent.message.conversation }).await.unwrap(), 0);
    assert_eq!(push.send(&w.site.name, bob.id, anna.id, PushKind::Like { matched: false }).await.unwrap(), 2);
    assert_eq!(service.pushes_to("bob-phone").len(), 3);

    // Bob logs out on his laptop: that browser gets no more of his pushes; the phone does.
    w.accounts.logout(&bob_laptop).await.unwrap();
    assert_eq!(push.subscriptions(bob.id).await.unwrap(), 1);
    assert_eq!(push.send(&w.site.name, bob.id, anna.id, PushKind::Like { matched: false }).await.unwrap(), 1);
    assert_eq!((service.pushes_to("bob-laptop").len(), service.pushes_to("bob-phone").len()), (3, 4));
    db.close().await;
});

on_both_databases!(gone_subscriptions_are_removed_and_others_left_alone, |db: Db| async move {
    let w = world(db.clone()).await;
    let (service, push) = setup(&w).await;
    let anna = w.member("anna@example.nl", "female").await;
    let bob = w.member("bob@example.nl", "male").await;
    let (anna_session, bob_session) = (session(&w, "anna@example.nl").await, session(&w, "bob@example.nl").await);
    let phone = service.browser("anna-phone");
    push.subscribe(anna.id, &anna_session, phone.clone(), NOW).await.unwrap();
    let mut old = service.browser("anna-old");
    old.endpoint = format!("{}/gone/anna-old", service.base);
    push.subscribe(anna.id, &anna_session, old, NOW).await.unwrap();
    assert_eq!(rows(&db).await, 2);
    // The service answers 410 for the old browser: that subscription goes, the phone stays.
    assert_eq!(push.send(&w.site.name, anna.id, bob.id, PushKind::Like { matched: false }).await.unwrap(), 1);
    assert_eq!(rows(&db).await, 1);
    assert_eq!(service.pushes_to("anna-phone").len(), 1);

    // Bob cannot store a subscription with Anna's session.
    push.subscribe(bob.id, &anna_session, service.browser("bob-sneaky"), NOW).await.unwrap();
    assert_eq!(push.subscriptions(bob.id).await.unwrap(), 0);
    // The same browser logging in as Bob takes the subscription along: Anna's pushes stop there.
    push.subscribe(bob.id, &bob_session, phone.clone(), NOW).await.unwrap();
    assert_eq!((push.subscriptions(anna.id).await.unwrap(), push.subscriptions(bob.id).await.unwrap()), (0, 1));

    // Made-up endpoints in bulk keep only the newest few.
    for i in 0..30 {
        let mut sub = service.browser("flood");
        sub.endpoint = format!("{}/push/flood-{i}", service.base);
        push.subscribe(bob.id, &bob_session, sub, NOW).await.unwrap();
    }
    assert_eq!(push.subscriptions(bob.id).await.unwrap(), server::push::MAX_SUBSCRIPTIONS);
    db.close().await;
});

on_both_databases!(bad_or_foreign_subscriptions_store_nothing, |db: Db| async move {
    let w = world(db.clone()).await;
    let (service, push) = setup(&w).await;
    let anna = w.member("anna@example.nl", "female").await;
    let anna_session = session(&w, "anna@example.nl").await;
    let good = service.browser("anna-phone");
    let refused = |r: Result<(), server::AppError>| r.err().map(|e| e.code());
    for bad in [
        // Not a listed push service: the server would otherwise post wherever a member asks.
        Subscription { endpoint: "http://127.0.0.1:1/push/x".into(), ..good.clone() },
        Subscription { endpoint: "https://169.254.169.254/latest/meta-data".into(), ..good.clone() },
        Subscription { endpoint: "https://fcm.googleapis.com/fcm/send/x".into(), ..good.clone() },
        Subscription { p256dh: "BAAA".into(), ..good.clone() },
        Subscription { auth: "x".into(), ..good.clone() },
    ] {
        assert_eq!(refused(push.subscribe(anna.id, &anna_session, bad.clone(), NOW).await), Some(domain::ErrorCode::BadRequest), "{bad:?}");
    }
    assert_eq!(rows(&db).await, 0);

    // Without a key, push is off: nothing stored, nothing sent.
    let off = Pusher::new(w.db.clone(), None, Arc::new(Catalog::embedded()), support::links()).unwrap();
    assert_eq!(off.public_key(), None);
    assert!(off.subscribe(anna.id, &anna_session, good, NOW).await.is_err());
    assert_eq!(rows(&db).await, 0);
    db.close().await;
});

#[test]
fn a_bad_private_key_stops_the_start() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let (db, _dir) = support::sqlite().await;
        for key in ["", "not base64!", "AAAA"] {
            let config = PushConfig { private_key: key.into(), subject: SUBJECT.into(), services: vec![] };
            assert!(Pusher::new(db.clone(), Some(&config), Arc::new(Catalog::embedded()), support::links()).is_err(), "{key:?}");
        }
    });
}

/// The mails to `email` about messages (a conversation's link, or a digest), as written to
/// the outbox.
fn mails_to(w: &World, email: &str) -> Vec<String> {
    std::fs::read_dir(w.mail.path())
        .map(|dir| dir.filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok()).filter(|m| m.contains(&format!("To: {email}"))).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|m| m.contains("/chats/") || m.contains("kind=unread_digest"))
        .collect()
}

on_both_databases!(a_message_or_lifecycle_notice_goes_by_push_where_a_browser_takes_it_else_by_mail, |db: Db| async move {
    let w = world(db.clone()).await;
    let (service, push) = setup(&w).await;
    let jobs = server::jobs::Jobs::new(db.clone(), w.accounts.clock().clone(), "node-a");
    let sites = server::sites::SiteCache::load(db.clone()).await.unwrap();
    server::lifecycle::Lifecycle::new(w.accounts.clone(), sites, "http://vonk.test").with_push(push.clone()).register(&jobs);
    let chat = Chat::new(w.members.clone(), Bus::start(w.db.clone(), "sqlite://unused"))
        .with_mail(w.accounts.clone(), "http://vonk.test".into())
        .with_push(push.clone());
    let anna = fund(&w, w.member("anna@example.nl", "female").await.id).await;
    let bob = fund(&w, w.member("bob@example.nl", "male").await.id).await;
    let carl = fund(&w, w.member("carl@example.nl", "male").await.id).await;
    sqlx::query("UPDATE profiles SET name = 'Bob' WHERE user_id = $1").bind(bob.id).execute(db.pool()).await.unwrap();
    push.subscribe(anna.id, &session(&w, "anna@example.nl").await, service.browser("anna-phone"), NOW).await.unwrap();
    // Carl's browser is gone from its push service: a push to it fails.
    let gone = Browser::new().subscription(format!("{}/gone/carl", service.base));
    push.subscribe(carl.id, &session(&w, "carl@example.nl").await, gone, NOW).await.unwrap();

    // Bob writes to Anna: her phone hears it, and no mail goes (never both).
    chat.send(&w.site, &bob, To::Member(anna.id), "client-id-chan-01", Content::Text("hoi Anna".into()), NOW).await.unwrap();
    // Anna writes to Bob, who has no browser subscribed: a mail. Carl's push fails: a mail.
    chat.send(&w.site, &anna, To::Member(bob.id), "client-id-chan-02", Content::Text("hoi Bob".into()), NOW).await.unwrap();
    chat.send(&w.site, &bob, To::Member(carl.id), "client-id-chan-03", Content::Text("hoi Carl".into()), NOW).await.unwrap();
    chat.background_done().await;
    assert_eq!(service.pushes_to("anna-phone").len(), 1);
    assert!(mails_to(&w, "anna@example.nl").is_empty(), "pushed, so not mailed");
    assert_eq!(mails_to(&w, "bob@example.nl").len(), 1);
    assert_eq!(mails_to(&w, "carl@example.nl").len(), 1, "the push failed, so a mail");

    // Six hours on, Anna has not read it: her digest comes by push too, with a sign-in link.
    w.accounts.clock().advance(6 * 3600);
    jobs.run_due().await.unwrap();
    let got = service.pushes_to("anna-phone");
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1]["type"], "notice");
    assert_eq!(got[1]["body"], "Ongelezen berichten van Bob");
    let url = got[1]["url"].as_str().unwrap();
    assert!(url.len() == 65 && url.starts_with('/') && url[1..].chars().all(|c| c.is_ascii_hexdigit()), "a sign-in link: {url}");
    assert!(mails_to(&w, "anna@example.nl").is_empty());
    let channels: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT channel, message_id FROM lifecycle_sent WHERE user_id = $1").bind(anna.id).fetch_all(db.pool()).await.unwrap();
    assert_eq!(channels, vec![("push".to_string(), None)]);
    // Bob's and Carl's conversations were mailed already: no digest for them.
    let (sent,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM lifecycle_sent").fetch_one(db.pool()).await.unwrap();
    assert_eq!(sent, 1);
    db.close().await;
});
