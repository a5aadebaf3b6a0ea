//! Calendar arithmetic on Unix seconds (UTC), through chrono (the one date library).

use chrono::{DateTime, SecondsFormat, Utc};

pub const HOUR: i64 = 3600;
pub const DAY: i64 = 24 * HOUR;

/// The instant, or the epoch for seconds chrono cannot represent.
pub fn utc(unix_seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(unix_seconds, 0).unwrap_or_default()
}

/// `YYYY-MM-DD`.
pub fn utc_date(unix_seconds: i64) -> String {
    utc(unix_seconds).format("%Y-%m-%d").to_string()
}

/// The start of the UTC day holding `unix_seconds`.
pub fn day_start(unix_seconds: i64) -> i64 {
    unix_seconds - unix_seconds.rem_euclid(DAY)
}

/// RFC 3339 in UTC: `2026-11-22T08:30:00Z`.
pub fn rfc3339(unix_seconds: i64) -> String {
    utc(unix_seconds).to_rfc3339_opts(SecondsFormat::Secs, true)
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
