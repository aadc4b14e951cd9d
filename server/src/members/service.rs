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
    /// A member's own blocks, likes and last opened profile between requests.
    pub(super) member_cache: crate::member_cache::MemberCache,
    /// What pre-sorts the profile-text queue (`crate::moderation`).
    pub(super) text_classifier: crate::moderation::TextClassifier,
}

impl Members {
    /// `search_cache`: how long a visitor's result page is reused (zero: never).
    pub fn new(db: Db, regions: Arc<Regions>, search_cache: std::time::Duration) -> Members {
        Members {
            db,
            regions,
            search_cache: Arc::new(super::search_cache::SearchCache::new(search_cache)),
            member_cache: Default::default(),
            text_classifier: Default::default(),
        }
    }

    /// Changed profile texts are scored by this classifier for the review queue.
    pub fn with_text_classifier(mut self, classifier: crate::moderation::TextClassifier) -> Members {
        self.text_classifier = classifier;
        self
    }

    /// Members' own lists are kept in this cache between requests.
    pub fn with_member_cache(mut self, cache: crate::member_cache::MemberCache) -> Members {
        self.member_cache = cache;
        self
    }

    pub(crate) fn db(&self) -> &Db {
        &self.db
    }

    pub(crate) fn member_cache(&self) -> &crate::member_cache::MemberCache {
        &self.member_cache
    }

    pub fn regions(&self) -> &Regions {
        &self.regions
    }

    /// The regions a member of this site can choose from.
    pub fn regions_for(&self, site: &SiteSettings) -> Vec<Region> {
        self.regions.for_countries(&site.countries)
    }
}
