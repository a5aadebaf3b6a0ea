//! Keyset pages: a list and the cursor of its last row, which neither repeats nor skips rows
//! that arrive between two pages.

use serde::Serialize;

use crate::error::AppError;

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Page<T> {
    pub list: Vec<T>,
    /// Pass back to get the next page; `null` at the end.
    pub next_cursor: Option<String>,
}

/// A cursor this server did not give out.
pub fn bad_cursor() -> AppError {
    AppError::invalid("Malformed cursor")
}

/// A cursor of two non-negative numbers, `"<a>.<b>"` (a time or count, then an id).
pub fn parse_pair(cursor: &str) -> Result<(i64, i64), AppError> {
    let (a, b) = cursor.split_once('.').ok_or_else(bad_cursor)?;
    let number = |s: &str| {
        s.parse::<i64>()
            .ok()
            .filter(|n| *n >= 0 && s.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(bad_cursor)
    };
    Ok((number(a)?, number(b)?))
}

/// One non-negative number, `"<id>"`.
pub fn parse_id(cursor: &str) -> Result<i64, AppError> {
    cursor
        .parse::<i64>()
        .ok()
        .filter(|n| *n >= 0 && cursor.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(bad_cursor)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_are_strict() {
        assert_eq!(
            parse_pair("1795305600.42").expect("valid"),
            (1795305600, 42)
        );
        for bad in ["", "1", "a.b", "1.-2", "-1.2", "1.2.3", "+1.2", "1 .2"] {
            assert!(parse_pair(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_id("42").expect("valid"), 42);
        for bad in ["", "-1", "+1", "1.2", "x"] {
            assert!(parse_id(bad).is_err(), "{bad}");
        }
    }
}
