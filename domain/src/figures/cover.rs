//! A range of days read from the fewest rollup rows: whole months and whole weeks from the
//! longer periods' rollups (`figure_periods`), the days at the ends from the daily ones.

use super::Grain;

/// The periods that together hold a range of days exactly once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cover {
    /// First days of whole months inside the range.
    pub months: Vec<i64>,
    /// Mondays of whole weeks inside the range, outside those months.
    pub weeks: Vec<i64>,
    /// The remaining days.
    pub days: Vec<i64>,
}

/// The cover of `from..=to` (days since 1970-01-01) with the fewest periods: each day starts a
/// whole month where one starts and fits, a whole week where one starts and fits, or is read by
/// itself, whichever leaves the fewest periods for the rest (a table over the range's days,
/// filled from its end).
pub fn cover(from: i64, to: i64) -> Cover {
    if from > to {
        return Cover::default();
    }
    let len = (to - from + 1) as usize;
    // The last day of the month that starts on `start`.
    let month_end = |start: i64| Grain::Month.start(start + 31) - 1;
    // fewest[i]: periods needed for the days from `from + i` on; step[i]: the period taken there.
    let mut fewest = vec![0usize; len + 1];
    let mut step = vec![(Grain::Day, 1usize); len];
    for i in (0..len).rev() {
        let day = from + i as i64;
        let mut best = (fewest[i + 1] + 1, (Grain::Day, 1));
        if Grain::Week.start(day) == day && day + 6 <= to && fewest[i + 7] < best.0 {
            best = (fewest[i + 7] + 1, (Grain::Week, 7));
        }
        if Grain::Month.start(day) == day && month_end(day) <= to {
            let days = (month_end(day) - day + 1) as usize;
            if fewest[i + days] < best.0 {
                best = (fewest[i + days] + 1, (Grain::Month, days));
            }
        }
        fewest[i] = best.0;
        step[i] = best.1;
    }
    let mut c = Cover::default();
    let mut i = 0;
    while i < len {
        let (grain, days) = step[i];
        let day = from + i as i64;
        match grain {
            Grain::Month => c.months.push(day),
            Grain::Week => c.weeks.push(day),
            Grain::Day => c.days.push(day),
        }
        i += days;
    }
    c
}

impl Cover {
    /// The periods as (grain, first day) pairs.
    pub fn periods(&self) -> impl Iterator<Item = (Grain, i64)> + '_ {
        let months = self.months.iter().map(|d| (Grain::Month, *d));
        let weeks = self.weeks.iter().map(|d| (Grain::Week, *d));
        months.chain(weeks).chain(self.days.iter().map(|d| (Grain::Day, *d)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::parse_day;
    use proptest::prelude::*;

    fn end(grain: Grain, start: i64) -> i64 {
        match grain {
            Grain::Day => start,
            Grain::Week => start + 6,
            Grain::Month => Grain::Month.start(start + 31) - 1,
        }
    }

    #[test]
    fn ninety_days_are_two_months_three_weeks_and_eight_days() {
        let (from, to) = (parse_day("2026-08-31").unwrap(), parse_day("2026-11-28").unwrap());
        let c = cover(from, to);
        let labels = |grain: Grain, days: &[i64]| days.iter().map(|d| grain.label(*d)).collect::<Vec<_>>();
        assert_eq!(labels(Grain::Month, &c.months), ["2026-09", "2026-10"]);
        assert_eq!(labels(Grain::Week, &c.weeks), ["2026-11-02", "2026-11-09", "2026-11-16"]);
        assert_eq!(c.days.len(), 8, "31 August, 1 November and 23 to 28 November");
        // A week that would take a month's first days is left as days, so the month fits whole.
        // The first case: two months, three weeks and eight days are 13 periods, the fewest.
        let c = cover(parse_day("2026-06-22").unwrap(), parse_day("2026-07-31").unwrap());
        assert_eq!(labels(Grain::Week, &c.weeks), ["2026-06-22"]);
        assert_eq!(labels(Grain::Month, &c.months), ["2026-07"]);
        assert_eq!(c.days.len(), 2, "29 and 30 June");
        // The 90 days to Monday 30 November: October and November whole, the weeks of September,
        // its first and last days by themselves (not the week into October, which would break
        // October up): 13 periods.
        let c = cover(parse_day("2026-09-02").unwrap(), parse_day("2026-11-30").unwrap());
        assert_eq!(labels(Grain::Month, &c.months), ["2026-10", "2026-11"]);
        assert_eq!(labels(Grain::Week, &c.weeks), ["2026-09-07", "2026-09-14", "2026-09-21"]);
        assert_eq!(
            labels(Grain::Day, &c.days),
            ["2026-09-02", "2026-09-03", "2026-09-04", "2026-09-05", "2026-09-06", "2026-09-28", "2026-09-29", "2026-09-30"]
        );
        assert_eq!(cover(5, 4), Cover::default());
    }

    proptest! {
        /// Every day of the range in exactly one period, none outside it, and each period whole.
        #[test]
        fn holds_each_day_of_the_range_once(from in 19_000i64..21_000, len in 0i64..400) {
            let to = from + len;
            let c = cover(from, to);
            let mut seen = vec![0u8; (len + 1) as usize];
            for (grain, start) in c.periods() {
                prop_assert_eq!(grain.start(start), start, "a period starts at its start");
                for day in start..=end(grain, start) {
                    prop_assert!((from..=to).contains(&day));
                    seen[(day - from) as usize] += 1;
                }
            }
            prop_assert!(seen.iter().all(|n| *n == 1));
            // Never more periods than whole weeks with days at both ends would take.
            let weeks_only = (len + 1) / 7 + 12;
            prop_assert!(c.months.len() + c.weeks.len() + c.days.len() <= weeks_only as usize);
        }
    }
}
