//! Keyset pages: a list and the cursor of its last row, which neither repeats nor skips rows
//! that arrive between two pages.

use serde::Serialize;

use crate::error::AppError;

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Page<T> {
    pub list: Vec<T>,
    /// Pass back to get the next page; `null` at the end.
    pub next_cursor: Option<String>,
}

/// A cursor this server did not give out.
pub fn bad_cursor() -> AppError {
    AppError::invalid("Malformed cursor")
}

/// The first `limit` of `rows` (fetched with one extra) and, when there were more, the cursor
/// of the last row kept.
pub fn split_page<R>(
    mut rows: Vec<R>,
    limit: u64,
    cursor_of: impl Fn(&R) -> String,
) -> (Vec<R>, Option<String>) {
    let more = rows.len() as u64 > limit;
    rows.truncate(limit as usize);
    let next = if more {
        rows.last().map(cursor_of)
    } else {
        None
    };
    (rows, next)
}
