//! Sites: their settings and company rows, the credit packs they sell, and the in-memory cache
//! that answers "which site is this Host?" without a database read per request.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use domain::rows::Flag;
use domain::site::{CompanyInfo, CreditPack, Logo, SiteSettings, Theme};

use crate::db::Db;
use crate::error::AppError;

/// A site with its company, as pages need them.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub settings: SiteSettings,
    pub company: CompanyInfo,
    pub is_default: bool,
    /// The uploaded logo's PNG (its size and version are in `settings.logo`).
    pub logo_png: Option<Arc<[u8]>>,
}

/// A site is mostly its settings: `&site` works where `&SiteSettings` is asked for.
impl std::ops::Deref for Site {
    type Target = SiteSettings;

    fn deref(&self) -> &SiteSettings {
        &self.settings
    }
}

impl Site {
    /// The base of links in mails: `public_url` (`VONK_PUBLIC_URL`) for the default site,
    /// `https://{domain}` for the others. Never taken from a request's Host header.
    pub fn base_url(&self, public_url: &str) -> String {
        if self.is_default {
            public_url.to_string()
        } else {
            format!("https://{}", self.settings.domain)
        }
    }
}

/// A `sites` row: the settings and whether this is the default site.
#[derive(sqlx::FromRow)]
struct SiteRow {
    #[sqlx(flatten)]
    settings: SiteSettings,
    #[sqlx(try_from = "Flag")]
    is_default: bool,
}

/// A `site_logos` row with its site's logo version.
#[derive(sqlx::FromRow)]
struct LogoRow {
    site_id: i64,
    png: Vec<u8>,
    #[sqlx(try_from = "i64")]
    width: u32,
    #[sqlx(try_from = "i64")]
    height: u32,
    logo_version: String,
}

/// Reads every site with its company.
pub async fn load_all(db: &Db) -> Result<Vec<Site>, AppError> {
    let companies: HashMap<i64, CompanyInfo> =
        sqlx::query_as::<_, CompanyInfo>("SELECT * FROM companies").fetch_all(db.pool()).await?.into_iter().map(|c| (c.id, c)).collect();
    let mut logos: HashMap<i64, (Logo, Arc<[u8]>)> = sqlx::query_as::<_, LogoRow>(
        "SELECT l.site_id, l.png, l.width, l.height, s.logo_version FROM site_logos l JOIN sites s ON s.id = l.site_id WHERE s.logo_version IS NOT NULL",
    )
    .fetch_all(db.pool())
    .await?
    .into_iter()
    .map(|l| (l.site_id, (Logo { version: l.logo_version, width: l.width, height: l.height }, Arc::from(l.png))))
    .collect();
    let rows = sqlx::query_as::<_, SiteRow>("SELECT * FROM sites ORDER BY id").fetch_all(db.pool()).await?;
    rows.into_iter()
        .map(|SiteRow { mut settings, is_default }| {
            // A bad colour in the database must never reach a style attribute.
            if !settings.theme.is_valid() {
                settings.theme = Theme::default();
            }
            let (logo, logo_png) = logos.remove(&settings.id).map_or((None, None), |(l, png)| (Some(l), Some(png)));
            settings.logo = logo;
            let company = companies.get(&settings.company_id).cloned().ok_or_else(|| AppError::Internal(format!("site {} has no company", settings.id)))?;
            Ok(Site { settings, company, is_default, logo_png })
        })
        .collect()
}

/// Active credit packs of a site, in display order.
pub async fn credit_packs(db: &Db, site_id: i64) -> Result<Vec<CreditPack>, AppError> {
    Ok(sqlx::query_as(
        "SELECT id, credits, price_minor, currency, highlighted FROM credit_packs \
         WHERE site_id = $1 AND active = TRUE ORDER BY sort_order, credits",
    )
    .bind(site_id)
    .fetch_all(db.pool())
    .await?)
}

/// Normalises a Host header: lower case, no port, no trailing dot, no leading "www.".
pub fn normalise_host(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    let without_port = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]")).unwrap_or(host.clone())
    } else {
        host.rsplit_once(':').map(|(h, _)| h.to_string()).unwrap_or(host.clone())
    };
    let trimmed = without_port.trim_end_matches('.');
    trimmed.strip_prefix("www.").unwrap_or(trimmed).to_string()
}

/// An immutable view of all sites, swapped whole on refresh.
#[derive(Debug, Default)]
struct Snapshot {
    by_domain: HashMap<String, Arc<Site>>,
    default: Option<Arc<Site>>,
}

impl Snapshot {
    fn new(sites: Vec<Site>) -> Snapshot {
        let mut snap = Snapshot::default();
        for site in sites {
            let site = Arc::new(site);
            if site.is_default || snap.default.is_none() {
                snap.default = Some(site.clone());
            }
            snap.by_domain.insert(normalise_host(&site.settings.domain), site);
        }
        snap
    }
}

/// The channel on which PostgreSQL announces changed settings (the triggers of migration 20261128000014).
pub const SETTINGS_CHANNEL: &str = "vonk_settings";

static RELOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Site settings cached in memory, refreshed from the database in the background.
#[derive(Clone, Debug)]
pub struct SiteCache {
    db: Db,
    snapshot: Arc<RwLock<Arc<Snapshot>>>,
    /// True once announcements of changes are heard (see [`SiteCache::spawn_listen`]).
    listening: tokio::sync::watch::Sender<bool>,
}

impl SiteCache {
    pub async fn load(db: Db) -> Result<SiteCache, AppError> {
        let cache = SiteCache { db, snapshot: Arc::new(RwLock::new(Arc::new(Snapshot::default()))), listening: tokio::sync::watch::Sender::new(false) };
        cache.reload().await?;
        Ok(cache)
    }

    /// Re-reads all sites; the new set replaces the old one at once.
    pub async fn reload(&self) -> Result<(), AppError> {
        let snapshot = Arc::new(Snapshot::new(load_all(&self.db).await?));
        *self.snapshot.write().unwrap_or_else(|e| e.into_inner()) = snapshot;
        RELOADS.fetch_add(1, std::sync::atomic::Ordering::Release);
        Ok(())
    }

    /// Counts the reloads in this process: what was rendered from older settings is stale.
    pub fn generation() -> u64 {
        RELOADS.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Keeps the cache fresh; errors are logged and the old snapshot stays in use.
    pub fn spawn_refresh(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let cache = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tick.tick().await;
                if let Err(error) = cache.reload().await {
                    tracing::warn!(%error, "site cache refresh failed; keeping the previous settings");
                }
            }
        })
    }

    /// On PostgreSQL: reloads as soon as the database announces a change of companies, sites or
    /// credit packs (`NOTIFY vonk_settings`, sent by triggers, whoever made the change), so every
    /// node follows within moments; the periodic refresh stays as a safety net. After a lost
    /// connection it reloads once, since announcements may have been missed meanwhile.
    ///
    /// The reloads run in a task of their own, one at a time: announcements heard during one
    /// make one more reload after it.
    pub fn spawn_listen(&self, database_url: &str) -> Option<tokio::task::JoinHandle<()>> {
        if self.db.backend() != crate::db::Backend::Postgres {
            return None;
        }
        let (changed, mut heard) = tokio::sync::watch::channel(());
        let listening = self.listening.clone();
        crate::db::listen(database_url, &[SETTINGS_CHANNEL], "site settings", move |announced| {
            if matches!(announced, crate::db::Heard::MayHaveMissed) {
                listening.send_replace(true);
            }
            changed.send_replace(());
        });
        let cache = self.clone();
        Some(tokio::spawn(async move {
            while heard.changed().await.is_ok() {
                if let Err(error) = cache.reload().await {
                    tracing::warn!(%error, "site settings reload failed; keeping the previous settings");
                }
            }
        }))
    }

    /// Waits until [`SiteCache::spawn_listen`]'s `LISTEN` is in place (tests of several nodes).
    pub async fn listening(&self) {
        let mut ready = self.listening.subscribe();
        let _ = ready.wait_for(|listening| *listening).await;
    }

    /// The site with this id, if it is one of the cache's.
    pub fn by_id(&self, id: i64) -> Option<Arc<Site>> {
        let snap = self.snapshot.read().unwrap_or_else(|e| e.into_inner()).clone();
        snap.by_domain.values().find(|s| s.settings.id == id).cloned()
    }

    /// Every site, by id.
    pub fn all(&self) -> Vec<Arc<Site>> {
        let snap = self.snapshot.read().unwrap_or_else(|e| e.into_inner()).clone();
        let mut sites: Vec<Arc<Site>> = snap.by_domain.values().cloned().collect();
        sites.sort_by_key(|site| site.settings.id);
        sites
    }

    /// The site for a Host header; unknown hosts get the default site.
    pub fn for_host(&self, host: Option<&str>) -> Option<Arc<Site>> {
        let snap = self.snapshot.read().unwrap_or_else(|e| e.into_inner()).clone();
        host.map(normalise_host).and_then(|h| snap.by_domain.get(&h).cloned()).or_else(|| snap.default.clone())
    }

    pub fn db(&self) -> &Db {
        &self.db
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_normalisation() {
        assert_eq!(normalise_host("WWW.Vonk.NL:443"), "vonk.nl");
        assert_eq!(normalise_host("localhost:3000"), "localhost");
        assert_eq!(normalise_host("vonk.nl."), "vonk.nl");
        assert_eq!(normalise_host("[::1]:3000"), "[::1]");
    }
}
