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
/// (the first page of the home feed, the explore page) are built once per second, not per request.
pub struct ContentCache {
    ttl: Duration,
    entries: RwLock<HashMap<String, (Instant, Bytes)>>,
}

impl ContentCache {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: RwLock::new(HashMap::new()),
        }
    }

    pub fn get(&self, key: &str) -> Option<Bytes> {
        let entries = self.entries.read().ok()?;
        let (at, value) = entries.get(key)?;
        (at.elapsed() < self.ttl).then(|| value.clone())
    }

    pub fn put(&self, key: String, value: Bytes) {
        if let Ok(mut entries) = self.entries.write() {
            // Keys are a handful of tab/locale combinations; the bound only guards against misuse.
            if entries.len() > 1024 {
                entries.clear();
            }
            entries.insert(key, (Instant::now(), value));
        }
    }

    /// Called after every content write on this instance.
    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.write() {
            entries.clear();
        }
    }
}
