//! Shared application state handed to every request.

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::Db;
use crate::links::Links;
use crate::locales::Catalog;
use crate::mail::Outbox;
use crate::members::Members;
use crate::regions::Regions;
use crate::sites::{Site, SiteCache};

/// Cloned for every request and server function: one reference count, not one per service.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

/// What [`AppState`] holds.
#[derive(Debug)]
pub struct Services {
    pub config: Arc<Config>,
    pub db: Db,
    /// The one clock of the services and the pages (a fixed one in tests).
    pub clock: Clock,
    pub sites: SiteCache,
    pub catalog: Arc<Catalog>,
    pub accounts: Accounts,
    pub members: Members,
    pub photos: crate::members::photos::Photos,
    pub likes: crate::likes::Likes,
    pub chat: crate::chat::Chat,
    pub payments: crate::payments::Payments,
    pub notifications: crate::notifications::Notifications,
    pub rate_limiter: crate::http::rate_limit::RateLimiter,
    pub push: crate::push::Pusher,
    /// Where photos are kept (the data export reads them).
    pub media: crate::media::Media,
    /// The visitor's country (`VONK_GEOIP_DB`, `VONK_GEOIP_HEADER`).
    pub geoip: crate::geoip::GeoIp,
    pub complaints: crate::complaints::Complaints,
    /// Staff's member administration and the staff log.
    pub staff: crate::staff::Staff,
    /// Landers' bounce log.
    pub landers: crate::landers::Landers,
    /// The node's long-lived connections, each tied to its session.
    pub streams: crate::streams::Streams,
    /// The one job queue: work that happens later (lifecycle messages…), run by every node.
    pub jobs: crate::jobs::Jobs,
    /// Landing visits, counted for the owner's figures.
    pub visits: crate::visits::Visits,
    /// What the traffic networks are told (their postback URLs and calls).
    pub postbacks: crate::postbacks::Postbacks,
    /// The owner's figures (`/staff/figures`).
    pub figures: crate::figures::Figures,
    /// Split tests of landers (`/staff/figures/tests`).
    pub splits: crate::splits::Splits,
    /// Age checks with the configured provider.
    pub age: crate::age::AgeChecks,
}

/// Older photos given WebP copies per housekeeping run.
const WEBP_COPIES_PER_HOUR: i64 = 1_000;

impl AppState {
    /// Connects to the database, migrates, seeds a new database when asked, and loads the site
    /// cache. `links` names the app's pages that mails link to.
    pub async fn start(config: Config, links: Links) -> Result<AppState, crate::AppError> {
        AppState::start_with_clock(config, links, Clock::System).await
    }

    pub async fn start_with_clock(config: Config, links: Links, clock: Clock) -> Result<AppState, crate::AppError> {
        // The metrics recorder, before anything is counted.
        crate::metrics::handle();
        let db = Db::connect(&config.database_url, config.max_connections).await?;
        crate::reference_data::sync(&db).await?;
        if config.seed == crate::config::SeedMode::Demo {
            crate::seed::seed_if_empty(&db).await?;
            let media = config.data_dir.join("media");
            let created = crate::members::demo::seed_demo_members(&db, Some(&media), config.demo_members, clock.now()).await?;
            if created > 0 {
                tracing::info!(created, "demo members created");
            }
        }
        let sites = SiteCache::load(db.clone()).await?;
        let catalog = Arc::new(Catalog::embedded());
        let outbox = Outbox::configured(&config)?;
        // Uploaded photos: outside media/public, so only the checked route serves them.
        let media: crate::media::Media = match &config.media_s3 {
            Some(s3) => Arc::new(crate::media::S3Store::new(s3)?),
            None => Arc::new(crate::media::LocalStore::new(config.data_dir.join("media/private"))),
        };
        let complaints = crate::complaints::Complaints::new(db.clone(), outbox.clone(), catalog.clone());
        let member_cache = crate::member_cache::MemberCache::start(&db, &config.database_url, config.member_cache)?;
        let accounts =
            Accounts::new(db.clone(), clock.clone(), outbox, catalog.clone(), links).with_media(media.clone()).with_member_cache(member_cache.clone());
        let photos = crate::members::photos::Photos::new(
            db.clone(),
            media.clone(),
            crate::members::photo_decode::PhotoDecoder::new(config.photo_max_bytes, config.photo_decodes),
        )
        .with_classifier(config.photo_classifier.clone());
        let members = Members::new(db.clone(), Arc::new(Regions::load(&db).await?), config.search_cache)
            .with_member_cache(member_cache)
            .with_text_classifier(config.text_classifier);
        let push = crate::push::Pusher::new(db.clone(), config.push.as_ref(), catalog.clone(), accounts.links().clone())?;
        let likes = crate::likes::Likes::new(members.clone()).with_mail(accounts.clone(), config.public_url.clone()).with_push(push.clone());
        let bus = crate::chat::bus::Bus::start(db.clone(), &config.database_url);
        let chat = crate::chat::Chat::new(members.clone(), bus.clone())
            .with_mail(accounts.clone(), config.public_url.clone())
            .with_media(media.clone())
            .with_push(push.clone())
            .with_photo_classifier(config.photo_classifier.clone());
        let splits = crate::splits::Splits::new(db.clone(), clock.clone());
        let payments = crate::payments::Payments::from_config(db.clone(), accounts.clone(), accounts.links().clone(), &config)?
            .with_sites(sites.clone())
            .with_bus(bus)
            .with_splits(splits.clone());
        let jobs = crate::jobs::Jobs::new(db.clone(), clock.clone(), &crate::jobs::node_name());
        let visits = crate::visits::Visits::new(db.clone());
        let postbacks = crate::postbacks::Postbacks::new(db.clone(), clock.clone());
        let figures = crate::figures::Figures::new(db.clone());
        postbacks.register(&jobs);
        crate::lifecycle::Lifecycle::new(accounts.clone(), sites.clone(), &config.public_url)
            .with_payments(payments.clone())
            .with_push(push.clone())
            .register(&jobs);
        crate::lifecycle::ensure_daily_scan(&db, clock.now()).await?;
        let geoip = crate::geoip::GeoIp::open(config.geoip_db.as_deref(), config.geoip_header.as_deref())?;
        let age = crate::age::AgeChecks::from_config(db.clone(), accounts.links().clone(), &config);
        Ok(AppState(Arc::new(Services {
            age,
            geoip,
            complaints,
            staff: crate::staff::Staff::new(db.clone()),
            landers: crate::landers::Landers::new(db.clone()),
            streams: crate::streams::Streams::new(db.clone(), clock.clone(), config.streams),
            payments,
            rate_limiter: crate::http::rate_limit::RateLimiter::with_limits(config.rate_limit_factor, config.rate_limits.clone()).shared_through(&db),
            config: Arc::new(config),
            db,
            clock,
            sites,
            catalog,
            accounts,
            likes,
            chat,
            notifications: crate::notifications::Notifications::new(members.clone()),
            members,
            photos,
            push,
            media,
            jobs,
            visits,
            postbacks,
            figures,
            splits,
        })))
    }

    /// The node's hourly housekeeping, one background job: deleted accounts purged, expired
    /// sessions and tokens removed, shared rate counts whose window ended dropped, the member
    /// cache's old entries and change log dropped, complaints
    /// whose mail to support failed sent again, WebP copies made of photos stored before them.
    pub fn spawn_housekeeping(&self) -> tokio::task::JoinHandle<()> {
        let state = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
            loop {
                tick.tick().await;
                state.accounts.housekeeping().await;
                if let Err(error) = state.complaints.send_due(state.clock.now()).await {
                    tracing::warn!(%error, "mailing complaints to support failed");
                }
                if let Err(error) = state.rate_limiter.purge(state.clock.now()).await {
                    tracing::warn!(%error, "removing old rate counts failed");
                }
                state.accounts.member_cache().prune();
                if let Err(error) = crate::member_cache::remove_old_changes(&state.db, state.clock.now()).await {
                    tracing::warn!(%error, "removing old member changes failed");
                }
                // A few minutes of one core at most per hour.
                match state.photos.add_webp_copies(WEBP_COPIES_PER_HOUR).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(photos = n, "made WebP copies of older photos"),
                    Err(error) => tracing::warn!(%error, "making WebP copies of older photos failed"),
                }
            }
        })
    }

    /// The base of links in mails for a site (see `VONK_PUBLIC_URL`).
    pub fn base_url(&self, site: &Site) -> String {
        site.base_url(&self.config.public_url)
    }
}
