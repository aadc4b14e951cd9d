//! Calendar arithmetic on unix timestamps (UTC), without a time-zone database.

/// A UTC calendar date and time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTimeUtc {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
}

/// Converts unix seconds to a UTC date (proleptic Gregorian; Howard Hinnant's civil_from_days).
pub fn from_unix(secs: i64) -> DateTimeUtc {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    DateTimeUtc { year, month, day, hour: (rem / 3600) as u32, minute: ((rem % 3600) / 60) as u32 }
}

impl std::fmt::Display for DateTimeUtc {
    /// `2026-11-25 22:45 UTC`: staff pages and the data download's README.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02} {:02}:{:02} UTC", self.year, self.month, self.day, self.hour, self.minute)
    }
}

/// Converts a UTC date and time to unix seconds (days_from_civil).
pub fn to_unix(year: i64, month: u32, day: u32, hour: u32, minute: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_dates() {
        assert_eq!(from_unix(0), DateTimeUtc { year: 1970, month: 1, day: 1, hour: 0, minute: 0 });
        assert_eq!(to_unix(2023, 12, 1, 12, 0), 1_701_432_000);
        assert_eq!(from_unix(1_701_432_000), DateTimeUtc { year: 2023, month: 12, day: 1, hour: 12, minute: 0 });
        assert_eq!(from_unix(951_782_400), DateTimeUtc { year: 2000, month: 2, day: 29, hour: 0, minute: 0 });
    }

    proptest! {
        #[test]
        fn roundtrip(secs in -5_000_000_000i64..5_000_000_000i64) {
            let d = from_unix(secs);
            let back = to_unix(d.year, d.month, d.day, d.hour, d.minute);
            prop_assert_eq!(back, secs - secs.rem_euclid(60));
            prop_assert!((1..=12).contains(&d.month));
            prop_assert!((1..=31).contains(&d.day));
        }
    }
}
