//! Configuration from environment variables. Every variable and its default is listed in the
//! README. Secrets never appear in `Debug` output.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone)]
pub struct Config {
    /// `VONK_ADDR`, default `127.0.0.1:3000`.
    pub addr: SocketAddr,
    /// `DATA_DIR`, default `./data`: the SQLite database, uploaded media and the mail outbox.
    pub data_dir: PathBuf,
    /// `DATABASE_URL`, default `sqlite://{DATA_DIR}/vonk.db`. `postgres://…` selects PostgreSQL.
    pub database_url: String,
    /// `DATABASE_MAX_CONNECTIONS`, default 16.
    pub max_connections: u32,
    /// `VONK_SEED`, default `demo`: fill a new, empty database with demo content; `none` leaves it empty.
    pub seed: SeedMode,
    /// `VONK_SITE_CACHE_SECS`, default 60: how often site settings are re-read from the database,
    /// so that a change made on one node reaches every node.
    pub site_cache_refresh: Duration,
    /// How long a visitor's search result page is reused (`VONK_SEARCH_CACHE_SECS`, 0: off).
    pub search_cache: Duration,
    /// How long a logged-in member's session, counters and own lists may be kept in memory at
    /// most (`VONK_MEMBER_CACHE_SECS`, default 60, 0: off). Any change to them drops them at
    /// once (`member_cache`); the limit only bounds what a lost PostgreSQL listener could miss.
    pub member_cache: Duration,
    /// How long a visitor's rendered page (`/`, info pages, `/pricing`, `/members`, profiles) is
    /// reused for the same address, language and cookies (`VONK_PAGE_CACHE_SECS`, 0: off).
    pub page_cache: Duration,
    /// How long a client may take to send a request's headers (`VONK_HEADER_TIMEOUT_SECS`, 30).
    /// hyper counts it from the end of the previous request, so an idle keep-alive connection
    /// is closed after it too: pools in front of the app must drop idle connections sooner.
    pub header_timeout: Duration,
    /// How long a request may take until its answer starts (`VONK_REQUEST_TIMEOUT_SECS`, 30);
    /// a chat socket, once open, is not limited by it.
    pub request_timeout: Duration,
    /// Long-lived connections (chat sockets, the operators' event stream): at most
    /// `VONK_STREAMS_PER_SESSION` (4) per session and `VONK_STREAMS_PER_NODE` (10000) per node,
    /// the oldest closed first; their sessions are checked every `VONK_STREAM_CHECK_SECS` (2),
    /// so a connection ends that long after its session does (`streams`).
    pub streams: crate::streams::Limits,
    /// `VONK_DEV_RELOAD`, default false: `make dev`'s live reload (pages reload themselves when
    /// the server restarts). Never on a real site.
    pub dev_reload: bool,
    /// `VONK_PUBLIC_ORIGINS`: extra origins (comma separated, e.g. `https://vonk.nl`) accepted on
    /// state-changing requests besides the request's own Host.
    pub public_origins: Vec<String>,
    /// `VONK_SECURE_COOKIES`, default false: set the Secure flag on cookies (on when served over https).
    pub secure_cookies: bool,
    /// `VONK_PUBLIC_URL`, default `http://{VONK_ADDR}`: where links in mails point for the default
    /// site. Other sites use `https://{domain}`. Never taken from a request's Host header.
    pub public_url: String,
    /// `VONK_SMTP_URL`: send mail through this SMTP server, e.g.
    /// `smtps://user:password@smtp.example.com` (TLS on 465) or
    /// `smtp://user:password@smtp.example.com:587?tls=required` (STARTTLS). Unset: mails are
    /// written as `.eml` files under `DATA_DIR/mail/`.
    pub smtp_url: Option<String>,
    /// `VONK_MAIL_EVENTS_SECRET`: the bearer token the mail provider sends with bounce and spam
    /// complaint reports to `POST /api/mail-events`. Unset: that endpoint answers 404.
    pub mail_events_secret: Option<String>,
    /// `VONK_DKIM_KEY_FILE` (a PKCS#1 PEM RSA key or a base64 Ed25519 secret) and
    /// `VONK_DKIM_SELECTOR` (default `vonk`): every mail is DKIM-signed for its sender's domain.
    /// Unset: mails go unsigned (docs/operations.md).
    pub dkim: Option<crate::mail::Dkim>,
    /// `VONK_BOUNCE_ADDRESS`: the envelope sender of every mail, where bounces go (a mailbox
    /// whose mail is piped into `vonk mail-report`). Unset: bounces go to the visible sender.
    pub bounce_address: Option<lettre::Address>,
    /// `VONK_RATE_LIMIT_FACTOR`, default 1: multiplies the per-IP limits on login, signup and
    /// reset requests (for a site behind a shared address, or a test run that signs up a lot).
    pub rate_limit_factor: u32,
    /// `VONK_RATE_LIMITS`: limits other than the defaults, as `name=count/seconds` separated by
    /// commas (`login=50/60, photo_upload=10/3600`). Names: login, signup, reset_mail (per
    /// address), chat_send, chat_typing, checkout, photo_upload (per member), webhook.
    pub rate_limits: crate::http::rate_limit::RateLimits,
    /// `VONK_DEMO_MEMBERS`, default 2000: how many demo members the demo seed creates per site
    /// (`make run DEMO_MEMBERS=100000` for benchmarks).
    pub demo_members: u32,
    /// `VONK_PHOTO_MAX_BYTES`, default 10485760 (10 MiB): the largest photo upload accepted.
    pub photo_max_bytes: usize,
    /// `VONK_PHOTO_DECODES`, default 0 = one per core: how many uploads are decoded at once;
    /// the others wait. Each may hold a few hundred MB while it is decoded.
    pub photo_decodes: usize,
    /// `VONK_METRICS_TOKEN`: `/metrics` answers Prometheus with `Authorization: Bearer <token>`.
    /// Unset: there is no `/metrics`.
    pub metrics_token: Option<String>,
    /// `VONK_PAYMENTS` (required): `test`, the built-in test provider whose checkout page lets
    /// the buyer choose the outcome (free credits for everyone: for development and tests), or
    /// `mollie` with `MOLLIE_API_KEY` (`live_…` or `test_…`). The test provider is refused on a
    /// site served over https (`VONK_SECURE_COOKIES`, an https `VONK_PUBLIC_URL`) unless
    /// `VONK_ALLOW_TEST_PAYMENTS=true` says so.
    pub payments: PaymentsChoice,
    /// `MOLLIE_API_URL`, default `https://api.mollie.com` (tests point it at a fake).
    pub mollie_api_url: String,
    /// `VONK_PAYMENT_RECHECK_SECS`, default 600: an open payment without news for this long is
    /// read again from the provider by the recovery job (a missed webhook).
    pub payment_recheck_after: i64,
    /// Scheduled backups (`VONK_BACKUP_DIR`, `VONK_BACKUP_EVERY_SECS`, `VONK_BACKUP_KEEP`).
    pub backup: Option<crate::backup::Schedule>,
    /// The test provider waits this long before calling the webhook
    /// (`VONK_TEST_WEBHOOK_DELAY_SECS`): a buyer back before the provider's news, as with a
    /// real provider.
    pub test_webhook_delay: i64,
    /// What pre-sorts the profile-text review queue (`VONK_TEXT_CLASSIFIER`: `off`, the
    /// default, or `local`, the built-in rules; `crate::moderation`).
    pub text_classifier: crate::moderation::TextClassifier,
    /// What looks at chat photos as they are sent (`VONK_PHOTO_HASHES`: a file of known photos'
    /// hashes, `vonk photo-hash` makes its lines; none: off). A photo it flags waits for staff,
    /// hidden from its recipient (`crate::moderation`).
    pub photo_classifier: crate::moderation::PhotoClassifier,
    /// `VONK_PAYMENT_EXPIRE_SECS`, default 86400: an open payment this old is expired when the
    /// provider still has no outcome.
    pub payment_expire_after: i64,
    /// `VONK_FAULT`: crash tests only. `pause_before_booking` stops a payment that the provider
    /// reported paid just before its credits are booked, so a test can kill the process there.
    pub fault: Option<String>,
    /// `VONK_TRUSTED_PROXIES`: load balancers in front of the app, as comma-separated ranges
    /// (`10.0.0.0/8, 2001:db8::/32`). Only from these peers is `X-Forwarded-For` read (its
    /// right-most untrusted address is the client); unset, the connection's peer is the client.
    pub trusted_proxies: Vec<crate::http::client_addr::Cidr>,
    /// `VONK_S3_BUCKET` (with `VONK_S3_ENDPOINT`, `VONK_S3_REGION` default `us-east-1`,
    /// `VONK_S3_PREFIX`, and the keys in `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`): keep
    /// photos in that S3-compatible bucket, which several nodes share. Unset: files under
    /// `DATA_DIR/media/private`.
    pub media_s3: Option<crate::media::S3Config>,
    /// `VONK_VAPID_PRIVATE_KEY` with `VONK_VAPID_SUBJECT` (`mailto:…` or `https://…`): web push
    /// for new messages and likes. `VONK_PUSH_SERVICES`: the push services subscriptions may
    /// use, comma-separated origins (default: the browsers' own). Unset key: no push.
    pub push: Option<crate::push::PushConfig>,
    /// `VONK_GEOIP_DB`: a MaxMind-format country database file; `VONK_GEOIP_HEADER`: a country
    /// header set by the proxy in front (`CF-IPCountry`), read only from `VONK_TRUSTED_PROXIES`.
    /// Neither: every visitor gets their site's `geoip_country`.
    pub geoip_db: Option<PathBuf>,
    pub geoip_header: Option<String>,
}

/// Which payment provider takes the money (`VONK_PAYMENTS`).
#[derive(Clone, PartialEq, Eq)]
pub enum PaymentsChoice {
    /// The built-in test provider: the buyer chooses the outcome on our own page.
    Test,
    /// Mollie, with its API key.
    Mollie { api_key: String },
    /// Not chosen: a command that takes no payments (backup, restore, check, staff roles) was
    /// started without `VONK_PAYMENTS`. The site cannot start with it.
    NotSet,
}

impl std::fmt::Debug for PaymentsChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PaymentsChoice::Test => f.write_str("Test"),
            PaymentsChoice::Mollie { .. } => f.write_str("Mollie { api_key: *** }"),
            PaymentsChoice::NotSet => f.write_str("NotSet"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedMode {
    Demo,
    None,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{name} is not valid: {reason}")]
    Invalid { name: &'static str, reason: String },
}

impl Config {
    /// The local media folder (`DATA_DIR/media`; photos in `private/`), or None when photos
    /// live in a bucket.
    pub fn local_media_dir(&self) -> Option<PathBuf> {
        self.media_s3.is_none().then(|| self.data_dir.join("media"))
    }

    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_lookup(|name| std::env::var(name).ok())
    }

    /// The configuration of a command that takes no payments (`vonk backup` from a cron job):
    /// `VONK_PAYMENTS` may be missing ([`PaymentsChoice::NotSet`]); every other variable is read
    /// and checked as for the site.
    pub fn from_env_without_payments() -> Result<Config, ConfigError> {
        Config::from_lookup_with(|name| std::env::var(name).ok(), false)
    }

    /// Builds the configuration from any variable source (tests pass a map).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        Config::from_lookup_with(get, true)
    }

    /// [`Config::from_lookup`]; without `payments_needed` a missing `VONK_PAYMENTS` is
    /// [`PaymentsChoice::NotSet`].
    pub fn from_lookup_with(get: impl Fn(&str) -> Option<String>, payments_needed: bool) -> Result<Config, ConfigError> {
        let addr_text = get("VONK_ADDR").unwrap_or_else(|| "127.0.0.1:3000".into());
        let addr = addr_text.parse().map_err(|e: std::net::AddrParseError| ConfigError::Invalid { name: "VONK_ADDR", reason: e.to_string() })?;
        let data_dir = PathBuf::from(get("DATA_DIR").unwrap_or_else(|| "./data".into()));
        let database_url = get("DATABASE_URL").filter(|u| !u.is_empty()).unwrap_or_else(|| format!("sqlite://{}/vonk.db", data_dir.display()));
        let max_connections = match get("DATABASE_MAX_CONNECTIONS") {
            None => 16,
            Some(v) => v.parse().map_err(|_| ConfigError::Invalid { name: "DATABASE_MAX_CONNECTIONS", reason: v })?,
        };
        let seed = match get("VONK_SEED").as_deref() {
            None | Some("demo") => SeedMode::Demo,
            Some("none") => SeedMode::None,
            Some(other) => return Err(ConfigError::Invalid { name: "VONK_SEED", reason: other.into() }),
        };
        let site_cache_refresh = match get("VONK_SITE_CACHE_SECS") {
            None => Duration::from_secs(60),
            Some(v) => Duration::from_secs(v.parse().map_err(|_| ConfigError::Invalid { name: "VONK_SITE_CACHE_SECS", reason: v })?),
        };
        let search_cache = match get("VONK_SEARCH_CACHE_SECS") {
            None => Duration::from_secs(5),
            Some(v) => Duration::from_secs(v.parse().map_err(|_| ConfigError::Invalid { name: "VONK_SEARCH_CACHE_SECS", reason: v })?),
        };
        let member_cache = match get("VONK_MEMBER_CACHE_SECS") {
            None => Duration::from_secs(60),
            Some(v) => Duration::from_secs(v.parse().map_err(|_| ConfigError::Invalid { name: "VONK_MEMBER_CACHE_SECS", reason: v })?),
        };
        let page_cache = match get("VONK_PAGE_CACHE_SECS") {
            None => Duration::from_secs(5),
            Some(v) => Duration::from_secs(v.parse().map_err(|_| ConfigError::Invalid { name: "VONK_PAGE_CACHE_SECS", reason: v })?),
        };
        let secs = |name: &'static str, default: u64| -> Result<Duration, ConfigError> {
            match get(name) {
                None => Ok(Duration::from_secs(default)),
                Some(v) => match v.parse::<u64>() {
                    Ok(n) if n > 0 => Ok(Duration::from_secs(n)),
                    _ => Err(ConfigError::Invalid { name, reason: v }),
                },
            }
        };
        let header_timeout = secs("VONK_HEADER_TIMEOUT_SECS", 30)?;
        let request_timeout = secs("VONK_REQUEST_TIMEOUT_SECS", 30)?;
        let count = |name: &'static str, default: usize| -> Result<usize, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => v.parse::<usize>().ok().filter(|n| *n > 0).ok_or(ConfigError::Invalid { name, reason: v }),
            }
        };
        let streams = crate::streams::Limits {
            per_session: count("VONK_STREAMS_PER_SESSION", 4)?,
            per_node: count("VONK_STREAMS_PER_NODE", 10_000)?,
            check_every: secs("VONK_STREAM_CHECK_SECS", 2)?,
        };
        let public_origins = get("VONK_PUBLIC_ORIGINS")
            .map(|v| v.split(',').map(|s| s.trim().trim_end_matches('/').to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default();
        let secure_cookies = matches!(get("VONK_SECURE_COOKIES").as_deref(), Some("1" | "true" | "yes"));
        let public_url = get("VONK_PUBLIC_URL").filter(|u| !u.is_empty()).unwrap_or_else(|| format!("http://{addr}")).trim_end_matches('/').to_string();
        let smtp_url = get("VONK_SMTP_URL").filter(|u| !u.is_empty());
        if let Some(url) = &smtp_url {
            if !(url.starts_with("smtp://") || url.starts_with("smtps://")) {
                return Err(ConfigError::Invalid { name: "VONK_SMTP_URL", reason: redact_url(url) });
            }
        }
        let mail_events_secret = get("VONK_MAIL_EVENTS_SECRET").filter(|s| !s.is_empty());
        if mail_events_secret.as_ref().is_some_and(|s| s.len() < 24) {
            return Err(ConfigError::Invalid { name: "VONK_MAIL_EVENTS_SECRET", reason: "use at least 24 characters".into() });
        }
        let dkim = match get("VONK_DKIM_KEY_FILE").filter(|f| !f.is_empty()) {
            None => None,
            Some(file) => {
                let text = std::fs::read_to_string(&file).map_err(|e| ConfigError::Invalid { name: "VONK_DKIM_KEY_FILE", reason: format!("{file}: {e}") })?;
                let selector = get("VONK_DKIM_SELECTOR").filter(|s| !s.is_empty()).unwrap_or_else(|| "vonk".into());
                Some(crate::mail::Dkim::new(&selector, &text).map_err(|reason| ConfigError::Invalid { name: "VONK_DKIM_KEY_FILE", reason })?)
            }
        };
        let bounce_address = match get("VONK_BOUNCE_ADDRESS").filter(|a| !a.is_empty()) {
            None => None,
            Some(a) => Some(a.parse::<lettre::Address>().map_err(|_| ConfigError::Invalid { name: "VONK_BOUNCE_ADDRESS", reason: a })?),
        };
        let rate_limit_factor = match get("VONK_RATE_LIMIT_FACTOR") {
            None => 1,
            Some(v) => v.parse().ok().filter(|f| *f >= 1).ok_or(ConfigError::Invalid { name: "VONK_RATE_LIMIT_FACTOR", reason: v })?,
        };
        let rate_limits = match get("VONK_RATE_LIMITS") {
            None => Default::default(),
            Some(v) => crate::http::rate_limit::RateLimits::parse(&v).map_err(|reason| ConfigError::Invalid { name: "VONK_RATE_LIMITS", reason })?,
        };
        let demo_members = match get("VONK_DEMO_MEMBERS") {
            None => 2000,
            Some(v) => v.parse().ok().filter(|n| *n <= 1_000_000).ok_or(ConfigError::Invalid { name: "VONK_DEMO_MEMBERS", reason: v })?,
        };
        let photo_max_bytes = match get("VONK_PHOTO_MAX_BYTES") {
            None => domain::photo::DEFAULT_MAX_UPLOAD_BYTES,
            Some(v) => v.parse().ok().filter(|n| (1024..=64 << 20).contains(n)).ok_or(ConfigError::Invalid { name: "VONK_PHOTO_MAX_BYTES", reason: v })?,
        };
        let photo_decodes = match get("VONK_PHOTO_DECODES") {
            None => 0,
            Some(v) => v.parse().ok().filter(|n| *n <= 256).ok_or(ConfigError::Invalid { name: "VONK_PHOTO_DECODES", reason: v })?,
        };
        let secs = |name: &'static str, default: i64| -> Result<i64, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => v.parse().ok().filter(|n: &i64| *n >= 0).ok_or(ConfigError::Invalid { name, reason: v }),
            }
        };
        let mollie_api_key = get("MOLLIE_API_KEY").filter(|k| !k.is_empty());
        if mollie_api_key.as_ref().is_some_and(|k| !(k.starts_with("live_") || k.starts_with("test_"))) {
            return Err(ConfigError::Invalid { name: "MOLLIE_API_KEY", reason: "a Mollie API key starts with live_ or test_".into() });
        }
        let payments = match (get("VONK_PAYMENTS").as_deref().map(str::trim), mollie_api_key) {
            (Some("mollie"), Some(api_key)) => PaymentsChoice::Mollie { api_key },
            (Some("mollie"), None) => return Err(ConfigError::Invalid { name: "MOLLIE_API_KEY", reason: "needed with VONK_PAYMENTS=mollie".into() }),
            (Some("test"), None) => PaymentsChoice::Test,
            (Some("test"), Some(_)) => {
                return Err(ConfigError::Invalid { name: "VONK_PAYMENTS", reason: "test, but MOLLIE_API_KEY is set: choose mollie to take real payments".into() })
            }
            (None | Some(""), None) if !payments_needed => PaymentsChoice::NotSet,
            (None | Some(""), _) => {
                return Err(ConfigError::Invalid {
                    name: "VONK_PAYMENTS",
                    reason: "not set: choose mollie (with MOLLIE_API_KEY) to take payments, or test for the built-in test provider, which gives every member free credits".into(),
                })
            }
            (Some(other), _) => return Err(ConfigError::Invalid { name: "VONK_PAYMENTS", reason: format!("{other}: test or mollie") }),
        };
        let allow_test_payments = matches!(get("VONK_ALLOW_TEST_PAYMENTS").as_deref(), Some("1" | "true" | "yes"));
        if payments == PaymentsChoice::Test && (secure_cookies || public_url.starts_with("https://")) && !allow_test_payments {
            return Err(ConfigError::Invalid {
                name: "VONK_PAYMENTS",
                reason: "test on a site served over https (VONK_SECURE_COOKIES or an https VONK_PUBLIC_URL): every member could buy credits for free. Choose mollie, or set VONK_ALLOW_TEST_PAYMENTS=true for a staging site".into(),
            });
        }
        let trusted_proxies = match get("VONK_TRUSTED_PROXIES") {
            None => Vec::new(),
            Some(v) => crate::http::client_addr::parse_list(&v).ok_or(ConfigError::Invalid { name: "VONK_TRUSTED_PROXIES", reason: v })?,
        };
        let metrics_token = get("VONK_METRICS_TOKEN").filter(|t| !t.is_empty());
        if metrics_token.as_ref().is_some_and(|t| t.len() < 16) {
            return Err(ConfigError::Invalid { name: "VONK_METRICS_TOKEN", reason: "at least 16 characters".into() });
        }
        let media_s3 = match get("VONK_S3_BUCKET").filter(|b| !b.is_empty()) {
            None => None,
            Some(bucket) => {
                let key =
                    |name: &'static str| get(name).filter(|v| !v.is_empty()).ok_or(ConfigError::Invalid { name, reason: "needed with VONK_S3_BUCKET".into() });
                let endpoint = get("VONK_S3_ENDPOINT").unwrap_or_default().trim_end_matches('/').to_string();
                if !(endpoint.is_empty() || endpoint.starts_with("https://") || endpoint.starts_with("http://")) {
                    return Err(ConfigError::Invalid { name: "VONK_S3_ENDPOINT", reason: "an http:// or https:// address".into() });
                }
                Some(crate::media::S3Config {
                    bucket,
                    endpoint,
                    region: get("VONK_S3_REGION").filter(|r| !r.is_empty()).unwrap_or_else(|| "us-east-1".into()),
                    access_key_id: key("AWS_ACCESS_KEY_ID")?,
                    secret_access_key: key("AWS_SECRET_ACCESS_KEY")?,
                    prefix: get("VONK_S3_PREFIX").unwrap_or_default(),
                })
            }
        };
        let push = match get("VONK_VAPID_PRIVATE_KEY").filter(|k| !k.is_empty()) {
            None => None,
            Some(private_key) => {
                let subject = get("VONK_VAPID_SUBJECT").unwrap_or_default();
                if !(subject.starts_with("mailto:") || subject.starts_with("https://")) {
                    return Err(ConfigError::Invalid {
                        name: "VONK_VAPID_SUBJECT",
                        reason: "mailto:… or https://…, needed with VONK_VAPID_PRIVATE_KEY".into(),
                    });
                }
                let services = match get("VONK_PUSH_SERVICES").filter(|s| !s.trim().is_empty()) {
                    Some(list) => list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
                    None => crate::push::DEFAULT_SERVICES.iter().map(|s| s.to_string()).collect(),
                };
                Some(crate::push::PushConfig { private_key, subject, services })
            }
        };
        let geoip_header = get("VONK_GEOIP_HEADER").map(|h| h.trim().to_ascii_lowercase()).filter(|h| !h.is_empty());
        if let Some(h) = &geoip_header {
            if http::HeaderName::from_bytes(h.as_bytes()).is_err() {
                return Err(ConfigError::Invalid { name: "VONK_GEOIP_HEADER", reason: h.clone() });
            }
            if trusted_proxies.is_empty() {
                return Err(ConfigError::Invalid {
                    name: "VONK_GEOIP_HEADER",
                    reason: "needs VONK_TRUSTED_PROXIES (only a proxy's header is believed)".into(),
                });
            }
        }
        Ok(Config {
            geoip_db: get("VONK_GEOIP_DB").filter(|p| !p.is_empty()).map(PathBuf::from),
            geoip_header,
            push,
            media_s3,
            metrics_token,
            trusted_proxies,
            payments,
            mollie_api_url: get("MOLLIE_API_URL")
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| "https://api.mollie.com".into())
                .trim_end_matches('/')
                .to_string(),
            payment_recheck_after: secs("VONK_PAYMENT_RECHECK_SECS", 600)?,
            test_webhook_delay: secs("VONK_TEST_WEBHOOK_DELAY_SECS", 0)?,
            text_classifier: crate::moderation::TextClassifier::from_setting(get("VONK_TEXT_CLASSIFIER").as_deref())
                .map_err(|reason| ConfigError::Invalid { name: "VONK_TEXT_CLASSIFIER", reason })?,
            photo_classifier: match get("VONK_PHOTO_HASHES").filter(|f| !f.trim().is_empty()) {
                None => crate::moderation::PhotoClassifier::Off,
                Some(file) => {
                    let text =
                        std::fs::read_to_string(&file).map_err(|e| ConfigError::Invalid { name: "VONK_PHOTO_HASHES", reason: format!("{file}: {e}") })?;
                    let hashes = domain::moderation::parse_hash_list(&text)
                        .map_err(|e| ConfigError::Invalid { name: "VONK_PHOTO_HASHES", reason: format!("{file}: {e}") })?;
                    crate::moderation::PhotoClassifier::KnownHashes(hashes.into())
                }
            },
            backup: match get("VONK_BACKUP_DIR").filter(|d| !d.is_empty()) {
                None => None,
                Some(dir) => Some(crate::backup::Schedule {
                    dir: PathBuf::from(dir),
                    every: Duration::from_secs(secs("VONK_BACKUP_EVERY_SECS", 86_400)?.max(60) as u64),
                    keep: match get("VONK_BACKUP_KEEP") {
                        None => 7,
                        Some(v) => v.parse().ok().filter(|n: &usize| *n > 0).ok_or(ConfigError::Invalid { name: "VONK_BACKUP_KEEP", reason: v })?,
                    },
                }),
            },
            payment_expire_after: secs("VONK_PAYMENT_EXPIRE_SECS", 86_400)?,
            fault: get("VONK_FAULT").filter(|f| !f.is_empty()),
            photo_max_bytes,
            photo_decodes,
            demo_members,
            addr,
            data_dir,
            database_url,
            max_connections,
            seed,
            site_cache_refresh,
            search_cache,
            member_cache,
            page_cache,
            header_timeout,
            request_timeout,
            streams,
            dev_reload: matches!(get("VONK_DEV_RELOAD").as_deref(), Some("1" | "true" | "yes")),
            public_origins,
            secure_cookies,
            public_url,
            smtp_url,
            mail_events_secret,
            dkim,
            bounce_address,
            rate_limit_factor,
            rate_limits,
        })
    }
}

/// Hides the password part of a database URL.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{}:***{}", &url[..scheme_end + 3], user, &url[at..])
        }
        _ => url.to_string(),
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("data_dir", &self.data_dir)
            .field("database_url", &redact_url(&self.database_url))
            .field("max_connections", &self.max_connections)
            .field("seed", &self.seed)
            .field("site_cache_refresh", &self.site_cache_refresh)
            .field("search_cache", &self.search_cache)
            .field("member_cache", &self.member_cache)
            .field("page_cache", &self.page_cache)
            .field("header_timeout", &self.header_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("streams", &self.streams)
            .field("dev_reload", &self.dev_reload)
            .field("public_origins", &self.public_origins)
            .field("secure_cookies", &self.secure_cookies)
            .field("public_url", &self.public_url)
            .field("smtp_url", &self.smtp_url.as_deref().map(redact_url))
            .field("mail_events_secret", &self.mail_events_secret.as_ref().map(|_| "***"))
            .field("dkim", &self.dkim)
            .field("bounce_address", &self.bounce_address)
            .field("rate_limit_factor", &self.rate_limit_factor)
            .field("rate_limits", &self.rate_limits)
            .field("demo_members", &self.demo_members)
            .field("photo_max_bytes", &self.photo_max_bytes)
            .field("metrics_token", &self.metrics_token.as_ref().map(|_| "***"))
            .field("payments", &self.payments)
            .field("mollie_api_url", &self.mollie_api_url)
            .field("payment_recheck_after", &self.payment_recheck_after)
            .field("test_webhook_delay", &self.test_webhook_delay)
            .field("text_classifier", &self.text_classifier)
            .field("photo_classifier", &self.photo_classifier)
            .field("backup", &self.backup)
            .field("payment_expire_after", &self.payment_expire_after)
            .field("fault", &self.fault)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("media_s3", &self.media_s3)
            .field("push", &self.push)
            .field("geoip_db", &self.geoip_db)
            .field("geoip_header", &self.geoip_header)
            .finish()
    }
}

#[cfg(test)]
mod tests;
