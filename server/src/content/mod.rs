//! News content: feeds and their catalogue (tags, tokens, channels, KOLs, topics, benefits),
//! follows, search, the page head of shared links, and the ways content comes in (the admin
//! API, RSS/Atom ingestion, the demo set).

use std::collections::HashMap;
use std::sync::RwLock;

use bytes::Bytes;
use std::time::{Duration, Instant};

use client_core::locale::DEFAULT_LOCALE;

pub mod catalogue;
pub mod demo;
pub mod feeds;
pub mod first_paint;
pub mod follows;
pub mod head;
pub mod ingest;
pub mod search;
pub mod write;

/// Longest a page of feeds may be.
pub const PAGE_MAX: u64 = 50;
/// Page size when the request names none.
pub const PAGE_DEFAULT: u64 = 20;

/// Picks the text for `locale` from a JSON object keyed by locale, falling back to English and
/// then to any text at all (a row written in one language still shows).
pub fn localized(json: &str, locale: &str) -> String {
    let Ok(map) = serde_json::from_str::<HashMap<String, String>>(json) else {
        return String::new();
    };
    map.get(locale)
        .or_else(|| map.get(DEFAULT_LOCALE))
        .or_else(|| map.values().next())
        .cloned()
        .unwrap_or_default()
}

/// Answers kept for a short time and dropped whenever content changes, so the busiest reads
/// (the first page of the home feed, the explore page) are built about once a second, not per
/// request. When an answer goes stale, one request rebuilds it while the others keep getting the
/// stale copy, so a busy second never makes every request rebuild at once.
pub struct ContentCache {
    ttl: Duration,
    entries: RwLock<HashMap<String, Entry>>,
}

struct Entry {
    built: Instant,
    body: Bytes,
    /// A request is rebuilding this answer.
    rebuilding: bool,
}

impl ContentCache {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: RwLock::new(HashMap::new()),
        }
    }

    /// The cached answer, or `None` when the caller should build it (and `put` it).
    pub fn get(&self, key: &str) -> Option<Bytes> {
        {
            let entries = self.entries.read().ok()?;
            let entry = entries.get(key)?;
            if self.serves(entry) {
                return Some(entry.body.clone());
            }
        }
        // Stale: the first caller to get here rebuilds; the others still get the stale copy.
        let mut entries = self.entries.write().ok()?;
        let entry = entries.get_mut(key)?;
        if self.serves(entry) {
            return Some(entry.body.clone());
        }
        entry.rebuilding = true;
        None
    }

    /// Fresh, or stale while another request rebuilds it (for a bounded time, in case that
    /// request failed).
    fn serves(&self, entry: &Entry) -> bool {
        let age = entry.built.elapsed();
        age < self.ttl || (entry.rebuilding && age < self.ttl * 5)
    }

    pub fn put(&self, key: String, body: Bytes) {
        if let Ok(mut entries) = self.entries.write() {
            // A bound on memory: callers choose the keys (search terms among them).
            if entries.len() > 1024 {
                entries.clear();
            }
            let entry = Entry {
                built: Instant::now(),
                body,
                rebuilding: false,
            };
            entries.insert(key, entry);
        }
    }

    /// Called after every content write on this instance.
    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.write() {
            entries.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_caller_rebuilds_a_stale_answer() {
        let cache = ContentCache::new(Duration::from_millis(20));
        assert_eq!(cache.get("k"), None, "nothing yet: build it");
        cache.put("k".to_owned(), Bytes::from_static(b"v1"));
        assert_eq!(cache.get("k").as_deref(), Some(&b"v1"[..]));
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(cache.get("k"), None, "stale: this caller rebuilds");
        assert_eq!(
            cache.get("k").as_deref(),
            Some(&b"v1"[..]),
            "others get the stale copy"
        );
        cache.put("k".to_owned(), Bytes::from_static(b"v2"));
        assert_eq!(cache.get("k").as_deref(), Some(&b"v2"[..]));
        cache.clear();
        assert_eq!(cache.get("k"), None);
    }
}
