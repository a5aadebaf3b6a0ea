//! Points and tasks: the catalogue, progress per user and period, collecting awards into the
//! ledger, balances and the leaderboard. Callable without HTTP; other features raise events with
//! [`tasks::record_event`] so tasks complete on the server's own word.

pub mod catalogue;
pub mod ledger;
pub mod tasks;

/// The period a task's progress counts in: the UTC day (`2026-11-22`) for daily tasks, else once.
pub fn period(group: &str, now: i64) -> String {
    if group == "daily" {
        utc_date(now)
    } else {
        "once".to_owned()
    }
}

/// Seconds since the epoch → `YYYY-MM-DD` (UTC), by the civil-from-days algorithm.
pub fn utc_date(unix_seconds: i64) -> String {
    let days = unix_seconds.div_euclid(86_400);
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
    unix_seconds - unix_seconds.rem_euclid(86_400)
}
