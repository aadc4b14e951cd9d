//! Web push (RFC 8030, payloads encrypted per RFC 8291, VAPID per RFC 8292) through
//! `web-push-native`: subscriptions per browser, and a push for each new message, like and match
//! to the member's browsers as their preferences allow. A push service that answers 404 or 410
//! has dropped the subscription, and so do we.
//!
//! Pushes go only to the push services the operator lists (`VONK_PUSH_SERVICES`, by default the
//! browsers' own), so a member cannot make the server post to an address of their choosing.

use std::sync::Arc;
use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding as _};
use domain::push::Subscription;
use sqlx::Row;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};
use web_push_native::{p256, Auth, WebPushBuilder};

use crate::db::{flag, Db};
use crate::error::AppError;
use crate::links::Links;
use crate::locales::Catalog;

/// The push services of Chrome/Edge (FCM), Firefox, Safari and Windows.
pub const DEFAULT_SERVICES: [&str; 5] = [
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://web.push.apple.com",
    "https://*.push.apple.com",
    "https://*.notify.windows.com",
];

/// The most browsers one member keeps subscribed; older subscriptions make way.
pub const MAX_SUBSCRIPTIONS: i64 = 20;

/// `VONK_VAPID_PRIVATE_KEY`, `VONK_VAPID_SUBJECT`, `VONK_PUSH_SERVICES`.
#[derive(Clone)]
pub struct PushConfig {
    /// The VAPID private key: 32 bytes, base64url (`vonk vapid-keys` makes one).
    pub private_key: String,
    /// How push services reach the operator: `mailto:…` or `https://…`.
    pub subject: String,
    /// Push service origins accepted for subscriptions (see [`Subscription::served_by`]).
    pub services: Vec<String>,
}

impl std::fmt::Debug for PushConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushConfig").field("private_key", &"***").field("subject", &self.subject).field("services", &self.services).finish()
    }
}

/// A new VAPID key pair as (private, public), both base64url: the public one is what browsers
/// subscribe with.
pub fn new_vapid_keys() -> (String, String) {
    let pair = ES256KeyPair::generate();
    (Base64UrlUnpadded::encode_string(&pair.to_bytes()), Base64UrlUnpadded::encode_string(&pair.public_key().public_key().to_bytes_uncompressed()))
}

/// What a push is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushKind {
    Message { conversation: i64 },
    Like { matched: bool },
}

struct Keys {
    pair: ES256KeyPair,
    public_key: String,
    subject: String,
    services: Vec<String>,
    client: reqwest::Client,
}

/// Sends pushes; without a configured key it stores nothing and sends nothing.
#[derive(Clone)]
pub struct Pusher {
    db: Db,
    keys: Option<Arc<Keys>>,
    catalog: Arc<Catalog>,
    links: Links,
}

impl std::fmt::Debug for Pusher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pusher").field("enabled", &self.keys.is_some()).finish()
    }
}

impl Pusher {
    pub fn new(db: Db, config: Option<&PushConfig>, catalog: Arc<Catalog>, links: Links) -> Result<Pusher, AppError> {
        let keys = match config {
            None => None,
            Some(config) => {
                let bad = |what: &str| AppError::Internal(format!("VONK_VAPID_PRIVATE_KEY: {what}"));
                let bytes = Base64UrlUnpadded::decode_vec(config.private_key.trim().trim_end_matches('=')).map_err(|_| bad("not base64url"))?;
                if bytes.len() != 32 {
                    return Err(bad("not 32 bytes"));
                }
                let pair = ES256KeyPair::from_bytes(&bytes).map_err(|_| bad("not a P-256 private key"))?;
                let public_key = Base64UrlUnpadded::encode_string(&pair.public_key().public_key().to_bytes_uncompressed());
                let client = reqwest::Client::builder()
                    .timeout(Duration::from_secs(10))
                    .redirect(reqwest::redirect::Policy::none())
                    .build()
                    .map_err(|e| AppError::Internal(format!("push client: {e}")))?;
                Some(Arc::new(Keys { pair, public_key, subject: config.subject.clone(), services: config.services.clone(), client }))
            }
        };
        Ok(Pusher { db, keys, catalog, links })
    }

    /// The VAPID public key browsers subscribe with; `None` when push is off.
    pub fn public_key(&self) -> Option<&str> {
        self.keys.as_ref().map(|k| k.public_key.as_str())
    }

    /// Stores this browser's subscription for the member and the session it came with (SPEC §7
    /// `{subscription}`). The same browser subscribing again, or for another member after a new
    /// login, keeps one row; when the session ends, the row goes with it.
    pub async fn subscribe(&self, user_id: i64, session_token: &str, subscription: Subscription, now: i64) -> Result<(), AppError> {
        let Some(keys) = &self.keys else { return Err(domain::ErrorCode::NotFound.into()) };
        let subscription = subscription.validate()?;
        if !subscription.served_by(&keys.services) {
            tracing::info!(origin = %subscription.origin(), "push subscription for an unlisted push service refused");
            return Err(domain::ErrorCode::BadRequest.into());
        }
        sqlx::query(
            "INSERT INTO push_subscriptions (user_id, session_hash, endpoint, p256dh, auth, created_at) \
             SELECT $1, s.token_hash, $3, $4, $5, $6 FROM sessions s WHERE s.token_hash = $2 AND s.user_id = $1 \
             ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, session_hash = excluded.session_hash, p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at",
        )
        .bind(user_id)
        .bind(crate::accounts::tokens::hash(session_token))
        .bind(&subscription.endpoint)
        .bind(&subscription.p256dh)
        .bind(&subscription.auth)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        // A member has a handful of browsers; a flood of made-up endpoints keeps only the newest.
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN (SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY id DESC LIMIT $2)",
        )
        .bind(user_id)
        .bind(MAX_SUBSCRIPTIONS)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// How many browsers of the member are subscribed.
    pub async fn subscriptions(&self, user_id: i64) -> Result<i64, AppError> {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM push_subscriptions WHERE user_id = $1").bind(user_id).fetch_one(self.db.pool()).await?;
        Ok(n)
    }

    /// Pushes a new message, like or match to every browser of `to_user` whose preference for
    /// that kind is on. Returns how many push services accepted it.
    pub async fn send(&self, site_name: &str, to_user: i64, from_user: i64, kind: PushKind) -> Result<usize, AppError> {
        let Some(keys) = &self.keys else { return Ok(0) };
        let wanted = match kind {
            PushKind::Message { .. } => "notify_messages",
            PushKind::Like { .. } => "notify_likes",
        };
        let row = sqlx::query(&format!(
            "SELECT u.{wanted} AS wanted, u.language, (SELECT o.name FROM profiles o WHERE o.user_id = $2) AS other \
             FROM users u WHERE u.id = $1 AND u.status IN ($3, $4) AND u.fictional = FALSE"
        ))
        .bind(to_user)
        .bind(from_user)
        .bind(domain::account::UserStatus::NotConfirmed.as_str())
        .bind(domain::account::UserStatus::Active.as_str())
        .fetch_optional(self.db.pool())
        .await?;
        let Some(row) = row else { return Ok(0) };
        if !flag(&row, "wanted")? {
            return Ok(0);
        }
        let locale = domain::Locale::parse(&row.try_get::<String, _>("language")?).unwrap_or(domain::Locale::DEFAULT);
        let other: String = row.try_get::<Option<String>, _>("other")?.unwrap_or_default();
        let (key, url, tag) = match kind {
            PushKind::Message { conversation } => ("push.message", self.links.chat(conversation), format!("chat-{conversation}")),
            PushKind::Like { matched } => (if matched { "push.match" } else { "push.like" }, self.links.member(from_user), format!("like-{from_user}")),
        };
        let payload = serde_json::json!({
            "type": match kind { PushKind::Message { .. } => "message", PushKind::Like { .. } => "like" },
            "title": site_name,
            "body": self.catalog.t(locale, key).replace("{other}", &other),
            "url": url,
            "tag": tag,
        })
        .to_string();
        self.deliver(keys, to_user, &payload, &tag).await
    }

    /// Whether a push of `kind` reached a browser of `to_user` (a failure is logged and counts
    /// as none): the caller mails only when it did not, so a member never gets both.
    pub async fn reached(push: Option<&Pusher>, site_name: &str, to_user: i64, from_user: i64, kind: PushKind) -> bool {
        let Some(push) = push else { return false };
        match push.send(site_name, to_user, from_user, kind).await {
            Ok(delivered) => delivered > 0,
            Err(error) => {
                tracing::warn!(%error, to_user, "could not send a push");
                false
            }
        }
    }

    /// Pushes a lifecycle message (`crate::lifecycle`) to every browser of the member: `body`
    /// in the member's words, `url` the page a tap opens. The caller checked the member's
    /// preference. Returns how many push services accepted it (0: send a mail instead).
    pub async fn send_notice(&self, site_name: &str, to_user: i64, body: &str, url: &str, tag: &str) -> Result<usize, AppError> {
        let Some(keys) = &self.keys else { return Ok(0) };
        let payload = serde_json::json!({ "type": "notice", "title": site_name, "body": body, "url": url, "tag": tag }).to_string();
        self.deliver(keys, to_user, &payload, tag).await
    }

    /// The texts of the member's language (for [`Pusher::send_notice`]'s body).
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Whether pushes can be sent at all (a VAPID key is configured).
    pub fn enabled(&self) -> bool {
        self.keys.is_some()
    }

    async fn deliver(&self, keys: &Keys, to_user: i64, payload: &str, tag: &str) -> Result<usize, AppError> {
        let subscriptions =
            sqlx::query("SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1").bind(to_user).fetch_all(self.db.pool()).await?;
        let mut delivered = 0;
        for sub in subscriptions {
            let id: i64 = sub.try_get("id")?;
            let endpoint: String = sub.try_get("endpoint")?;
            let request = match build(keys, &endpoint, &sub.try_get::<String, _>("p256dh")?, &sub.try_get::<String, _>("auth")?, payload, tag) {
                Ok(request) => request,
                Err(error) => {
                    tracing::warn!(%error, id, "unusable push subscription removed");
                    self.remove(id).await?;
                    continue;
                }
            };
            match keys.client.execute(request).await {
                Ok(answer) if answer.status().is_success() => delivered += 1,
                Ok(answer) if matches!(answer.status().as_u16(), 404 | 410) => {
                    tracing::info!(id, status = answer.status().as_u16(), "the push service dropped a subscription; removed");
                    self.remove(id).await?;
                }
                Ok(answer) => tracing::warn!(id, status = answer.status().as_u16(), "the push service refused a push"),
                Err(error) => tracing::warn!(id, %error, "could not reach a push service"),
            }
        }
        Ok(delivered)
    }

    async fn remove(&self, id: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(id).execute(self.db.pool()).await?;
        Ok(())
    }
}

/// One encrypted, signed push request. Kept a day by the push service while the browser is
/// offline; a newer push with the same topic replaces it.
fn build(keys: &Keys, endpoint: &str, p256dh: &str, auth: &str, payload: &str, tag: &str) -> Result<reqwest::Request, String> {
    let ua_public = p256::PublicKey::from_sec1_bytes(&Base64UrlUnpadded::decode_vec(p256dh).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let auth = Base64UrlUnpadded::decode_vec(auth).map_err(|e| e.to_string())?;
    if auth.len() != 16 {
        return Err("auth secret is not 16 bytes".into());
    }
    let mut request = WebPushBuilder::new(endpoint.parse().map_err(|e: http::uri::InvalidUri| e.to_string())?, ua_public, Auth::clone_from_slice(&auth))
        .with_valid_duration(Duration::from_secs(86_400))
        .with_vapid(&keys.pair, &keys.subject)
        .build(payload.as_bytes().to_vec())
        .map_err(|e| e.to_string())?;
    let topic: String = tag.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').take(32).collect();
    if let Ok(value) = http::HeaderValue::from_str(&topic) {
        request.headers_mut().insert("topic", value);
    }
    request.headers_mut().insert("urgency", http::HeaderValue::from_static("normal"));
    reqwest::Request::try_from(request).map_err(|e| e.to_string())
}
