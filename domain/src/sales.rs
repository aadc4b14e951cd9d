//! The sales report staff file their VAT return from (the EU's OSS return is per country and
//! rate): per period (a month or a quarter), per buyer country, VAT rate and currency, the
//! payments paid in it with their net and VAT, minus what was taken back in it (a reversed
//! direct debit, a refund in full or in part, a chargeback), counted in the period the money went back, as a correction is filed.

use serde::{Deserialize, Serialize};

use crate::checkout::vat_part;
use crate::date::to_unix;

/// A month (`2026-11`) or a quarter (`2026-Q4`), in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Period {
    Month { year: i64, month: u32 },
    Quarter { year: i64, quarter: u32 },
}

impl Period {
    /// `2026-11` or `2026-Q4` (`q` too); anything else is None.
    pub fn parse(text: &str) -> Option<Period> {
        let (year, rest) = text.trim().split_once('-')?;
        if year.len() != 4 {
            return None;
        }
        let year: i64 = year.parse().ok().filter(|y| (1970..=9999).contains(y))?;
        if let Some(q) = rest.strip_prefix(['Q', 'q']) {
            let quarter: u32 = q.parse().ok().filter(|q| (1..=4).contains(q))?;
            return (q.len() == 1).then_some(Period::Quarter { year, quarter });
        }
        let month: u32 = rest.parse().ok().filter(|m| (1..=12).contains(m))?;
        (rest.len() == 2).then_some(Period::Month { year, month })
    }

    /// The month that holds `unix` seconds.
    pub fn month_of(unix: i64) -> Period {
        let day = crate::date::from_unix(unix);
        Period::Month { year: day.year, month: day.month }
    }

    /// As [`Period::parse`] reads it.
    pub fn code(&self) -> String {
        match *self {
            Period::Month { year, month } => format!("{year:04}-{month:02}"),
            Period::Quarter { year, quarter } => format!("{year:04}-Q{quarter}"),
        }
    }

    /// Unix seconds from the first moment of the period up to (not including) the next one.
    pub fn range(&self) -> (i64, i64) {
        let (year, first, months) = match *self {
            Period::Month { year, month } => (year, month, 1),
            Period::Quarter { year, quarter } => (year, (quarter - 1) * 3 + 1, 3),
        };
        let next = first + months;
        let (end_year, end_month) = if next > 12 { (year + 1, next - 12) } else { (year, next) };
        (to_unix(year, first, 1, 0, 0), to_unix(end_year, end_month, 1, 0, 0))
    }

    /// The period before this one (of the same kind).
    pub fn previous(&self) -> Period {
        match *self {
            Period::Month { year, month: 1 } => Period::Month { year: year - 1, month: 12 },
            Period::Month { year, month } => Period::Month { year, month: month - 1 },
            Period::Quarter { year, quarter: 1 } => Period::Quarter { year: year - 1, quarter: 4 },
            Period::Quarter { year, quarter } => Period::Quarter { year, quarter: quarter - 1 },
        }
    }
}

/// A paid payment as the report needs it. `paid_at` puts it in a period; each of `returns`
/// (when money went back, and how much: a reversal, a refund in full or in part, a chargeback)
/// takes that much out again in the period that holds its moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sale {
    pub country: String,
    pub vat_rate_bp: i64,
    pub currency: String,
    /// Minor units, VAT included.
    pub amount: i64,
    pub paid_at: i64,
    /// `(at, amount)` in minor units, VAT included.
    pub returns: Vec<(i64, i64)>,
}

/// One line of the report: amounts in minor units of `currency`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    pub country: String,
    pub vat_rate_bp: i64,
    pub currency: String,
    /// Payments paid in the period, and their amounts.
    pub payments: i64,
    pub gross: i64,
    pub vat: i64,
    /// Payments taken back in the period, and their amounts.
    pub reversals: i64,
    pub reversed_gross: i64,
    pub reversed_vat: i64,
}

impl ReportRow {
    /// What remains: sales minus what went back, with and without VAT.
    pub fn total(&self) -> i64 {
        self.gross - self.reversed_gross
    }
    pub fn total_vat(&self) -> i64 {
        self.vat - self.reversed_vat
    }
    pub fn total_net(&self) -> i64 {
        self.total() - self.total_vat()
    }
}

/// The report of `period` from the sales that touch it, ordered by country, rate and currency.
pub fn report(period: Period, sales: &[Sale]) -> Vec<ReportRow> {
    use std::collections::BTreeMap;
    let (start, end) = period.range();
    let within = |at: i64| (start..end).contains(&at);
    let mut rows: BTreeMap<(String, i64, String), ReportRow> = BTreeMap::new();
    for sale in sales {
        let sold = within(sale.paid_at);
        let returned: Vec<i64> = sale.returns.iter().filter(|(at, _)| within(*at)).map(|(_, amount)| *amount).collect();
        if !sold && returned.is_empty() {
            continue;
        }
        let key = (sale.country.clone(), sale.vat_rate_bp, sale.currency.clone());
        let row = rows.entry(key).or_insert_with(|| ReportRow {
            country: sale.country.clone(),
            vat_rate_bp: sale.vat_rate_bp,
            currency: sale.currency.clone(),
            payments: 0,
            gross: 0,
            vat: 0,
            reversals: 0,
            reversed_gross: 0,
            reversed_vat: 0,
        });
        let vat = vat_part(sale.amount, sale.vat_rate_bp);
        if sold {
            row.payments += 1;
            row.gross += sale.amount;
            row.vat += vat;
        }
        for back in returned {
            row.reversals += 1;
            row.reversed_gross += back;
            // The VAT of a whole return is the sale's, to the cent; of a part, its own share.
            row.reversed_vat += if back == sale.amount { vat } else { vat_part(back, sale.vat_rate_bp) };
        }
    }
    rows.into_values().collect()
}

/// Minor units as a decimal with two places and a dot (`1995` → `19.95`), as spreadsheets and
/// returns read it.
pub fn decimal(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", minor.abs() / 100, minor.abs() % 100)
}

/// The report as CSV (comma separated, a header line, amounts with a dot).
pub fn to_csv(period: Period, rows: &[ReportRow]) -> String {
    let mut out =
        String::from("period,country,vat_rate_percent,currency,payments,gross,net,vat,reversals,reversed_gross,reversed_vat,total,total_net,total_vat\n");
    for r in rows {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            period.code(),
            r.country,
            crate::checkout::format_rate(r.vat_rate_bp, false).trim_end_matches('%'),
            r.currency,
            r.payments,
            decimal(r.gross),
            decimal(r.gross - r.vat),
            decimal(r.vat),
            r.reversals,
            decimal(r.reversed_gross),
            decimal(r.reversed_vat),
            decimal(r.total()),
            decimal(r.total_net()),
            decimal(r.total_vat()),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sale(country: &str, amount: i64, paid_at: i64, reversed_at: Option<i64>) -> Sale {
        Sale {
            country: country.into(),
            vat_rate_bp: crate::checkout::vat_rate_bp(country),
            currency: "EUR".into(),
            amount,
            paid_at,
            returns: reversed_at.map(|at| (at, amount)).into_iter().collect(),
        }
    }

    #[test]
    fn a_partial_refund_is_subtracted_in_its_own_month() {
        let nov = Period::parse("2026-11").unwrap();
        let dec = Period::parse("2026-12").unwrap();
        let mut s = sale("NL", 2420, to_unix(2026, 11, 20, 12, 0), None);
        s.returns = vec![(to_unix(2026, 11, 25, 0, 0), 1210), (to_unix(2026, 12, 2, 0, 0), 1210)];
        let in_nov = &report(nov, std::slice::from_ref(&s))[0];
        assert_eq!((in_nov.payments, in_nov.gross, in_nov.vat, in_nov.reversals, in_nov.reversed_gross, in_nov.reversed_vat), (1, 2420, 420, 1, 1210, 210));
        assert_eq!((in_nov.total(), in_nov.total_vat(), in_nov.total_net()), (1210, 210, 1000));
        let in_dec = &report(dec, &[s])[0];
        assert_eq!((in_dec.payments, in_dec.total(), in_dec.total_vat()), (0, -1210, -210));
    }

    #[test]
    fn periods_parse_and_cover_their_months() {
        let nov = Period::parse("2026-11").unwrap();
        assert_eq!(nov.code(), "2026-11");
        assert_eq!(nov.range(), (to_unix(2026, 11, 1, 0, 0), to_unix(2026, 12, 1, 0, 0)));
        let q4 = Period::parse("2026-q4").unwrap();
        assert_eq!(q4.code(), "2026-Q4");
        assert_eq!(q4.range(), (to_unix(2026, 10, 1, 0, 0), to_unix(2027, 1, 1, 0, 0)));
        for bad in ["", "2026", "2026-13", "2026-Q5", "2026-Q0", "26-11", "2026-1", "2026-11<script>", "2026-Q44"] {
            assert_eq!(Period::parse(bad), None, "{bad}");
        }
        assert_eq!(Period::parse("2026-01").unwrap().previous().code(), "2025-12");
        assert_eq!(Period::parse("2026-Q1").unwrap().previous().code(), "2025-Q4");
    }

    #[test]
    fn a_reversal_is_subtracted_in_the_period_it_happened() {
        let oct = Period::parse("2026-10").unwrap();
        let nov = Period::parse("2026-11").unwrap();
        let (oct_at, nov_at) = (oct.range().0 + 3600, nov.range().0 + 3600);
        let sales = [sale("NL", 1995, oct_at, Some(nov_at)), sale("NL", 4995, nov_at, None), sale("DE", 1995, nov_at, None)];
        let october = report(oct, &sales);
        assert_eq!(october.len(), 1);
        assert_eq!((october[0].payments, october[0].gross, october[0].reversals), (1, 1995, 0));
        let november = report(nov, &sales);
        assert_eq!(november.iter().map(|r| r.country.as_str()).collect::<Vec<_>>(), ["DE", "NL"]);
        let nl = &november[1];
        assert_eq!((nl.payments, nl.gross, nl.reversals, nl.reversed_gross, nl.total()), (1, 4995, 1, 1995, 3000));
        assert_eq!(nl.vat, vat_part(4995, 2100));
        assert_eq!(nl.total_vat(), vat_part(4995, 2100) - vat_part(1995, 2100));
        let csv = to_csv(nov, &november);
        assert!(csv.starts_with("period,country,vat_rate_percent"));
        assert!(csv.contains("2026-11,NL,21,EUR,1,49.95,41.28,8.67,1,19.95,3.46,30.00,24.79,5.21\n"), "{csv}");
    }

    #[test]
    fn decimals_read_back() {
        assert_eq!(decimal(0), "0.00");
        assert_eq!(decimal(5), "0.05");
        assert_eq!(decimal(-1995), "-19.95");
    }

    proptest! {
        #[test]
        fn the_months_of_a_quarter_add_up_to_the_quarter(amounts in prop::collection::vec((100i64..100_000, 0i64..92 * 86_400, prop::option::of(0i64..200 * 86_400), 0usize..4), 0..40)) {
            let q = Period::parse("2026-Q2").unwrap();
            let start = q.range().0;
            let countries = ["NL", "DE", "CH", "US"];
            let sales: Vec<Sale> = amounts.iter().map(|(a, at, back, c)| sale(countries[*c], *a, start + at, back.map(|b| start + at + b))).collect();
            let months = ["2026-04", "2026-05", "2026-06"].map(|m| report(Period::parse(m).unwrap(), &sales));
            let quarter = report(q, &sales);
            let sum = |rows: &[ReportRow], f: fn(&ReportRow) -> i64| rows.iter().map(f).sum::<i64>();
            for f in [|r: &ReportRow| r.gross, |r: &ReportRow| r.vat, |r: &ReportRow| r.reversed_gross, |r: &ReportRow| r.payments, |r: &ReportRow| r.reversals] {
                prop_assert_eq!(months.iter().map(|m| sum(m, f)).sum::<i64>(), sum(&quarter, f));
            }
            for row in &quarter {
                prop_assert_eq!(row.total_net() + row.total_vat(), row.total());
                prop_assert!(row.vat <= row.gross && row.reversed_vat <= row.reversed_gross);
            }
        }
    }
}
