//! Points and tasks: the catalogue, progress per user and period, collecting awards into the
//! ledger, balances and the leaderboard. Callable without HTTP; other features raise events with
//! [`tasks::record_event`] so tasks complete on the server's own word.

pub mod catalogue;
pub mod ledger;
pub mod tasks;

use crate::time::utc_date;

/// The period a task's progress counts in: the UTC day (`2026-11-22`) for daily tasks, else once.
pub fn period(group: &str, now: i64) -> String {
    if group == "daily" {
        utc_date(now)
    } else {
        "once".to_owned()
    }
}
