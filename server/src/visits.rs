//! Landing visits and the touches a signup counts for (the owner's figures, `domain::visits`).
//!
//! A visitor's browser gets a first-party cookie with a random value on its first landing; the
//! database keeps only the value's hash. A visit is counted once per visitor, day and touch (the
//! same page with the same tracking), never for members, bots or prefetches, with the network of
//! the address rather than the address. A signup then keeps its first and last landing with a
//! source within the site's window, and its tracking is the one the site's model chooses.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use domain::account::Tracking;
use domain::site::SiteSettings;
use domain::visits::{attributed, Attribution, Device, Landing, Touch};

use crate::db::Db;
use crate::error::AppError;

/// The cookie with the visitor's random value.
pub const VISITOR_COOKIE: &str = "vonk_visitor";
/// How long the browser keeps it.
pub const VISITOR_DAYS: i64 = 365;

/// One landing as the middleware saw it.
#[derive(Debug, Clone)]
pub struct Visit {
    pub site_id: i64,
    /// The cookie's value (hashed before it is stored).
    pub visitor: String,
    pub landing: Landing,
    pub tracking: Tracking,
    pub click_id: Option<String>,
    pub country: Option<String>,
    pub device: Device,
    pub ip_prefix: Option<String>,
    /// The split test's variant shown (`name:design`), if the lander is under test.
    pub variant: Option<String>,
    pub at: i64,
}

impl Visit {
    /// What makes two landings of one visitor on one day the same touch.
    fn touch(&self) -> String {
        let t = &self.tracking;
        let parts = [
            Some(self.landing.page.as_str().to_string()),
            self.landing.lander.clone(),
            self.landing.slug.clone(),
            t.network.clone(),
            t.r#ref.clone(),
            t.sub1.clone(),
            t.sub2.clone(),
            t.sub3.clone(),
            self.click_id.clone(),
        ];
        let joined = parts.iter().map(|p| p.as_deref().unwrap_or("")).collect::<Vec<_>>().join("|");
        crate::accounts::tokens::hash(&joined)[..32].to_string()
    }
}

/// Counts visits; keeps, per node, the touches it wrote today so a visitor's next page views
/// write nothing (the database's unique key keeps one row whatever a node forgets).
#[derive(Debug, Clone)]
pub struct Visits {
    db: Db,
    written: Arc<Mutex<HashMap<(String, String), i64>>>,
    /// The writes [`Visits::record_later`] started, so tests can wait for them.
    background: tokio_util::task::TaskTracker,
}

impl Visits {
    pub fn new(db: Db) -> Visits {
        Visits { db, written: Default::default(), background: tokio_util::task::TaskTracker::new() }
    }

    /// [`Visits::record`] after the page has gone out: a landing never waits for the database
    /// (on SQLite, for the write lock other writes hold). A failed write is logged.
    pub fn record_later(&self, visit: Visit) {
        let visits = self.clone();
        self.background.spawn(async move {
            if let Err(error) = visits.record(&visit).await {
                tracing::warn!(%error, "could not count a visit");
            }
        });
    }

    /// Waits until every visit recorded later so far is written.
    pub async fn settled(&self) {
        self.background.close();
        self.background.wait().await;
        self.background.reopen();
    }

    /// Counts one landing; returns whether it was the first of its touch today.
    pub async fn record(&self, visit: &Visit) -> Result<bool, AppError> {
        let day = visit.at.div_euclid(86_400);
        let visitor = crate::accounts::tokens::hash(&visit.visitor);
        let touch = visit.touch();
        {
            let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
            if written.get(&(visitor.clone(), touch.clone())) == Some(&day) {
                return Ok(false);
            }
            if written.len() > 200_000 {
                written.clear();
            }
            written.insert((visitor.clone(), touch.clone()), day);
        }
        let t = &visit.tracking;
        // The visit and its figures in one transaction: counted once, or not at all.
        let mut tx = self.db.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO visits (site_id, day, visitor, touch, page, lander, slug, network, ref, sub1, sub2, sub3, click_id, country, device, ip_prefix, created_at, variant) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) ON CONFLICT (site_id, visitor, day, touch) DO NOTHING",
        )
        .bind(visit.site_id)
        .bind(day)
        .bind(&visitor)
        .bind(&touch)
        .bind(visit.landing.page.as_str())
        .bind(visit.landing.lander.as_deref())
        .bind(visit.landing.slug.as_deref())
        .bind(t.network.as_deref())
        .bind(t.r#ref.as_deref())
        .bind(t.sub1.as_deref())
        .bind(t.sub2.as_deref())
        .bind(t.sub3.as_deref())
        .bind(visit.click_id.as_deref())
        .bind(visit.country.as_deref())
        .bind(visit.device.as_str())
        .bind(visit.ip_prefix.as_deref())
        .bind(visit.at)
        .bind(visit.variant.as_deref())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 1 {
            let source = domain::figures::Source::new(t, visit.landing.lander.clone(), visit.country.clone(), Some(visit.device.as_str().to_string()))
                .with_variant(visit.variant.clone());
            crate::figures::visit(&mut tx, visit.site_id, &source, visit.at).await?;
        }
        tx.commit().await?;
        Ok(inserted == 1)
    }
}

/// A landing with a source, as a signup's attribution reads it.
#[derive(Debug, Clone, sqlx::FromRow)]
struct TouchRow {
    id: i64,
    created_at: i64,
    page: String,
    lander: Option<String>,
    slug: Option<String>,
    network: Option<String>,
    r#ref: Option<String>,
    sub1: Option<String>,
    sub2: Option<String>,
    sub3: Option<String>,
    click_id: Option<String>,
}

impl TouchRow {
    fn tracking(&self) -> Tracking {
        Tracking { network: self.network.clone(), r#ref: self.r#ref.clone(), sub1: self.sub1.clone(), sub2: self.sub2.clone(), sub3: self.sub3.clone() }
    }
}

/// The touches of a signup: its first and last landing with a source within the site's window.
#[derive(Debug, Clone, Default)]
pub struct SignupTouches {
    first: Option<TouchRow>,
    last: Option<TouchRow>,
    model: Option<Attribution>,
    /// The split test's variant of the visitor's latest landing under test within the window
    /// (whatever its source: a test compares all of a lander's traffic).
    variant: Option<String>,
}

impl SignupTouches {
    /// The lander of the touch the member is counted under (the last one's when the signup
    /// brought its own tracking: the page it was made on came last).
    pub fn lander(&self) -> Option<String> {
        let chosen = match self.model {
            Some(Attribution::FirstTouch) => self.first.as_ref(),
            _ => self.last.as_ref(),
        };
        chosen.and_then(|t| t.lander.clone())
    }

    /// The split test's variant the member counts under.
    pub fn variant(&self) -> Option<String> {
        self.variant.clone()
    }

    /// The tracking the member is counted under: the chosen touch's when the site counts the
    /// first touch, or when the signup brought none of its own; else the signup's own (the
    /// latest landing's cookie, or the form's fields).
    pub fn tracking(&self, own: Tracking) -> Tracking {
        let chosen = match self.model {
            Some(Attribution::FirstTouch) => self.first.as_ref(),
            _ => self.last.as_ref(),
        };
        match chosen {
            Some(touch) if self.model == Some(Attribution::FirstTouch) || !own.has_source() => touch.tracking(),
            _ => own,
        }
    }
}

/// Reads the touches of `visitor` (the cookie's value) on the site before `now`.
pub async fn signup_touches(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    site: &SiteSettings,
    visitor: Option<&str>,
    now: i64,
) -> Result<SignupTouches, AppError> {
    let Some(visitor) = visitor.filter(|v| crate::accounts::tokens::is_well_formed(v)) else { return Ok(SignupTouches::default()) };
    let days = site.attribution_days.clamp(1, 90);
    let rows: Vec<TouchRow> = sqlx::query_as(
        "SELECT id, created_at, page, lander, slug, network, ref, sub1, sub2, sub3, click_id FROM visits \
         WHERE visitor = $1 AND site_id = $2 AND created_at >= $3 AND created_at <= $4 AND (network IS NOT NULL OR ref IS NOT NULL) \
         ORDER BY created_at, id LIMIT 500",
    )
    .bind(crate::accounts::tokens::hash(visitor))
    .bind(site.id)
    .bind(now - days * 86_400)
    .bind(now)
    .fetch_all(&mut **tx)
    .await?;
    let touches: Vec<Touch> = rows.iter().map(|r| Touch { at: r.created_at, id: r.id }).collect();
    let pick = |model| attributed(&touches, model, days, now).and_then(|t| rows.iter().find(|r| r.id == t.id)).cloned();
    let model = if site.attribution_first_touch { Attribution::FirstTouch } else { Attribution::LastTouch };
    let variant: Option<(Option<String>,)> = sqlx::query_as(
        "SELECT variant FROM visits WHERE visitor = $1 AND site_id = $2 AND created_at >= $3 AND created_at <= $4 AND variant IS NOT NULL \
         ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(crate::accounts::tokens::hash(visitor))
    .bind(site.id)
    .bind(now - days * 86_400)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(SignupTouches { first: pick(Attribution::FirstTouch), last: pick(Attribution::LastTouch), model: Some(model), variant: variant.and_then(|(v,)| v) })
}

/// Keeps a new member's touches (in the signup's transaction).
pub async fn keep_touches(tx: &mut sqlx::Transaction<'static, sqlx::Any>, user_id: i64, touches: &SignupTouches) -> Result<(), AppError> {
    for (name, touch) in [("first", &touches.first), ("last", &touches.last)] {
        let Some(t) = touch else { continue };
        sqlx::query(
            "INSERT INTO signup_touches (user_id, touch, landed_at, page, lander, slug, network, ref, sub1, sub2, sub3, click_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(user_id)
        .bind(name)
        .bind(t.created_at)
        .bind(&t.page)
        .bind(t.lander.as_deref())
        .bind(t.slug.as_deref())
        .bind(t.network.as_deref())
        .bind(t.r#ref.as_deref())
        .bind(t.sub1.as_deref())
        .bind(t.sub2.as_deref())
        .bind(t.sub3.as_deref())
        .bind(t.click_id.as_deref())
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
