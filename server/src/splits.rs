//! Split tests of landers (`domain::splits`): staff start and stop them, the visit middleware
//! asks which design a visitor is shown, and the test's page reads what each design brought.
//!
//! The running tests of a site are kept on each node for a few seconds (a lander answers
//! without a database read); a start or stop clears this node's copy at once, the others' within
//! [`FRESH_FOR`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use domain::figures::Dimension;
use domain::splits::{label, SplitTest, Variant, VariantFigures, WonOn};
use domain::staff::StaffArea;
use domain::ErrorCode;

use crate::accounts::Member;
use crate::clock::Clock;
use crate::db::Db;
use crate::error::AppError;
use crate::staff::require_staff;
use crate::ttl_cache::TtlCache;

/// How long a node trusts its copy of a site's running tests.
pub const FRESH_FOR: Duration = Duration::from_secs(5);
/// The most tests the page lists (newest first).
const LISTED: i64 = 50;

/// The design a visitor is shown on a lander under test, put in the request's extensions by
/// the visit middleware for the page (and the page cache's key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The design's route.
    pub design: String,
    /// What the visit counts under (`name:design`).
    pub variant: String,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    lander: String,
    variants: String,
    started_at: i64,
    stopped_at: Option<i64>,
}

impl Row {
    fn test(self) -> SplitTest {
        SplitTest {
            id: self.id,
            name: self.name,
            lander: self.lander,
            variants: serde_json::from_str::<Vec<Variant>>(&self.variants).unwrap_or_default(),
            started_at: self.started_at,
            stopped_at: self.stopped_at,
        }
    }
}

/// A test and what each of its designs brought.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub test: SplitTest,
    /// The currency of the money figures ("" when nothing was paid yet).
    pub currency: String,
    pub variants: Vec<VariantFigures>,
    pub winner: Option<(usize, WonOn)>,
}

type Running = Arc<Vec<SplitTest>>;

#[derive(Clone, Debug)]
pub struct Splits {
    db: Db,
    clock: Clock,
    /// Each site's running tests; a start or stop on this node moves the generation on.
    running: Arc<TtlCache<i64, Running>>,
    generation: Arc<AtomicU64>,
}

impl Splits {
    pub fn new(db: Db, clock: Clock) -> Splits {
        Splits { db, clock, running: Arc::new(TtlCache::new(FRESH_FOR, 1024)), generation: Default::default() }
    }

    /// The site's running tests (this node's copy while fresh).
    async fn running(&self, site_id: i64) -> Result<Running, AppError> {
        let generation = self.generation.load(Ordering::Acquire);
        if let Some(tests) = self.running.get(&site_id, generation) {
            return Ok(tests);
        }
        let rows: Vec<Row> =
            sqlx::query_as("SELECT id, name, lander, variants, started_at, stopped_at FROM split_tests WHERE site_id = $1 AND stopped_at IS NULL")
                .bind(site_id)
                .fetch_all(self.db.pool())
                .await?;
        let tests: Running = Arc::new(rows.into_iter().map(Row::test).filter(|t| !t.variants.is_empty()).collect());
        self.running.put(site_id, generation, tests.clone());
        Ok(tests)
    }

    /// The design `visitor` (their cookie's value) is shown on `lander` when a test runs on it.
    /// A failed read shows the lander itself (logged): a visitor never waits on a test.
    pub async fn shown(&self, site_id: i64, lander: &str, visitor: &str) -> Option<Shown> {
        let tests = match self.running(site_id).await {
            Ok(tests) => tests,
            Err(error) => {
                tracing::warn!(%error, "could not read the running split tests");
                return None;
            }
        };
        let test = tests.iter().find(|t| t.lander == lander)?;
        let variant = test.variant_for(visitor);
        Some(Shown { design: variant.design.clone(), variant: label(&test.name, &variant.design) })
    }

    /// Makes this node read the running tests again.
    fn forget(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// The site's tests, running ones first, then the newest (admins and finance).
    pub async fn list(&self, who: &Member, site_id: i64) -> Result<Vec<SplitTest>, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let rows: Vec<Row> = sqlx::query_as(&format!(
            "SELECT id, name, lander, variants, started_at, stopped_at FROM split_tests WHERE site_id = $1 \
             ORDER BY CASE WHEN stopped_at IS NULL THEN 0 ELSE 1 END, started_at DESC, id DESC LIMIT {LISTED}"
        ))
        .bind(site_id)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.into_iter().map(Row::test).collect())
    }

    /// Starts a test of `lander` between `variants` (design, weight as typed); logged. Refused:
    /// a name or designs that do not check out, a name used before, a lander with a test
    /// running.
    pub async fn start(&self, who: &Member, site_id: i64, name: &str, lander: &str, variants: &[(String, String)]) -> Result<i64, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let (name, lander, variants) = domain::splits::validate(name, lander, variants).map_err(|code| {
            let error = domain::ApiError::field(domain::Field::Form, code);
            match code {
                ErrorCode::SplitNameInvalid => error.with("max", domain::splits::NAME_MAX_CHARS),
                ErrorCode::SplitWeightInvalid => error.with("max", domain::splits::MAX_WEIGHT),
                _ => error,
            }
        })?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        // A name used before, or a test running on the lander.
        let taken: Vec<(String,)> = sqlx::query_as("SELECT name FROM split_tests WHERE site_id = $1 AND (name = $2 OR (lander = $3 AND stopped_at IS NULL))")
            .bind(site_id)
            .bind(&name)
            .bind(lander.route())
            .fetch_all(&mut *tx)
            .await?;
        if !taken.is_empty() {
            let code = if taken.iter().any(|(n,)| *n == name) { ErrorCode::SplitNameTaken } else { ErrorCode::SplitRunning };
            return Err(domain::ApiError::field(domain::Field::Form, code).into());
        }
        let json = serde_json::to_string(&variants).map_err(|e| AppError::Internal(e.to_string()))?;
        let inserted: Result<(i64,), sqlx::Error> =
            sqlx::query_as("INSERT INTO split_tests (site_id, name, lander, variants, started_at) VALUES ($1, $2, $3, $4, $5) RETURNING id")
                .bind(site_id)
                .bind(&name)
                .bind(lander.route())
                .bind(&json)
                .bind(now)
                .fetch_one(&mut *tx)
                .await;
        let (id,) = match inserted {
            Ok(row) => row,
            // Two starts at once: the unique indexes decide.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(domain::ApiError::field(domain::Field::Form, ErrorCode::SplitRunning).into())
            }
            Err(e) => return Err(e.into()),
        };
        let shares = variants.iter().map(|v| format!("{} {}", v.design, v.weight)).collect::<Vec<_>>().join(", ");
        crate::staff::record(&mut tx, site_id, who, "split_started", &format!("{name} ({})", lander.route()), &shares, now).await?;
        tx.commit().await?;
        self.forget();
        Ok(id)
    }

    /// Stops a running test; logged. Its figures stay.
    pub async fn stop(&self, who: &Member, site_id: i64, id: i64) -> Result<(), AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let stopped: Option<(String,)> =
            sqlx::query_as("UPDATE split_tests SET stopped_at = $3 WHERE site_id = $1 AND id = $2 AND stopped_at IS NULL RETURNING name")
                .bind(site_id)
                .bind(id)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
        let Some((name,)) = stopped else { return Err(ErrorCode::NotFound.into()) };
        crate::staff::record(&mut tx, site_id, who, "split_stopped", &name, "", now).await?;
        tx.commit().await?;
        self.forget();
        Ok(())
    }

    /// What each design of test `id` brought from its start to its end (or now): visits and
    /// signups from the rollups; buyers and money from its members' own sums, in the currency
    /// they paid most in.
    pub async fn report(&self, who: &Member, site_id: i64, id: i64) -> Result<Report, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let pool = self.db.pool();
        let row: Option<Row> = sqlx::query_as("SELECT id, name, lander, variants, started_at, stopped_at FROM split_tests WHERE site_id = $1 AND id = $2")
            .bind(site_id)
            .bind(id)
            .fetch_optional(pool)
            .await?;
        let test = row.ok_or(ErrorCode::NotFound)?.test();
        let (from, to) = (test.started_at.div_euclid(86_400), test.stopped_at.unwrap_or_else(|| self.clock.now()).div_euclid(86_400));
        let labels: Vec<String> = test.variants.iter().map(|v| label(&test.name, &v.design)).collect();
        let mut counts: HashMap<String, (i64, i64)> = HashMap::new();
        let rows: Vec<(String, i64, i64)> = sqlx::query_as(
            "SELECT value, CAST(SUM(visits) AS BIGINT), CAST(SUM(signups) AS BIGINT) FROM figure_days \
             WHERE site_id = $1 AND scope = '' AND dim = $2 AND day >= $3 AND day <= $4 AND value LIKE $5 GROUP BY value",
        )
        .bind(site_id)
        .bind(Dimension::Variant.as_str())
        .bind(from)
        .bind(to)
        .bind(format!("{}:%", test.name))
        .fetch_all(pool)
        .await?;
        for (value, visits, signups) in rows {
            counts.insert(value, (visits, signups));
        }
        // What each paying member of the test brought, per currency; the test's currency is the
        // one with the most money.
        let money: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT s.variant, m.currency, m.net FROM member_money m JOIN member_sources s ON s.user_id = m.user_id \
             WHERE s.site_id = $1 AND s.variant LIKE $2 AND m.purchases > 0",
        )
        .bind(site_id)
        .bind(format!("{}:%", test.name))
        .fetch_all(pool)
        .await?;
        let mut per_currency: HashMap<&str, i64> = HashMap::new();
        for (_, currency, net) in &money {
            *per_currency.entry(currency.as_str()).or_default() += net;
        }
        let currency = per_currency.into_iter().max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0))).map(|(c, _)| c.to_string()).unwrap_or_default();
        let mut variants = Vec::new();
        for (variant, value) in test.variants.iter().zip(&labels) {
            let nets: Vec<i64> = money.iter().filter(|(v, c, _)| v == value && *c == currency).map(|(_, _, n)| *n).collect();
            let squares: f64 = nets.iter().map(|n| (*n as f64) * (*n as f64)).sum();
            let (visits, signups) = counts.get(value).copied().unwrap_or((0, 0));
            variants.push(VariantFigures::new(variant, visits, signups, nets.len() as i64, nets.iter().sum(), squares));
        }
        let winner = domain::splits::winner(&variants);
        Ok(Report { test, currency, variants, winner })
    }
}
