//! The owner's figures (`domain::figures`): daily rollups kept by the events themselves, and
//! the funnel staff read from them on `/staff/figures`.
//!
//! Each event adds to its rows inside its own transaction — the visit's insert, the signup,
//! the confirmation, the payment's change to paid, a refund or chargeback — so a figure is
//! never lost nor counted twice, whatever dies when. One multi-row upsert per event writes the
//! day's row of every dimension, for all networks and again within the member's network. The
//! page sums a range of those rows (an index range, never a scan of visits or payments);
//! buyers come from `figure_payers`, one row per paying member and day, so that they are
//! distinct over any period.

use std::collections::{HashMap, HashSet};

pub use domain::figures::Funnel;
use domain::figures::{Counts, Dimension, Event, FigureQuery, FigureRow, Grain, Source};
use domain::staff::StaffArea;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::staff::require_staff;

type Tx = sqlx::Transaction<'static, sqlx::Any>;

const DAY: i64 = 86_400;

/// The counts' columns, in the order [`add`] binds them (`$3` to `$12`).
const COUNT_COLUMNS: [&str; 10] =
    ["visits", "signups", "confirmed", "first_purchases", "purchases", "gross", "refunded", "cohort_1d", "cohort_7d", "cohort_30d"];

/// A multi-row upsert into a rollup `table` that adds the counts: `$1` the site, `$2` the
/// currency, `$3`–`$12` the counts, then each row's own `columns`.
fn upsert_sql(table: &str, columns: &[&str], rows: usize) -> String {
    let counts: Vec<String> = (3..=12).map(|n| format!("${n}")).collect();
    let values: Vec<String> = (0..rows)
        .map(|i| {
            let own: Vec<String> = (0..columns.len()).map(|k| format!("${}", 13 + i * columns.len() + k)).collect();
            format!("($1, $2, {}, {})", own.join(", "), counts.join(", "))
        })
        .collect();
    let set: Vec<String> = COUNT_COLUMNS.iter().map(|c| format!("{c} = {table}.{c} + excluded.{c}")).collect();
    format!(
        "INSERT INTO {table} (site_id, currency, {cols}, {counts}) VALUES {values} ON CONFLICT (site_id, {cols}, currency) DO UPDATE SET {set}",
        cols = columns.join(", "),
        counts = COUNT_COLUMNS.join(", "),
        values = values.join(", "),
        set = set.join(", ")
    )
}

/// Adds `counts` to the rows of `source` on `day`, and to its week's and month's (two
/// statements); `currency`: the payment's for money, "" for the rest.
pub async fn add(tx: &mut Tx, site_id: i64, source: &Source, day: i64, currency: &str, counts: Counts) -> Result<(), AppError> {
    if counts.is_empty() {
        return Ok(());
    }
    let rows = source.rows();
    let c = counts;
    let shared = |sql| {
        sqlx::query(sql)
            .bind(site_id)
            .bind(currency)
            .bind(c.visits)
            .bind(c.signups)
            .bind(c.confirmed)
            .bind(c.first_purchases)
            .bind(c.purchases)
            .bind(c.gross)
            .bind(c.refunded)
            .bind(c.cohort_1d)
            .bind(c.cohort_7d)
            .bind(c.cohort_30d)
    };
    let days_sql = upsert_sql("figure_days", &["scope", "dim", "day", "value"], rows.len());
    let mut query = shared(&days_sql);
    for (scope, dim, value) in &rows {
        query = query.bind(scope.clone()).bind(dim.as_str()).bind(day).bind(value.clone());
    }
    query.execute(&mut **tx).await?;
    let periods_sql = upsert_sql("figure_periods", &["grain", "start", "scope", "dim", "value"], rows.len() * 2);
    let mut query = shared(&periods_sql);
    for grain in [Grain::Week, Grain::Month] {
        for (scope, dim, value) in &rows {
            query = query.bind(grain.as_str()).bind(grain.start(day)).bind(scope.clone()).bind(dim.as_str()).bind(value.clone());
        }
    }
    query.execute(&mut **tx).await?;
    Ok(())
}

/// A landing visit counted (in the visit's own transaction).
pub async fn visit(tx: &mut Tx, site_id: i64, source: &Source, at: i64) -> Result<(), AppError> {
    add(tx, site_id, source, at.div_euclid(DAY), "", Counts::of(Event::Visit)).await
}

/// A new member: where they came from is kept, and the signup counted.
pub async fn signup(tx: &mut Tx, site_id: i64, user_id: i64, source: &Source, now: i64) -> Result<(), AppError> {
    sqlx::query(
        "INSERT INTO member_sources (user_id, site_id, signup_at, network, ref, sub1, sub2, sub3, lander, country, device, variant) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(user_id)
    .bind(site_id)
    .bind(now)
    .bind(source.network.as_deref())
    .bind(source.r#ref.as_deref())
    .bind(source.sub1.as_deref())
    .bind(source.sub2.as_deref())
    .bind(source.sub3.as_deref())
    .bind(source.lander.as_deref())
    .bind(source.country.as_deref())
    .bind(source.device.as_deref())
    .bind(source.variant.as_deref())
    .execute(&mut **tx)
    .await?;
    add(tx, site_id, source, now.div_euclid(DAY), "", Counts::of(Event::Signup)).await
}

/// The source a member counts under and when they signed up (none: staff, operator-run
/// profiles, accounts the figures do not know).
async fn source_of(tx: &mut Tx, user_id: i64) -> Result<Option<(i64, i64, Source)>, AppError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        site_id: i64,
        signup_at: i64,
        #[sqlx(flatten)]
        source: Source,
    }
    let row: Option<Row> =
        sqlx::query_as("SELECT site_id, signup_at, network, ref, sub1, sub2, sub3, lander, country, device, variant FROM member_sources WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(row.map(|r| (r.site_id, r.signup_at, r.source)))
}

/// A member confirmed their address (once: the caller's status change says so).
pub async fn confirmed(tx: &mut Tx, user_id: i64, now: i64) -> Result<(), AppError> {
    let Some((site_id, _, source)) = source_of(tx, user_id).await? else { return Ok(()) };
    add(tx, site_id, &source, now.div_euclid(DAY), "", Counts::of(Event::Confirmed)).await
}

/// A payment became paid (once: the caller's status change says so): the day's purchase, the
/// signup day's cohort, and the member among the day's payers.
pub async fn paid(tx: &mut Tx, user_id: i64, amount: i64, currency: &str, first: bool, now: i64) -> Result<(), AppError> {
    let Some((site_id, signup_at, source)) = source_of(tx, user_id).await? else { return Ok(()) };
    let day = now.div_euclid(DAY);
    add(tx, site_id, &source, day, currency, Counts::of(Event::Purchase { amount, first })).await?;
    add(tx, site_id, &source, signup_at.div_euclid(DAY), currency, Counts::cohort(amount, now - signup_at)).await?;
    let v = |d: Dimension| source.value(d);
    sqlx::query(
        "INSERT INTO figure_payers (site_id, day, user_id, network, ref, sub1, sub2, sub3, lander, country, device, variant) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (site_id, day, user_id) DO NOTHING",
    )
    .bind(site_id)
    .bind(day)
    .bind(user_id)
    .bind(v(Dimension::Network))
    .bind(v(Dimension::Ref))
    .bind(v(Dimension::Sub1))
    .bind(v(Dimension::Sub2))
    .bind(v(Dimension::Sub3))
    .bind(v(Dimension::Lander))
    .bind(v(Dimension::Country))
    .bind(v(Dimension::Device))
    .bind(v(Dimension::Variant))
    .execute(&mut **tx)
    .await?;
    member_money(tx, user_id, currency, 1, amount).await
}

/// Adds to what a member has paid (net) in `currency`.
async fn member_money(tx: &mut Tx, user_id: i64, currency: &str, purchases: i64, amount: i64) -> Result<(), AppError> {
    sqlx::query(
        "INSERT INTO member_money (user_id, currency, purchases, net) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (user_id, currency) DO UPDATE SET purchases = member_money.purchases + excluded.purchases, net = member_money.net + excluded.net",
    )
    .bind(user_id)
    .bind(currency)
    .bind(purchases)
    .bind(amount)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Money went back to a member (a refund settled, or a chargeback): net revenue falls on the
/// day, and the cohort's when it fell within its windows.
pub async fn refunded(tx: &mut Tx, user_id: i64, amount: i64, currency: &str, now: i64) -> Result<(), AppError> {
    let Some((site_id, signup_at, source)) = source_of(tx, user_id).await? else { return Ok(()) };
    add(tx, site_id, &source, now.div_euclid(DAY), currency, Counts::of(Event::Refund { amount })).await?;
    add(tx, site_id, &source, signup_at.div_euclid(DAY), currency, Counts::cohort(-amount, now - signup_at)).await?;
    member_money(tx, user_id, currency, 0, -amount).await
}

/// The column of `figure_payers` for a dimension (a fixed list: never text from a request).
fn payer_column(d: Dimension) -> &'static str {
    match d {
        Dimension::All => "''",
        Dimension::Network => "network",
        Dimension::Ref => "ref",
        Dimension::Sub1 => "sub1",
        Dimension::Sub2 => "sub2",
        Dimension::Sub3 => "sub3",
        Dimension::Lander => "lander",
        Dimension::Country => "country",
        Dimension::Device => "device",
        Dimension::Variant => "variant",
    }
}

/// A member a source brought (the figures' way from a row to the people behind it).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SourceMember {
    pub id: i64,
    pub name: Option<String>,
    pub signup_at: i64,
    pub status: String,
    #[sqlx(try_from = "domain::rows::Flag")]
    pub paid_user: bool,
    pub country: Option<String>,
    pub device: Option<String>,
}

/// The most members the list shows (newest first).
pub const SOURCE_MEMBERS: i64 = 200;

/// The figures staff read.
#[derive(Clone, Debug)]
pub struct Figures {
    db: Db,
}

/// The rollup rows of `from..=to` for `$1` the site, `$2` the scope and `$3` the dimension, each
/// day once: the whole months and weeks from `figure_periods`, the days at the ends from
/// `figure_days` (`domain::figures::cover`), as one `UNION ALL`. The days are numbers this
/// function made, written into the text.
fn range_rows(from: i64, to: i64) -> String {
    let cover = domain::figures::cover(from, to);
    let list = |days: &[i64]| days.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let columns = format!("value, currency, {}", COUNT_COLUMNS.join(", "));
    let mut parts = vec![format!(
        "SELECT {columns} FROM figure_days WHERE site_id = $1 AND scope = $2 AND dim = $3 AND day IN ({})",
        if cover.days.is_empty() { "-1".to_string() } else { list(&cover.days) }
    )];
    for (grain, starts) in [(Grain::Week, &cover.weeks), (Grain::Month, &cover.months)] {
        if !starts.is_empty() {
            parts.push(format!(
                "SELECT {columns} FROM figure_periods WHERE site_id = $1 AND grain = '{}' AND scope = $2 AND dim = $3 AND start IN ({})",
                grain.as_str(),
                list(starts)
            ));
        }
    }
    parts.join(" UNION ALL ")
}

/// The counters summed (PostgreSQL's SUM of a BIGINT is a NUMERIC: cast back): the counts over
/// every currency, money in the one asked for (`$6`).
const SUMS: &str = "CAST(SUM(visits) AS BIGINT) AS visits, CAST(SUM(signups) AS BIGINT) AS signups, \
     CAST(SUM(confirmed) AS BIGINT) AS confirmed, CAST(SUM(first_purchases) AS BIGINT) AS first_purchases, \
     CAST(SUM(purchases) AS BIGINT) AS purchases, \
     CAST(SUM(CASE WHEN currency = $6 THEN gross ELSE 0 END) AS BIGINT) AS gross, \
     CAST(SUM(CASE WHEN currency = $6 THEN refunded ELSE 0 END) AS BIGINT) AS refunded, \
     CAST(SUM(CASE WHEN currency = $6 THEN cohort_1d ELSE 0 END) AS BIGINT) AS cohort_1d, \
     CAST(SUM(CASE WHEN currency = $6 THEN cohort_7d ELSE 0 END) AS BIGINT) AS cohort_7d, \
     CAST(SUM(CASE WHEN currency = $6 THEN cohort_30d ELSE 0 END) AS BIGINT) AS cohort_30d";

impl Figures {
    pub fn new(db: Db) -> Figures {
        Figures { db }
    }

    /// The funnel of `site_id` for `q` (admins and finance).
    pub async fn funnel(&self, who: &Member, site_id: i64, q: &FigureQuery) -> Result<Funnel, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        self.read(site_id, q).await
    }

    /// The members whose signup in the query's range counts under `value` of its grouping
    /// (within its network, when it keeps to one), newest first.
    pub async fn members(&self, who: &Member, site_id: i64, q: &FigureQuery, value: &str) -> Result<Vec<SourceMember>, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let column = payer_column(q.by);
        let network_filter = if q.scope().is_empty() { "" } else { " AND s.network = $5" };
        let sql = format!(
            "SELECT u.id, p.name, s.signup_at, u.status, u.paid_user, s.country, s.device FROM member_sources s \
             JOIN users u ON u.id = s.user_id LEFT JOIN profiles p ON p.user_id = u.id \
             WHERE s.site_id = $1 AND s.signup_at >= $2 AND s.signup_at < $3 AND COALESCE(s.{column}, '') = $4{network_filter} \
             ORDER BY s.signup_at DESC, u.id DESC LIMIT {SOURCE_MEMBERS}"
        );
        let mut query = sqlx::query_as::<_, SourceMember>(&sql).bind(site_id).bind(q.from * DAY).bind((q.to + 1) * DAY).bind(value);
        if !q.scope().is_empty() {
            query = query.bind(q.scope());
        }
        Ok(query.fetch_all(self.db.pool()).await?)
    }

    /// [`Figures::funnel`] once the staff check passed.
    async fn read(&self, site_id: i64, q: &FigureQuery) -> Result<Funnel, AppError> {
        #[derive(sqlx::FromRow)]
        struct ValueRow {
            value: String,
            #[sqlx(flatten)]
            counts: Counts,
        }
        #[derive(sqlx::FromRow)]
        struct DayRow {
            day: i64,
            #[sqlx(flatten)]
            counts: Counts,
        }
        let pool = self.db.pool();
        let scope = q.scope();
        // The currencies paid in over the range, most money first; the one asked for, or that.
        let currencies: Vec<(String,)> = sqlx::query_as(
            "SELECT currency FROM figure_days WHERE site_id = $1 AND scope = '' AND dim = $2 AND day >= $3 AND day <= $4 AND currency <> '' \
             GROUP BY currency ORDER BY SUM(gross) DESC, currency",
        )
        .bind(site_id)
        .bind(Dimension::All.as_str())
        .bind(q.from)
        .bind(q.to)
        .fetch_all(pool)
        .await?;
        let currencies: Vec<String> = currencies.into_iter().map(|(c,)| c).collect();
        let currency = if currencies.contains(&q.currency) { q.currency.clone() } else { currencies.first().cloned().unwrap_or_default() };
        // The networks seen over the range, for the page's choice of one.
        let networks: Vec<(String,)> = sqlx::query_as(
            "SELECT value FROM figure_days WHERE site_id = $1 AND scope = '' AND dim = $2 AND day >= $3 AND day <= $4 AND value <> '' \
             GROUP BY value ORDER BY value LIMIT 200",
        )
        .bind(site_id)
        .bind(Dimension::Network.as_str())
        .bind(q.from)
        .bind(q.to)
        .fetch_all(pool)
        .await?;
        let networks = networks.into_iter().map(|(n,)| n).collect();
        // Per value: the range's whole months and weeks from their rollups, its ends by day.
        // Not kept as a prepared statement: its text differs with each range, and every range
        // asked would stay in each connection's statement cache.
        let sums = SUMS.replace("$6", "$4");
        let by_value: Vec<ValueRow> = sqlx::query_as(&format!("SELECT value, {sums} FROM ({}) AS r GROUP BY value", range_rows(q.from, q.to)))
            .persistent(false)
            .bind(site_id)
            .bind(scope)
            .bind(q.by.as_str())
            .bind(&currency)
            .fetch_all(pool)
            .await?;
        let by_day: Vec<DayRow> = sqlx::query_as(&format!(
            "SELECT day, {SUMS} FROM figure_days WHERE site_id = $1 AND scope = $2 AND dim = $3 AND day >= $4 AND day <= $5 GROUP BY day"
        ))
        .bind(site_id)
        .bind(scope)
        .bind(Dimension::All.as_str())
        .bind(q.from)
        .bind(q.to)
        .bind(&currency)
        .fetch_all(pool)
        .await?;

        // Buyers: distinct members over the whole range per value, and per period.
        let column = payer_column(q.by);
        // Within a network: its payers only (the scope is bound only when there is one).
        let network_filter = if scope.is_empty() { "" } else { " AND network = $4" };
        let buyers_sql = format!(
            "SELECT {column} AS value, COUNT(DISTINCT user_id) AS buyers FROM figure_payers WHERE site_id = $1 AND day >= $2 AND day <= $3{network_filter} GROUP BY {column}"
        );
        let days_sql = format!("SELECT day, user_id FROM figure_payers WHERE site_id = $1 AND day >= $2 AND day <= $3{network_filter}");
        let mut buyers = sqlx::query_as::<_, (String, i64)>(&buyers_sql).bind(site_id).bind(q.from).bind(q.to);
        let mut payer_days = sqlx::query_as::<_, (i64, i64)>(&days_sql).bind(site_id).bind(q.from).bind(q.to);
        if !scope.is_empty() {
            buyers = buyers.bind(scope);
            payer_days = payer_days.bind(scope);
        }
        let (buyers, payer_days) = (buyers.fetch_all(pool).await?, payer_days.fetch_all(pool).await?);

        let buyers: HashMap<String, i64> = buyers.into_iter().collect();
        let mut rows: Vec<FigureRow> = by_value
            .into_iter()
            .map(|r| FigureRow { counts: Counts { buyers: buyers.get(&r.value).copied().unwrap_or(0), ..r.counts }, value: r.value })
            .collect();
        domain::figures::sort_rows(&mut rows, q.sort, q.ascending);
        let days: Vec<(i64, Counts)> = by_day.into_iter().map(|r| (r.day, r.counts)).collect();
        let mut periods = domain::figures::periods(&days, q.from, q.to, q.grain);
        let mut per_period: HashMap<i64, HashSet<i64>> = HashMap::new();
        for (day, user) in &payer_days {
            per_period.entry(q.grain.start(*day)).or_default().insert(*user);
        }
        for (start, counts) in periods.iter_mut() {
            counts.buyers = per_period.get(start).map_or(0, |s| s.len() as i64);
        }
        let mut total = Counts::default();
        for (_, counts) in &days {
            total += *counts;
        }
        total.buyers = payer_days.iter().map(|(_, u)| *u).collect::<HashSet<_>>().len() as i64;
        Ok(Funnel { rows, total, periods, currency, currencies, networks })
    }
}
