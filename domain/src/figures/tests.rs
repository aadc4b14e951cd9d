//! The figures' rules: rows, periods, the URL, sorting, the CSV.

use super::*;
use proptest::prelude::*;
use strum::IntoEnumIterator;

#[test]
fn names_round_trip() {
    for d in Dimension::iter() {
        assert_eq!(d.as_str().parse::<Dimension>().unwrap(), d);
    }
    for m in Metric::iter() {
        assert_eq!(m.as_str().parse::<Metric>().unwrap(), m);
    }
}

#[test]
fn an_event_counts_once_per_dimension_and_again_within_its_network() {
    let source = Source { network: Some("clicks".into()), sub1: Some("a".into()), device: Some("mobile".into()), ..Source::default() };
    let rows = source.rows();
    assert_eq!(rows.len(), 10 + 9);
    assert!(rows.contains(&(String::new(), Dimension::Network, "clicks".into())));
    assert!(rows.contains(&("clicks".into(), Dimension::Sub1, "a".into())));
    assert!(rows.contains(&("clicks".into(), Dimension::All, String::new())));
    assert!(!rows.iter().any(|(scope, d, _)| scope == "clicks" && *d == Dimension::Network));
    // No network: only the all-networks scope.
    assert_eq!(Source::default().rows().len(), 10);
    let long = Source { network: Some("x".repeat(500)), ..Source::default() };
    assert_eq!(long.value(Dimension::Network).chars().count(), VALUE_MAX_CHARS);
}

#[test]
fn the_figures_divide_safely() {
    let c = Counts { visits: 200, signups: 10, confirmed: 8, first_purchases: 2, buyers: 3, purchases: 4, gross: 10_000, refunded: 1_000, ..Counts::default() };
    assert_eq!(c.value(Metric::SignupRate), 0.05);
    assert_eq!(c.value(Metric::Arpu), 900.0);
    assert_eq!(c.value(Metric::Arppu), 3000.0);
    assert_eq!(c.value(Metric::RevenuePerVisit), 45.0);
    assert_eq!(c.value(Metric::BuyRate), 0.25);
    assert_eq!(Counts::default().value(Metric::Arppu), 0.0, "nothing to divide by: 0");
    assert_eq!(Metric::SignupRate.format(0.05), "5.0");
    assert_eq!(Metric::Arpu.format(900.0), "9.00");
}

#[test]
fn a_cohort_keeps_what_came_within_its_days() {
    assert_eq!(Counts::cohort(500, 3600), Counts { cohort_1d: 500, cohort_7d: 500, cohort_30d: 500, ..Counts::default() });
    assert_eq!(Counts::cohort(500, 2 * 86_400), Counts { cohort_7d: 500, cohort_30d: 500, ..Counts::default() });
    assert!(Counts::cohort(500, 30 * 86_400).is_empty(), "after 30 days");
    assert_eq!(Counts::cohort(-200, 3600).cohort_1d, -200, "a refund within the day");
}

#[test]
fn periods_start_on_mondays_and_firsts() {
    let day = parse_day("2026-11-28").unwrap(); // a Saturday
    assert_eq!(Grain::Week.label(Grain::Week.start(day)), "2026-11-23");
    assert_eq!(Grain::Month.label(Grain::Month.start(day)), "2026-11");
    assert_eq!(parse_day("2026-02-30"), None);
    assert_eq!(parse_day("<b>"), None);
    let days = vec![(day, Counts::of(Event::Visit)), (day + 2, Counts::of(Event::Signup))];
    let weeks = periods(&days, day - 10, day + 5, Grain::Week);
    assert_eq!(weeks.iter().map(|(s, _)| Grain::Week.label(*s)).collect::<Vec<_>>(), vec!["2026-11-16", "2026-11-23", "2026-11-30"]);
    assert_eq!(weeks[1].1.visits, 1);
    assert_eq!(weeks[2].1.signups, 1);
}

#[test]
fn the_url_is_read_with_care() {
    let today = parse_day("2026-11-28").unwrap();
    let q = FigureQuery::parse(|_| None, today);
    assert_eq!((q.from, q.to, q.by, q.sort, q.grain), (today - 29, today, Dimension::Network, Metric::Net, Grain::Day));
    let params = |pairs: &'static [(&'static str, &'static str)]| move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
    let q = FigureQuery::parse(params(&[("from", "2020-01-01"), ("to", "2030-01-01"), ("by", "<script>"), ("sort", "arppu"), ("dir", "asc")]), today);
    assert_eq!(q.to, today, "no future");
    assert_eq!(q.to - q.from, MAX_DAYS - 1, "at most 400 days");
    assert_eq!((q.by, q.sort, q.ascending), (Dimension::Network, Metric::Arppu, true));
    let q = FigureQuery::parse(params(&[("currency", "<b>")]), today);
    assert_eq!(q.currency, "", "a currency is three capitals");
    let q = FigureQuery::parse(params(&[("network", "clicks"), ("by", "network"), ("currency", "SEK")]), today);
    assert_eq!(q.by, Dimension::Sub1, "within a network, by its sub ids");
    let back = FigureQuery::parse(
        |k| {
            let href = q.href(|_| {});
            href.split('&').find_map(|p| p.split_once('=').filter(|(n, _)| *n == k).map(|(_, v)| crate::account::percent_decode(v)))
        },
        today,
    );
    assert_eq!(back, q, "the link gives the page back");
}

#[test]
fn the_page_shows_the_top_rows_and_sums_the_rest() {
    let rows: Vec<FigureRow> = (0..5).map(|i| FigureRow { value: i.to_string(), counts: Counts { visits: 10 - i, buyers: 1, ..Counts::default() } }).collect();
    let (shown, rest) = top(rows.clone(), 3);
    assert_eq!(shown.len(), 3);
    assert_eq!(rest, Some((2, Counts { visits: 7 + 6, buyers: 2, ..Counts::default() })));
    assert_eq!(top(rows, 5).1, None);
    assert_eq!(query_param("a=1&b=x+y%3C", "b").as_deref(), Some("x y<"));
    assert_eq!(query_param("a=1", "b"), None);
}

#[test]
fn the_csv_keeps_formulas_out() {
    let rows = vec![FigureRow { value: "=HYPERLINK(\"x\")".into(), counts: Counts::of(Event::Visit) }];
    let csv = to_csv(Dimension::Sub1, &rows, &Counts::of(Event::Visit));
    assert!(csv.starts_with("sub1,visits,signups,signup_rate"));
    assert!(csv.contains("\"'=HYPERLINK(\"\"x\"\")\",1,0,"), "{csv}");
    assert!(csv.contains("\"total\",1,"));
}

proptest! {
    #[test]
    fn periods_hold_every_day_once(from in 19_000i64..21_000, len in 0i64..200, grain in prop_oneof![Just(Grain::Day), Just(Grain::Week), Just(Grain::Month)]) {
        let to = from + len;
        let days: Vec<(i64, Counts)> = (from..=to).map(|d| (d, Counts::of(Event::Visit))).collect();
        let out = periods(&days, from, to, grain);
        prop_assert_eq!(out.iter().map(|(_, c)| c.visits).sum::<i64>(), len + 1);
        prop_assert!(out.windows(2).all(|w| w[0].0 < w[1].0));
        for (start, _) in &out {
            prop_assert_eq!(grain.start(*start), *start);
        }
    }

    #[test]
    fn sorting_is_by_the_figure(values in proptest::collection::vec(0i64..1000, 0..30), ascending in any::<bool>()) {
        let mut rows: Vec<FigureRow> = values.iter().enumerate().map(|(i, v)| FigureRow { value: i.to_string(), counts: Counts { visits: *v, ..Counts::default() } }).collect();
        sort_rows(&mut rows, Metric::Visits, ascending);
        let ordered = rows.windows(2).all(|w| if ascending { w[0].counts.visits <= w[1].counts.visits } else { w[0].counts.visits >= w[1].counts.visits });
        prop_assert!(ordered);
    }
}
