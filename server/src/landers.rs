//! Landers' bounce log (SPEC §9 `lb`): a page opened with `lb` in its URL reports when it was
//! hidden before the visitor clicked anything; stored with the lander, slug and tracking, and
//! counted per lander for staff.

use domain::account::Tracking;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::staff::require_staff;

/// Bounces of one lander since a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BounceFigure {
    pub lander: String,
    pub bounces: i64,
    /// Of those, from visitors with a traffic source (`network` or `ref`).
    pub with_source: i64,
}

#[derive(Debug, Clone)]
pub struct Landers {
    db: Db,
}

impl Landers {
    pub fn new(db: Db) -> Landers {
        Landers { db }
    }

    /// Stores the bounce of the page at `path_and_query` when its URL asked for it (`lb`);
    /// returns whether it did.
    pub async fn record_bounce(&self, site_id: i64, path_and_query: &str, now: i64) -> Result<bool, AppError> {
        let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
        if !domain::lander::wants_bounce_log(query) {
            return Ok(false);
        }
        let (lander, slug) = domain::lander::from_path(path);
        let t = Tracking::from_query(query);
        sqlx::query("INSERT INTO page_bounces (site_id, lander, slug, network, ref, sub1, sub2, sub3, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
            .bind(site_id)
            .bind(lander)
            .bind(slug)
            .bind(t.network)
            .bind(t.r#ref)
            .bind(t.sub1)
            .bind(t.sub2)
            .bind(t.sub3)
            .bind(now)
            .execute(self.db.pool())
            .await?;
        Ok(true)
    }

    /// Bounces per lander since `since`, most first (staff only).
    pub async fn bounce_figures(&self, staff: &Member, site_id: i64, since: i64) -> Result<Vec<BounceFigure>, AppError> {
        require_staff(staff, site_id)?;
        let rows: Vec<(String, i64, i64)> = sqlx::query_as(
            "SELECT lander, COUNT(*) AS bounces, SUM(CASE WHEN network IS NOT NULL OR ref IS NOT NULL THEN 1 ELSE 0 END) AS with_source \
             FROM page_bounces WHERE site_id = $1 AND created_at >= $2 GROUP BY lander ORDER BY bounces DESC, lander LIMIT 100",
        )
        .bind(site_id)
        .bind(since)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.into_iter().map(|(lander, bounces, with_source)| BounceFigure { lander, bounces, with_source }).collect())
    }
}
