//! Split tests (`domain::splits`): staff start and stop them; the visit middleware asks which
//! design a visitor is shown on a lander, the payments which price a member is shown for a
//! bundle; the test's page reads what each variant brought.
//!
//! The running tests of a site are kept on each node for a few seconds (a lander answers
//! without a database read); a start or stop clears this node's copy at once, the others' within
//! [`FRESH_FOR`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use domain::figures::Dimension;
use domain::site::CreditPack;
use domain::splits::{label, pack_subject, SplitTest, Variant, VariantFigures, WonOn};
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

/// The columns a test is read with.
const COLUMNS: &str = "id, name, lander, variants, currency, started_at, stopped_at";

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    lander: String,
    variants: String,
    currency: Option<String>,
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
            currency: self.currency,
            started_at: self.started_at,
            stopped_at: self.stopped_at,
        }
    }
}

/// A bundle staff can test a price of.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Bundle {
    pub id: i64,
    pub credits: i64,
    pub price_minor: i64,
    pub currency: String,
    /// The country it is sold in (none: everywhere without bundles of its own).
    pub country: Option<String>,
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
        let rows: Vec<Row> = sqlx::query_as(&format!("SELECT {COLUMNS} FROM split_tests WHERE site_id = $1 AND stopped_at IS NULL"))
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
            "SELECT {COLUMNS} FROM split_tests WHERE site_id = $1 \
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
        let (name, lander, variants) = domain::splits::validate(name, lander, variants).map_err(form_error)?;
        self.insert(who, site_id, &name, lander.route(), None, &variants).await
    }

    /// Starts a price test of bundle `pack_id` between `prices` (price, weight as typed; in the
    /// bundle's currency); logged. Refused as [`Splits::start`], and for a bundle that is not
    /// the site's or not on sale.
    pub async fn start_price(&self, who: &Member, site_id: i64, name: &str, pack_id: i64, prices: &[(String, String)]) -> Result<i64, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let (name, variants) = domain::splits::validate_prices(name, prices).map_err(form_error)?;
        let bundle = self.bundles(who, site_id).await?.into_iter().find(|b| b.id == pack_id).ok_or(ErrorCode::BadRequest)?;
        self.insert(who, site_id, &name, &pack_subject(pack_id), Some(&bundle), &variants).await
    }

    /// The site's bundles on sale, for a price test's form.
    pub async fn bundles(&self, who: &Member, site_id: i64) -> Result<Vec<Bundle>, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        Ok(sqlx::query_as(
            "SELECT id, credits, price_minor, currency, country FROM credit_packs WHERE site_id = $1 AND active = TRUE ORDER BY country, sort_order, credits",
        )
        .bind(site_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Stores a checked test (a price test's bundle given), refused when its name was used or
    /// its subject has a test running; logged.
    async fn insert(&self, who: &Member, site_id: i64, name: &str, subject: &str, bundle: Option<&Bundle>, variants: &[Variant]) -> Result<i64, AppError> {
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        // A name used before, or a test running on the lander or bundle.
        let taken: Vec<(String,)> = sqlx::query_as("SELECT name FROM split_tests WHERE site_id = $1 AND (name = $2 OR (lander = $3 AND stopped_at IS NULL))")
            .bind(site_id)
            .bind(name)
            .bind(subject)
            .fetch_all(&mut *tx)
            .await?;
        if !taken.is_empty() {
            let code = if taken.iter().any(|(n,)| n == name) { ErrorCode::SplitNameTaken } else { ErrorCode::SplitRunning };
            return Err(domain::ApiError::field(domain::Field::Form, code).into());
        }
        let json = serde_json::to_string(variants).map_err(|e| AppError::Internal(e.to_string()))?;
        let inserted: Result<(i64,), sqlx::Error> = sqlx::query_as(
            "INSERT INTO split_tests (site_id, name, lander, variants, started_at, pack_id, currency) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(site_id)
        .bind(name)
        .bind(subject)
        .bind(&json)
        .bind(now)
        .bind(bundle.map(|b| b.id))
        .bind(bundle.map(|b| b.currency.as_str()))
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
        let shares = variants.iter().map(|v| format!("{} {}", v.arm(), v.weight)).collect::<Vec<_>>().join(", ");
        crate::staff::record(&mut tx, site_id, who, "split_started", &format!("{name} ({subject})"), &shares, now).await?;
        tx.commit().await?;
        self.forget();
        Ok(id)
    }

    /// `packs` with the price each is shown at under the site's running price tests: to a
    /// member their own (fixed by the first page that shows it, drawn from `visitor` — the
    /// browser's visitor cookie — or else the member), to a visitor the one their cookie
    /// draws, to staff and to a visitor without a cookie the bundle's own. A bundle whose
    /// currency is no longer the test's keeps its own price.
    pub async fn priced(
        &self,
        site_id: i64,
        member: Option<&Member>,
        visitor: Option<&str>,
        mut packs: Vec<CreditPack>,
        now: i64,
    ) -> Result<Vec<CreditPack>, AppError> {
        let tests = self.running(site_id).await?;
        for pack in &mut packs {
            let Some(test) = tests.iter().find(|t| t.pack_id() == Some(pack.id) && t.currency.as_deref() == Some(pack.currency.as_str())) else { continue };
            let price = match member {
                Some(m) if m.is_staff() => None,
                Some(m) => Some(self.exposed(test, m.id, visitor, now).await?),
                None => visitor.and_then(|v| test.variant_for(v).price_minor),
            };
            if let Some(price) = price {
                pack.price_minor = price;
            }
        }
        Ok(packs)
    }

    /// The price member `user_id` is shown in a price test: the one fixed for them, else one
    /// drawn now and fixed (two pages at once fix one).
    async fn exposed(&self, test: &SplitTest, user_id: i64, visitor: Option<&str>, now: i64) -> Result<i64, AppError> {
        let pool = self.db.pool();
        let read = || sqlx::query_as::<_, (i64,)>("SELECT price_minor FROM price_exposures WHERE test_id = $1 AND user_id = $2").bind(test.id).bind(user_id);
        if let Some((price,)) = read().fetch_optional(pool).await? {
            return Ok(price);
        }
        let key = visitor.map(str::to_string).unwrap_or_else(|| SplitTest::member_key(user_id));
        let variant = test.variant_for(&key);
        let price = variant.price_minor.ok_or_else(|| AppError::Internal("a price test without a price".into()))?;
        sqlx::query(
            "INSERT INTO price_exposures (test_id, user_id, variant, price_minor, first_seen_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (test_id, user_id) DO NOTHING",
        )
        .bind(test.id)
        .bind(user_id)
        .bind(label(&test.name, &variant.arm()))
        .bind(price)
        .bind(now)
        .execute(pool)
        .await?;
        Ok(read().fetch_one(pool).await?.0)
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
        let row: Option<Row> =
            sqlx::query_as(&format!("SELECT {COLUMNS} FROM split_tests WHERE site_id = $1 AND id = $2")).bind(site_id).bind(id).fetch_optional(pool).await?;
        let test = row.ok_or(ErrorCode::NotFound)?.test();
        if test.pack_id().is_some() {
            return self.price_report(test).await;
        }
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

    /// What each price of a price test brought: the members shown it, those who paid, and
    /// what they paid from then on while the test ran (in its currency, net).
    async fn price_report(&self, test: SplitTest) -> Result<Report, AppError> {
        let rows: Vec<(String, i64, i64, i64, f64)> = sqlx::query_as(
            "SELECT variant, CAST(COUNT(*) AS BIGINT), CAST(SUM(CASE WHEN purchases > 0 THEN 1 ELSE 0 END) AS BIGINT), \
             CAST(SUM(net) AS BIGINT), CAST(SUM(CAST(net AS DOUBLE PRECISION) * net) AS DOUBLE PRECISION) \
             FROM price_exposures WHERE test_id = $1 GROUP BY variant",
        )
        .bind(test.id)
        .fetch_all(self.db.pool())
        .await?;
        let variants: Vec<VariantFigures> = test
            .variants
            .iter()
            .map(|v| {
                let value = label(&test.name, &v.arm());
                let (members, buyers, net, squares) = rows.iter().find(|r| r.0 == value).map(|r| (r.1, r.2, r.3, r.4)).unwrap_or_default();
                VariantFigures::new(v, members, 0, buyers, net, squares)
            })
            .collect();
        let winner = domain::splits::price_winner(&variants);
        Ok(Report { currency: test.currency.clone().unwrap_or_default(), test, variants, winner })
    }
}

/// A test's form refused for `code`, with the limit its text names.
fn form_error(code: ErrorCode) -> domain::ApiError {
    let error = domain::ApiError::field(domain::Field::Form, code);
    match code {
        ErrorCode::SplitNameInvalid => error.with("max", domain::splits::NAME_MAX_CHARS),
        ErrorCode::SplitWeightInvalid => error.with("max", domain::splits::MAX_WEIGHT),
        _ => error,
    }
}

/// A payment became paid: it counts for the member in each running price test that showed
/// them a price before (in the test's currency), in the payment's transaction.
pub async fn paid(tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: i64, amount: i64, currency: &str, now: i64) -> Result<(), AppError> {
    sqlx::query(
        "UPDATE price_exposures SET purchases = purchases + 1, net = net + $2 WHERE user_id = $1 AND first_seen_at <= $3 \
         AND test_id IN (SELECT id FROM split_tests WHERE stopped_at IS NULL AND currency = $4)",
    )
    .bind(user_id)
    .bind(amount)
    .bind(now)
    .bind(currency)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Money of a payment paid at `paid_at` went back (a refund, a chargeback, a reversal): it
/// leaves the price tests that payment counted in.
pub async fn refunded(tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: i64, amount: i64, currency: &str, paid_at: i64) -> Result<(), AppError> {
    sqlx::query(
        "UPDATE price_exposures SET net = net - $2 WHERE user_id = $1 AND first_seen_at <= $3 \
         AND test_id IN (SELECT id FROM split_tests WHERE started_at <= $3 AND (stopped_at IS NULL OR stopped_at > $3) AND currency = $4)",
    )
    .bind(user_id)
    .bind(amount)
    .bind(paid_at)
    .bind(currency)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
