//! The members service: one handle on the database and the region data, with its methods
//! grouped by concern in this folder (basics, search and blocking, photos are their own service).

use std::sync::Arc;

use domain::profile::Region;
use domain::site::SiteSettings;

use crate::db::Db;
use crate::regions::Regions;

#[derive(Clone, Debug)]
pub struct Members {
    pub(super) db: Db,
    pub(super) regions: Arc<Regions>,
    pub(super) search_cache: Arc<super::search_cache::SearchCache>,
}

impl Members {
    /// `search_cache`: how long a visitor's result page is reused (zero: never).
    pub fn new(db: Db, regions: Arc<Regions>, search_cache: std::time::Duration) -> Members {
        Members { db, regions, search_cache: Arc::new(super::search_cache::SearchCache::new(search_cache)) }
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    pub fn regions(&self) -> &Regions {
        &self.regions
    }

    /// The regions a member of this site can choose from.
    pub fn regions_for(&self, site: &SiteSettings) -> Vec<Region> {
        self.regions.for_countries(&site.countries)
    }
}
