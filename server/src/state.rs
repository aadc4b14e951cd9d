//! Shared application state handed to every request.

use std::sync::Arc;

use crate::config::Config;
use crate::db::Db;
use crate::locales::Catalog;
use crate::sites::SiteCache;

#[derive(Clone, Debug)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub sites: SiteCache,
    pub catalog: Arc<Catalog>,
}

impl AppState {
    /// Connects to the database, migrates, seeds a new database when asked, and loads the site cache.
    pub async fn start(config: Config) -> Result<AppState, crate::AppError> {
        let db = Db::connect(&config.database_url, config.max_connections).await?;
        if config.seed == crate::config::SeedMode::Demo {
            crate::seed::seed_if_empty(&db).await?;
        }
        let sites = SiteCache::load(db.clone()).await?;
        Ok(AppState { config: Arc::new(config), db, sites, catalog: Arc::new(Catalog::embedded()) })
    }
}
