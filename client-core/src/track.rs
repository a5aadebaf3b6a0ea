//! Tracking events: what a valid entry is and how large a batch may be. The browser batches by
//! these limits and the server enforces them, entry by entry.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Entries one batch may carry.
pub const TRACK_MAX_ENTRIES: usize = 500;
/// Largest batch body.
pub const TRACK_MAX_BODY_BYTES: usize = 256 * 1024;
const EVENT_MAX_CHARS: usize = 64;
const PROP_MAX_BYTES: usize = 2048;
/// How old an event may be (7 days) and how far ahead a client clock may run (1 hour), in ms.
const MAX_AGE_MS: i64 = 7 * 24 * 3600 * 1000;
const MAX_AHEAD_MS: i64 = 3600 * 1000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrackEntry {
    /// `click` or `view`.
    #[serde(rename = "type")]
    pub kind: String,
    pub event: String,
    /// When it happened, Unix milliseconds.
    pub time: i64,
    /// Properties (`from`, `ic`, …): a JSON object, or absent.
    #[serde(default)]
    pub prop: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackError {
    Malformed,
    BadType,
    BadEvent,
    BadTime,
    BadProp,
}

/// Checks one entry against the clock `now_ms` (passed in: this crate reads no clock).
pub fn check_track_entry(raw: &Value, now_ms: i64) -> Result<TrackEntry, TrackError> {
    let entry: TrackEntry =
        serde_json::from_value(raw.clone()).map_err(|_| TrackError::Malformed)?;
    if !matches!(entry.kind.as_str(), "click" | "view") {
        return Err(TrackError::BadType);
    }
    let event_ok = !entry.event.is_empty()
        && entry.event.chars().count() <= EVENT_MAX_CHARS
        && entry
            .event
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.:-/".contains(c));
    if !event_ok {
        return Err(TrackError::BadEvent);
    }
    if entry.time < now_ms - MAX_AGE_MS || entry.time > now_ms + MAX_AHEAD_MS {
        return Err(TrackError::BadTime);
    }
    match &entry.prop {
        None | Some(Value::Null) => {}
        Some(prop @ Value::Object(_)) if prop.to_string().len() <= PROP_MAX_BYTES => {}
        Some(_) => return Err(TrackError::BadProp),
    }
    Ok(entry)
}

/// The body's bytes around its entries: `{"track_logs":[` and `]}`.
const BATCH_FRAME_BYTES: usize = r#"{"track_logs":[]}"#.len();

/// How many of the queued entries, given each one's JSON size in bytes, go into the next batch:
/// as many from the front as keep it within [`TRACK_MAX_ENTRIES`] and [`TRACK_MAX_BODY_BYTES`].
/// 0 means the first entry alone is too large to be sent at all.
pub fn batch_len(entry_bytes: &[usize]) -> usize {
    let mut body = BATCH_FRAME_BYTES;
    let mut taken = 0;
    for bytes in entry_bytes.iter().take(TRACK_MAX_ENTRIES) {
        let separator = usize::from(taken > 0);
        body = body.saturating_add(bytes.saturating_add(separator));
        if body > TRACK_MAX_BODY_BYTES {
            break;
        }
        taken += 1;
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: i64 = 1_795_305_600_000;

    #[test]
    fn a_batch_stops_at_the_entry_limit() {
        assert_eq!(batch_len(&[1; TRACK_MAX_ENTRIES + 100]), TRACK_MAX_ENTRIES);
        assert_eq!(batch_len(&[usize::MAX, 1]), 0);
    }

    #[test]
    fn entries_are_checked_one_by_one() {
        let cases = [
            (
                json!({ "type": "click", "event": "feed.card", "time": NOW }),
                Ok(()),
            ),
            (
                json!({ "type": "view", "event": "page:/explore", "time": NOW - 1, "prop": { "from": "tg" } }),
                Ok(()),
            ),
            (
                json!({ "type": "view", "event": "x", "time": NOW, "prop": null }),
                Ok(()),
            ),
            (
                json!({ "type": "hover", "event": "x", "time": NOW }),
                Err(TrackError::BadType),
            ),
            (
                json!({ "type": "view", "event": "", "time": NOW }),
                Err(TrackError::BadEvent),
            ),
            (
                json!({ "type": "view", "event": "a b", "time": NOW }),
                Err(TrackError::BadEvent),
            ),
            (
                json!({ "type": "view", "event": "x".repeat(65), "time": NOW }),
                Err(TrackError::BadEvent),
            ),
            (
                json!({ "type": "view", "event": "x", "time": NOW - MAX_AGE_MS - 1 }),
                Err(TrackError::BadTime),
            ),
            (
                json!({ "type": "view", "event": "x", "time": NOW + MAX_AHEAD_MS + 1 }),
                Err(TrackError::BadTime),
            ),
            (
                json!({ "type": "view", "event": "x", "time": NOW, "prop": "text" }),
                Err(TrackError::BadProp),
            ),
            (
                json!({ "type": "view", "event": "x", "time": NOW, "prop": { "p": "y".repeat(2100) } }),
                Err(TrackError::BadProp),
            ),
            (
                json!({ "type": "view", "event": "x" }),
                Err(TrackError::Malformed),
            ),
            (json!("view"), Err(TrackError::Malformed)),
        ];
        for (raw, want) in cases {
            assert_eq!(check_track_entry(&raw, NOW).map(|_| ()), want, "{raw}");
        }
    }
}
