//! Shared application state handed to every request.

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::members::Members;
use crate::regions::Regions;
use crate::clock::Clock;
use crate::config::Config;
use crate::mail::Outbox;
use crate::sites::Site;
use crate::db::Db;
use crate::locales::Catalog;
use crate::sites::SiteCache;

#[derive(Clone, Debug)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub sites: SiteCache,
    pub catalog: Arc<Catalog>,
    pub accounts: Accounts,
    pub members: Members,
    pub photos: crate::members::photos::Photos,
    pub likes: crate::likes::Likes,
    pub notifications: crate::notifications::Notifications,
    pub rate_limiter: crate::http::rate_limit::RateLimiter,
}

impl AppState {
    /// Connects to the database, migrates, seeds a new database when asked, and loads the site cache.
    pub async fn start(config: Config) -> Result<AppState, crate::AppError> {
        let db = Db::connect(&config.database_url, config.max_connections).await?;
        if config.seed == crate::config::SeedMode::Demo {
            crate::seed::seed_if_empty(&db).await?;
            let media = config.data_dir.join("media");
            let created = crate::members::demo::seed_demo_members(&db, Some(&media), config.demo_members, crate::seed::now_unix()).await?;
            if created > 0 {
                tracing::info!(created, "demo members created");
            }
        }
        let sites = SiteCache::load(db.clone()).await?;
        let catalog = Arc::new(Catalog::embedded());
        let outbox = Outbox::from_config(config.smtp_url.as_deref(), &config.data_dir)?;
        // Uploaded photos: outside media/public, so only the checked route serves them.
        let media: crate::media::Media = Arc::new(crate::media::LocalStore::new(config.data_dir.join("media/private")));
        let accounts = Accounts::new(db.clone(), Clock::System, outbox, catalog.clone()).with_media(media.clone());
        let photos = crate::members::photos::Photos::new(db.clone(), media, config.photo_max_bytes);
        let members = Members::new(db.clone(), Arc::new(Regions::load(&db).await?));
        Ok(AppState { config: Arc::new(config), db, sites, catalog, accounts, likes: crate::likes::Likes::new(members.clone()), notifications: crate::notifications::Notifications::new(members.clone()), members, photos, rate_limiter: Default::default() })
    }

    /// Mails the liked member about a new like or match (if their preferences allow it), in the
    /// background: a slow mail server must not hold up the answer.
    pub fn mail_after_like(&self, site: &Site, liker_id: i64, liker_name: &str, liked_id: i64, outcome: crate::likes::LikeOutcome) {
        if !outcome.new {
            return;
        }
        let accounts = self.accounts.clone();
        let settings = site.settings.clone();
        let base_url = self.base_url(site);
        let liker_name = liker_name.to_string();
        tokio::spawn(async move {
            if let Err(error) = accounts.mail_like(&settings, &base_url, liked_id, liker_id, &liker_name, outcome.matched).await {
                tracing::warn!(%error, liked_id, "could not send the like mail");
            }
        });
    }

    /// The base of links in mails for a site (see `VONK_PUBLIC_URL`).
    pub fn base_url(&self, site: &Site) -> String {
        if site.is_default {
            self.config.public_url.clone()
        } else {
            format!("https://{}", site.settings.domain)
        }
    }
}
