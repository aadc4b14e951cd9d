//! Operator figures (`/staff`): answers per operator per day and how long members waited for
//! them. An answer's wait runs from the oldest member message it answers (the first one after
//! the profile's previous message) to the answer; an operator message with nothing waiting
//! (a second line, or the profile writing first) counts as an answer without a wait.

use serde::{Deserialize, Serialize};

use crate::account::Ymd;

/// One message of a conversation with a fictional profile, in the order they were sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub conversation: i64,
    /// The operator who wrote it as the profile (None: the member wrote it).
    pub operator: Option<i64>,
    pub at: i64,
}

/// One operator's answers on one day (UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatorDay {
    pub operator: i64,
    pub day: Ymd,
    pub answers: i64,
    /// Median and 90th percentile of the waits answered (None: no answer had a wait).
    pub median_secs: Option<i64>,
    pub p90_secs: Option<i64>,
}

/// The figures from lines sorted by conversation, then time (as `ORDER BY conversation_id, id`).
/// Days and operators in order.
pub fn operator_days(lines: &[Line]) -> Vec<OperatorDay> {
    use std::collections::BTreeMap;
    let mut per: BTreeMap<(i64, Ymd), (i64, Vec<i64>)> = BTreeMap::new();
    let mut waiting_since: Option<(i64, i64)> = None;
    for line in lines {
        if waiting_since.is_some_and(|(c, _)| c != line.conversation) {
            waiting_since = None;
        }
        match line.operator {
            None => {
                if waiting_since.is_none() {
                    waiting_since = Some((line.conversation, line.at));
                }
            }
            Some(op) => {
                let entry = per.entry((op, Ymd::from_unix(line.at))).or_default();
                entry.0 += 1;
                if let Some((_, since)) = waiting_since.take() {
                    entry.1.push((line.at - since).max(0));
                }
            }
        }
    }
    let mut out: Vec<OperatorDay> = per
        .into_iter()
        .map(|((operator, day), (answers, mut waits))| {
            waits.sort_unstable();
            OperatorDay { operator, day, answers, median_secs: percentile(&waits, 50), p90_secs: percentile(&waits, 90) }
        })
        .collect();
    out.sort_by(|a, b| b.day.cmp(&a.day).then(a.operator.cmp(&b.operator)));
    out
}

/// The nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[i64], p: u32) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (u64::from(p) * sorted.len() as u64).div_ceil(100).max(1) as usize;
    Some(sorted[rank.min(sorted.len()) - 1])
}

/// A wait as the page shows it: "45 s", "3 min", "2 u 05".
pub fn wait_label(secs: i64) -> String {
    match secs {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s => format!("{} u {:02}", s / 3600, (s % 3600) / 60),
    }
}

/// The figures as CSV (one row per operator and day), names looked up by `name`. Fields that
/// could start a spreadsheet formula are quoted with a leading apostrophe.
pub fn to_csv(days: &[OperatorDay], name: impl Fn(i64) -> String) -> String {
    let mut out = String::from("day,operator_id,operator,answers,median_wait_secs,p90_wait_secs\n");
    for d in days {
        let who = name(d.operator);
        let who = if who.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{who}") } else { who };
        let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
        out.push_str(&format!("{},{},\"{}\",{},{},{}\n", d.day.iso(), d.operator, who.replace('"', "\"\""), d.answers, opt(d.median_secs), opt(d.p90_secs)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DAY: i64 = 1_795_348_800; // midday UTC: the lines below stay on one day

    fn member(conversation: i64, at: i64) -> Line {
        Line { conversation, operator: None, at }
    }
    fn op(conversation: i64, operator: i64, at: i64) -> Line {
        Line { conversation, operator: Some(operator), at }
    }

    #[test]
    fn waits_run_from_the_oldest_unanswered_message() {
        let lines = [
            member(1, DAY + 100),
            member(1, DAY + 160),
            op(1, 7, DAY + 400), // waited 300 s
            op(1, 7, DAY + 420), // a second line: no wait
            member(1, DAY + 1000),
            op(1, 8, DAY + 1060), // 60 s, another operator
            member(2, DAY + 50),
            op(2, 7, DAY + 950), // 900 s
            member(3, DAY + 10), // never answered
        ];
        let days = operator_days(&lines);
        let day = Ymd::from_unix(DAY);
        assert_eq!(
            days,
            [
                OperatorDay { operator: 7, day, answers: 3, median_secs: Some(300), p90_secs: Some(900) },
                OperatorDay { operator: 8, day, answers: 1, median_secs: Some(60), p90_secs: Some(60) },
            ]
        );
    }

    #[test]
    fn percentiles_and_labels() {
        assert_eq!(percentile(&[], 50), None);
        assert_eq!(percentile(&[5], 90), Some(5));
        assert_eq!(percentile(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), Some(5));
        assert_eq!(percentile(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), Some(9));
        assert_eq!((wait_label(45), wait_label(180), wait_label(7500)), ("45 s".into(), "3 min".into(), "2 u 05".into()));
    }

    #[test]
    fn csv_rows_and_formula_names() {
        let days = [OperatorDay { operator: 7, day: Ymd::from_unix(DAY), answers: 3, median_secs: Some(300), p90_secs: None }];
        let csv = to_csv(&days, |_| "=HYPERLINK(\"x\")".into());
        let day = Ymd::from_unix(DAY).iso();
        assert_eq!(csv, format!("day,operator_id,operator,answers,median_wait_secs,p90_wait_secs\n{day},7,\"'=HYPERLINK(\"\"x\"\")\",3,300,\n"));
    }

    proptest! {
        /// Answers add up to the operator lines; the median never exceeds the 90th percentile,
        /// and no wait is longer than the span of the lines.
        #[test]
        fn figures_are_consistent(script in proptest::collection::vec((0i64..4, proptest::option::of(1i64..4), 0i64..5000), 0..80)) {
            let mut lines: Vec<Line> = script.iter().map(|&(c, o, at)| Line { conversation: c, operator: o, at: DAY + at }).collect();
            lines.sort_by_key(|l| (l.conversation, l.at));
            let days = operator_days(&lines);
            prop_assert_eq!(days.iter().map(|d| d.answers).sum::<i64>(), lines.iter().filter(|l| l.operator.is_some()).count() as i64);
            for d in &days {
                prop_assert!(d.median_secs <= d.p90_secs);
                prop_assert!(d.p90_secs.unwrap_or(0) <= 5000);
            }
        }
    }
}
