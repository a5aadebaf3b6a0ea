//! Calendar arithmetic on Unix seconds (UTC), without a date library.

pub const HOUR: i64 = 3600;
pub const DAY: i64 = 24 * HOUR;

/// `YYYY-MM-DD`, by the civil-from-days algorithm.
pub fn utc_date(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(DAY);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The start of the UTC day holding `unix_seconds`.
pub fn day_start(unix_seconds: i64) -> i64 {
    unix_seconds - unix_seconds.rem_euclid(DAY)
}

/// RFC 3339 in UTC: `2026-11-22T08:30:00Z`.
pub fn rfc3339(unix_seconds: i64) -> String {
    let secs = unix_seconds.rem_euclid(DAY);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        utc_date(unix_seconds),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_match_the_calendar() {
        for (secs, date) in [
            (0, "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1_795_305_600, "2026-11-22T00:00:00Z"),
            (1_795_305_600 + 86_399, "2026-11-22T23:59:59Z"),
            (4_107_542_400, "2100-03-01T00:00:00Z"),
        ] {
            assert_eq!(rfc3339(secs), date);
        }
        assert_eq!(day_start(1_795_305_600 + 5000), 1_795_305_600);
    }
}
