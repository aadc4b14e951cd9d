//! The owner's figures (`/staff/figures`): what each traffic source, lander, country and device
//! class brought, from the visit to the money, per day, week or month.
//!
//! Every event counts once, on the day it happened (UTC), under the source the member counts
//! for (`crate::visits`: the attributed touch): visits, signups, confirmations, first
//! purchases, purchases and their money, refunds and chargebacks. A cohort's revenue is kept on
//! its signup day: what the members who signed up that day paid within 1, 7 and 30 days,
//! less what was refunded within those days. Buyers are the distinct members who paid in the
//! period (not a sum of days).

use serde::{Deserialize, Serialize};

mod cover;
pub use cover::{cover, Cover};

/// What the table groups by (the rollups keep one row per dimension and value and day).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Dimension {
    /// Everything together (the chart's line, the table's total).
    All,
    Network,
    Ref,
    Sub1,
    Sub2,
    Sub3,
    Lander,
    Country,
    Device,
    /// A split test's variant (`name:design`, `domain::splits`).
    Variant,
}

impl Dimension {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The dimensions a table can be grouped by.
    pub const GROUPS: [Dimension; 9] = [
        Dimension::Network,
        Dimension::Ref,
        Dimension::Sub1,
        Dimension::Sub2,
        Dimension::Sub3,
        Dimension::Lander,
        Dimension::Country,
        Dimension::Device,
        Dimension::Variant,
    ];
}

/// The most characters of a dimension's value kept (longer tracking values are cut).
pub const VALUE_MAX_CHARS: usize = 100;

/// Where a member (or a visit) came from, as the figures count it. `None`: not known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct Source {
    pub network: Option<String>,
    #[cfg_attr(feature = "sqlx", sqlx(rename = "ref"))]
    #[serde(rename = "ref")]
    pub r#ref: Option<String>,
    pub sub1: Option<String>,
    pub sub2: Option<String>,
    pub sub3: Option<String>,
    pub lander: Option<String>,
    pub country: Option<String>,
    pub device: Option<String>,
    /// The split test's variant the visit was shown, or the member counts under.
    pub variant: Option<String>,
}

impl Source {
    /// A source from a visit's or signup's tracking and the rest of what is known of it (no
    /// variant: [`Source::with_variant`]).
    pub fn new(tracking: &crate::account::Tracking, lander: Option<String>, country: Option<String>, device: Option<String>) -> Source {
        Source {
            network: tracking.network.clone(),
            r#ref: tracking.r#ref.clone(),
            sub1: tracking.sub1.clone(),
            sub2: tracking.sub2.clone(),
            sub3: tracking.sub3.clone(),
            lander,
            country,
            device,
            variant: None,
        }
    }

    pub fn with_variant(self, variant: Option<String>) -> Source {
        Source { variant, ..self }
    }

    /// The value this source has for `dimension` ("" when not known; cut to
    /// [`VALUE_MAX_CHARS`]).
    pub fn value(&self, dimension: Dimension) -> String {
        let v = match dimension {
            Dimension::All => None,
            Dimension::Network => self.network.as_deref(),
            Dimension::Ref => self.r#ref.as_deref(),
            Dimension::Sub1 => self.sub1.as_deref(),
            Dimension::Sub2 => self.sub2.as_deref(),
            Dimension::Sub3 => self.sub3.as_deref(),
            Dimension::Lander => self.lander.as_deref(),
            Dimension::Country => self.country.as_deref(),
            Dimension::Device => self.device.as_deref(),
            Dimension::Variant => self.variant.as_deref(),
        };
        v.map(|v| v.trim().chars().take(VALUE_MAX_CHARS).collect()).unwrap_or_default()
    }

    /// The rollup rows one event of this source adds to: `(scope, dimension, value)`, where
    /// the scope is "" (all networks) and, for a source with a network, that network too (so
    /// a network's figures can be grouped by anything).
    pub fn rows(&self) -> Vec<(String, Dimension, String)> {
        let network = self.value(Dimension::Network);
        let mut scopes = vec![String::new()];
        if !network.is_empty() {
            scopes.push(network);
        }
        let mut rows = Vec::new();
        for scope in scopes {
            for dimension in <Dimension as strum::IntoEnumIterator>::iter() {
                if !scope.is_empty() && dimension == Dimension::Network {
                    continue;
                }
                rows.push((scope.clone(), dimension, self.value(dimension)));
            }
        }
        rows
    }
}

/// One event the figures count. Amounts are in minor units of the site's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Visit,
    Signup,
    Confirmed,
    /// A paid purchase (`first`: the member's first).
    Purchase {
        amount: i64,
        first: bool,
    },
    /// Money given back (a refund or a chargeback).
    Refund {
        amount: i64,
    },
}

/// The counters of one row (or a sum of rows).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
pub struct Counts {
    pub visits: i64,
    pub signups: i64,
    pub confirmed: i64,
    pub first_purchases: i64,
    /// Distinct members who paid (filled from the payers, not summed).
    #[cfg_attr(feature = "sqlx", sqlx(default))]
    pub buyers: i64,
    pub purchases: i64,
    pub gross: i64,
    pub refunded: i64,
    pub cohort_1d: i64,
    pub cohort_7d: i64,
    pub cohort_30d: i64,
}

/// The cohort windows, in days.
pub const COHORT_DAYS: [i64; 3] = [1, 7, 30];

impl Counts {
    /// What `event` adds to its day's row.
    pub fn of(event: Event) -> Counts {
        let mut c = Counts::default();
        match event {
            Event::Visit => c.visits = 1,
            Event::Signup => c.signups = 1,
            Event::Confirmed => c.confirmed = 1,
            Event::Purchase { amount, first } => {
                c.purchases = 1;
                c.gross = amount;
                c.first_purchases = i64::from(first);
            }
            Event::Refund { amount } => c.refunded = amount,
        }
        c
    }

    /// What money `amount` (negative: given back) `after_secs` after the member's signup adds
    /// to the signup day's cohort row.
    pub fn cohort(amount: i64, after_secs: i64) -> Counts {
        let within = |days: i64| if (0..days * 86_400).contains(&after_secs) { amount } else { 0 };
        Counts { cohort_1d: within(COHORT_DAYS[0]), cohort_7d: within(COHORT_DAYS[1]), cohort_30d: within(COHORT_DAYS[2]), ..Counts::default() }
    }

    pub fn is_empty(&self) -> bool {
        *self == Counts::default()
    }

    /// Revenue less refunds and chargebacks.
    pub fn net(&self) -> i64 {
        self.gross - self.refunded
    }

    pub fn value(&self, metric: Metric) -> f64 {
        let ratio = |a: i64, b: i64| if b > 0 { a as f64 / b as f64 } else { 0.0 };
        match metric {
            Metric::Visits => self.visits as f64,
            Metric::Signups => self.signups as f64,
            Metric::Confirmed => self.confirmed as f64,
            Metric::FirstPurchases => self.first_purchases as f64,
            Metric::Buyers => self.buyers as f64,
            Metric::Purchases => self.purchases as f64,
            Metric::Gross => self.gross as f64,
            Metric::Net => self.net() as f64,
            Metric::SignupRate => ratio(self.signups, self.visits),
            Metric::ConfirmRate => ratio(self.confirmed, self.signups),
            Metric::BuyRate => ratio(self.first_purchases, self.confirmed),
            Metric::Arpu => ratio(self.net(), self.signups),
            Metric::Arppu => ratio(self.net(), self.buyers),
            Metric::RevenuePerVisit => ratio(self.net(), self.visits),
            Metric::Cohort1d => self.cohort_1d as f64,
            Metric::Cohort7d => self.cohort_7d as f64,
            Metric::Cohort30d => self.cohort_30d as f64,
        }
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.visits += o.visits;
        self.signups += o.signups;
        self.confirmed += o.confirmed;
        self.first_purchases += o.first_purchases;
        self.buyers += o.buyers;
        self.purchases += o.purchases;
        self.gross += o.gross;
        self.refunded += o.refunded;
        self.cohort_1d += o.cohort_1d;
        self.cohort_7d += o.cohort_7d;
        self.cohort_30d += o.cohort_30d;
    }
}

/// A figure of the table (its columns, its sort, the chart's line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Metric {
    Visits,
    Signups,
    SignupRate,
    Confirmed,
    ConfirmRate,
    FirstPurchases,
    BuyRate,
    Buyers,
    Purchases,
    Gross,
    Net,
    Arpu,
    Arppu,
    RevenuePerVisit,
    Cohort1d,
    Cohort7d,
    Cohort30d,
}

/// How a metric's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Count,
    Percent,
    /// Minor units of money.
    Money,
}

impl Metric {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every figure, in the table's order.
    pub fn all() -> impl Iterator<Item = Metric> {
        <Metric as strum::IntoEnumIterator>::iter()
    }

    pub fn unit(self) -> Unit {
        match self {
            Metric::SignupRate | Metric::ConfirmRate | Metric::BuyRate => Unit::Percent,
            Metric::Gross | Metric::Net | Metric::Arpu | Metric::Arppu | Metric::RevenuePerVisit | Metric::Cohort1d | Metric::Cohort7d | Metric::Cohort30d => {
                Unit::Money
            }
            _ => Unit::Count,
        }
    }

    /// The value as shown and exported: counts whole, rates in percent with one decimal,
    /// money in whole units with two (a CSV cell, and the page's text).
    pub fn format(self, value: f64) -> String {
        match self.unit() {
            Unit::Count => format!("{value:.0}"),
            Unit::Percent => format!("{:.1}", value * 100.0),
            Unit::Money => format!("{:.2}", value / 100.0),
        }
    }
}

/// The length of a period on the chart and in the CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Grain {
    Day,
    Week,
    Month,
}

impl Grain {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn all() -> impl Iterator<Item = Grain> {
        <Grain as strum::IntoEnumIterator>::iter()
    }

    /// The first day (days since 1970-01-01) of the period that holds `day`: the day itself,
    /// its week's Monday, or its month's first day.
    pub fn start(self, day: i64) -> i64 {
        match self {
            Grain::Day => day,
            // 1970-01-01 was a Thursday.
            Grain::Week => day - (day + 3).rem_euclid(7),
            Grain::Month => {
                let d = crate::date::from_unix(day * 86_400);
                crate::date::to_unix(d.year, d.month, 1, 0, 0) / 86_400
            }
        }
    }

    /// `2026-11-23` for a day or a week (its Monday), `2026-11` for a month.
    pub fn label(self, start: i64) -> String {
        let d = crate::date::from_unix(start * 86_400);
        match self {
            Grain::Day | Grain::Week => format!("{:04}-{:02}-{:02}", d.year, d.month, d.day),
            Grain::Month => format!("{:04}-{:02}", d.year, d.month),
        }
    }
}

/// The longest range one page shows.
pub const MAX_DAYS: i64 = 400;
/// The range shown when none is asked for.
pub const DEFAULT_DAYS: i64 = 30;

/// What the page shows: a range of days, the grain of the chart, the grouping, a network to
/// keep to, the sort and the chart's figure; read from the URL, every part checked (anything
/// unreadable falls back to its default).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigureQuery {
    /// First and last day, days since 1970-01-01, both included.
    pub from: i64,
    pub to: i64,
    pub grain: Grain,
    pub by: Dimension,
    /// Keep to this network ("" all).
    pub network: String,
    pub sort: Metric,
    pub ascending: bool,
    pub chart: Metric,
    /// The currency of the money figures ("": the one most was paid in).
    pub currency: String,
}

/// `2026-11-28` as days since 1970-01-01.
pub fn parse_day(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok().filter(|y| (2000..=2200).contains(y))?;
    let month: u32 = parts.next()?.parse().ok().filter(|m| (1..=12).contains(m))?;
    let day: u32 = parts.next()?.parse().ok().filter(|d| (1..=31).contains(d))?;
    let unix = crate::date::to_unix(year, month, day, 0, 0);
    let back = crate::date::from_unix(unix);
    (back.month == month && back.day == day).then_some(unix / 86_400)
}

impl FigureQuery {
    /// The query of `params` (the URL's), `today` being days since 1970-01-01.
    pub fn parse(get: impl Fn(&str) -> Option<String>, today: i64) -> FigureQuery {
        let to = get("to").and_then(|t| parse_day(&t)).unwrap_or(today).min(today);
        let from = get("from").and_then(|t| parse_day(&t)).unwrap_or(to - (DEFAULT_DAYS - 1)).min(to).max(to - (MAX_DAYS - 1));
        let pick = |name: &str| get(name).filter(|v| !v.is_empty());
        let by = pick("by").and_then(|v| v.parse().ok()).filter(|d| *d != Dimension::All).unwrap_or(Dimension::Network);
        let network: String = pick("network").map(|n| n.trim().chars().take(VALUE_MAX_CHARS).collect()).unwrap_or_default();
        FigureQuery {
            from,
            to,
            grain: pick("grain").and_then(|v| v.parse().ok()).unwrap_or(Grain::Day),
            by: if !network.is_empty() && by == Dimension::Network { Dimension::Sub1 } else { by },
            network,
            sort: pick("sort").and_then(|v| v.parse().ok()).unwrap_or(Metric::Net),
            ascending: get("dir").as_deref() == Some("asc"),
            chart: pick("chart").and_then(|v| v.parse().ok()).unwrap_or(Metric::Net),
            currency: pick("currency").filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())).unwrap_or_default(),
        }
    }

    /// The URL query that gives this page back, with `change` applied.
    pub fn href(&self, change: impl FnOnce(&mut FigureQuery)) -> String {
        let mut q = self.clone();
        change(&mut q);
        let mut pairs = vec![
            ("from", Grain::Day.label(q.from)),
            ("to", Grain::Day.label(q.to)),
            ("grain", q.grain.as_str().to_string()),
            ("by", q.by.as_str().to_string()),
            ("sort", q.sort.as_str().to_string()),
            ("dir", if q.ascending { "asc" } else { "desc" }.to_string()),
            ("chart", q.chart.as_str().to_string()),
        ];
        if !q.network.is_empty() {
            pairs.push(("network", q.network.clone()));
        }
        if !q.currency.is_empty() {
            pairs.push(("currency", q.currency.clone()));
        }
        pairs.iter().map(|(k, v)| format!("{k}={}", crate::account::percent_encode(v))).collect::<Vec<_>>().join("&")
    }

    /// The scope of the rollup rows to read: the network kept to, or "" for all.
    pub fn scope(&self) -> &str {
        &self.network
    }
}

/// One row of the table: a value of the grouping and its counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FigureRow {
    pub value: String,
    pub counts: Counts,
}

/// What the page shows: the table's rows and total, and the chart's periods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Funnel {
    pub rows: Vec<FigureRow>,
    pub total: Counts,
    /// Each period's first day and counts, from the query's first day to its last.
    pub periods: Vec<(i64, Counts)>,
    /// The currency of the money figures ("" when nothing was paid), and every currency paid
    /// in over the range (a site may sell in several: each is shown on its own).
    pub currency: String,
    pub currencies: Vec<String>,
    /// The networks that brought anything over the range.
    pub networks: Vec<String>,
}

/// Sorts the rows by the query's figure (ties by value, so the order is stable).
pub fn sort_rows(rows: &mut [FigureRow], metric: Metric, ascending: bool) {
    rows.sort_by(|a, b| {
        let (x, y) = (a.counts.value(metric), b.counts.value(metric));
        let order = x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal);
        let order = if ascending { order } else { order.reverse() };
        order.then_with(|| a.value.cmp(&b.value))
    });
}

/// The most rows the page shows; the rest are summed into one row (the CSV has them all).
pub const TABLE_ROWS: usize = 100;

/// The first `n` rows (sorted already), and the rest summed: how many values, and their counts.
/// Each member has one value per dimension, so buyers add up across values.
pub fn top(mut rows: Vec<FigureRow>, n: usize) -> (Vec<FigureRow>, Option<(usize, Counts)>) {
    if rows.len() <= n {
        return (rows, None);
    }
    let rest = rows.split_off(n);
    let mut sum = Counts::default();
    for r in &rest {
        sum += r.counts;
    }
    (rows, Some((rest.len(), sum)))
}

/// The value of `name` in a URL query (`a=1&b=2`), decoded (`+` is a space).
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| pair.split_once('=').filter(|(k, _)| *k == name).map(|(_, v)| crate::account::percent_decode(&v.replace('+', " "))))
}

/// The periods from `from` to `to` at `grain`, each with its counts (empty periods included:
/// the chart's line does not skip them). `days`: counts per day.
pub fn periods(days: &[(i64, Counts)], from: i64, to: i64, grain: Grain) -> Vec<(i64, Counts)> {
    let mut out: Vec<(i64, Counts)> = Vec::new();
    let mut day = grain.start(from);
    while day <= to {
        out.push((day, Counts::default()));
        // The next period's start: a day past this one's last.
        let mut next = day + 1;
        while grain.start(next) == day {
            next += 1;
        }
        day = next;
    }
    for (d, counts) in days {
        let start = grain.start(*d);
        if let Ok(i) = out.binary_search_by_key(&start, |(s, _)| *s) {
            out[i].1 += *counts;
        }
    }
    out
}

/// The table as CSV: the grouping's value and every figure. Values that could start a
/// spreadsheet formula get a leading apostrophe.
pub fn to_csv(by: Dimension, rows: &[FigureRow], total: &Counts) -> String {
    use strum::IntoEnumIterator;
    let mut out = String::from(by.as_str());
    for m in Metric::iter() {
        out.push(',');
        out.push_str(m.as_str());
    }
    out.push('\n');
    let cell = |v: &str| {
        let v = if v.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{v}") } else { v.to_string() };
        format!("\"{}\"", v.replace('"', "\"\""))
    };
    let mut line = |value: &str, counts: &Counts| {
        out.push_str(&cell(value));
        for m in Metric::iter() {
            out.push(',');
            out.push_str(&m.format(counts.value(m)));
        }
        out.push('\n');
    };
    for row in rows {
        line(&row.value, &row.counts);
    }
    line("total", total);
    out
}

#[cfg(test)]
mod tests;
