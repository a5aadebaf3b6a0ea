//! News content: feeds and their catalogue (tags, tokens, channels, KOLs, topics, benefits),
//! follows, search, the page head of shared links, and the ways content comes in (the admin
//! API, RSS/Atom ingestion, the demo set).

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::Notify;

pub mod catalogue;
pub mod demo;
pub mod feeds;
pub mod first_paint;
pub mod follows;
pub mod head;
pub mod ingest;
pub mod ranking;
pub mod relink;
pub mod search;
pub mod search_copy;
pub mod state;
pub mod stories;
pub mod syndication;
pub mod translate;
pub mod write;

pub use state::Content;

/// Longest a page of feeds may be.
pub const PAGE_MAX: u64 = 50;
/// Page size when the request names none.
pub const PAGE_DEFAULT: u64 = 20;

/// Answers kept for a short time and dropped whenever content changes, so the busiest reads
/// (the first page of the home feed, the explore page, popular searches) are built about once a
/// second, not per request. One request builds a missing answer while the others asking for it
/// wait for that answer; when an answer goes stale, one request rebuilds it while the others
/// keep getting the stale copy. So a burst of readers after one term never makes each of them
/// run the same query.
pub struct ContentCache {
    ttl: Duration,
    entries: RwLock<HashMap<String, Entry>>,
    /// Woken whenever an answer is stored or abandoned.
    stored: Notify,
}

struct Entry {
    built: Instant,
    /// `None` while the first build is under way.
    body: Option<Bytes>,
    /// A request is (re)building this answer.
    rebuilding: bool,
}

enum Lookup {
    Ready(Bytes),
    /// The caller builds it (and `put`s or `abandon`s it).
    Build,
    /// Another request is building it.
    Pending,
}

impl ContentCache {
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: RwLock::new(HashMap::new()),
            stored: Notify::new(),
        }
    }

    /// The cached answer, or `None` when the caller should build it (and then `put` or
    /// `abandon` it). Waits, for a bounded time, while another request builds it.
    pub async fn get(&self, key: &str) -> Option<Bytes> {
        let give_up = Instant::now() + self.ttl * 5;
        loop {
            // Registered before looking, so a `put` between the look and the wait is not missed.
            let stored = self.stored.notified();
            match self.lookup(key) {
                Lookup::Ready(body) => return Some(body),
                Lookup::Build => return None,
                Lookup::Pending => {
                    let left = give_up.saturating_duration_since(Instant::now());
                    if tokio::time::timeout(left, stored).await.is_err() {
                        // That build is taking too long: build it here too.
                        return None;
                    }
                }
            }
        }
    }

    fn lookup(&self, key: &str) -> Lookup {
        if let Ok(entries) = self.entries.read() {
            match entries.get(key) {
                Some(entry) if self.serves(entry) => return Self::served(entry),
                _ => {}
            }
        }
        let Ok(mut entries) = self.entries.write() else {
            return Lookup::Build;
        };
        let now = Instant::now();
        let entry = entries.entry(key.to_owned()).or_insert(Entry {
            built: now,
            body: None,
            rebuilding: false,
        });
        // Checked again: another caller may have stored or claimed it since the read.
        if self.serves(entry) {
            return Self::served(entry);
        }
        // Missing or stale: this caller builds; the others get the stale copy or wait.
        entry.rebuilding = true;
        if entry.body.is_none() {
            entry.built = now;
        }
        Lookup::Build
    }

    fn served(entry: &Entry) -> Lookup {
        entry.body.clone().map_or(Lookup::Pending, Lookup::Ready)
    }

    /// Fresh, or being rebuilt (for a bounded time, in case that request failed).
    fn serves(&self, entry: &Entry) -> bool {
        let age = entry.built.elapsed();
        (entry.body.is_some() && age < self.ttl) || (entry.rebuilding && age < self.ttl * 5)
    }

    pub fn put(&self, key: String, body: Bytes) {
        if let Ok(mut entries) = self.entries.write() {
            if !entries.contains_key(&key) {
                make_room(&mut entries, kind(&key));
            }
            let entry = Entry {
                built: Instant::now(),
                body: Some(body),
                rebuilding: false,
            };
            entries.insert(key, entry);
        }
        self.stored.notify_waiters();
    }

    /// The build of `key` failed: the next request tries again, and the waiting ones do now.
    pub fn abandon(&self, key: &str) {
        if let Ok(mut entries) = self.entries.write() {
            match entries.get_mut(key) {
                Some(entry) if entry.body.is_some() => entry.rebuilding = false,
                Some(_) => {
                    entries.remove(key);
                }
                None => {}
            }
        }
        self.stored.notify_waiters();
    }

    /// Drops the answers whose keys start with `prefix` (one thread's pages after a comment on
    /// this instance; other instances' copies age out with the cache's life).
    pub fn forget(&self, prefix: &str) {
        if let Ok(mut entries) = self.entries.write() {
            entries.retain(|key, _| !key.starts_with(prefix));
        }
        self.stored.notify_waiters();
    }

    /// Called after every content write on this instance.
    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.write() {
            entries.clear();
        }
        self.stored.notify_waiters();
    }
}

/// Answers of one kind kept at most (the kind is a key's first `|`-separated part: `home`,
/// `feeds`, `comments`, `rss`, `question`, `search`, …).
pub const KIND_MAX: usize = 512;

fn kind(key: &str) -> &str {
    key.split('|').next().unwrap_or(key)
}

/// A bound on memory for each kind of answer: callers choose the keys (search terms, subjects),
/// and a flood of one kind must not push out the others (it once emptied the whole cache, home
/// feed and all). The one of `kind` built longest ago goes: a busy answer is rebuilt every second.
fn make_room(entries: &mut HashMap<String, Entry>, kind: &str) {
    let mut same = entries.iter().filter(|(key, _)| self::kind(key) == kind);
    let Some(first) = same.next() else {
        return;
    };
    let (mut oldest, mut count) = (first, 1);
    for entry in same {
        count += 1;
        if entry.1.built < oldest.1.built {
            oldest = entry;
        }
    }
    if count >= KIND_MAX {
        let key = oldest.0.clone();
        entries.remove(&key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn each_kind_is_bounded_on_its_own() {
        let cache = ContentCache::new(Duration::from_secs(60));
        cache.put("home|en".to_owned(), Bytes::from_static(b"home"));
        for n in 0..KIND_MAX + 10 {
            cache.put(format!("comments|feed|{n}|"), Bytes::from_static(b"t"));
        }
        assert_eq!(cache.get("home|en").await.as_deref(), Some(&b"home"[..]));
        let kept = cache.entries.read().expect("lock").len();
        assert_eq!(kept, KIND_MAX + 1, "the threads' bound, and home");
        assert_eq!(cache.get("comments|feed|0|").await, None, "the oldest went");
        let newest = format!("comments|feed|{}|", KIND_MAX + 9);
        assert_eq!(cache.get(&newest).await.as_deref(), Some(&b"t"[..]));
    }

    #[tokio::test]
    async fn one_caller_builds_and_the_others_wait_or_get_the_stale_copy() {
        let cache = Arc::new(ContentCache::new(Duration::from_millis(50)));
        assert_eq!(cache.get("k").await, None, "nothing yet: build it");
        let waiter = tokio::spawn({
            let cache = cache.clone();
            async move { cache.get("k").await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!waiter.is_finished(), "waits for the build under way");
        cache.put("k".to_owned(), Bytes::from_static(b"v1"));
        assert_eq!(waiter.await.expect("joined").as_deref(), Some(&b"v1"[..]));
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert_eq!(cache.get("k").await, None, "stale: this caller rebuilds");
        assert_eq!(
            cache.get("k").await.as_deref(),
            Some(&b"v1"[..]),
            "others get the stale copy"
        );
        cache.put("k".to_owned(), Bytes::from_static(b"v2"));
        assert_eq!(cache.get("k").await.as_deref(), Some(&b"v2"[..]));
        cache.put("thread|1|new".to_owned(), Bytes::from_static(b"t"));
        cache.forget("thread|1|");
        assert_eq!(
            cache.get("k").await.as_deref(),
            Some(&b"v2"[..]),
            "others stay"
        );
        assert_eq!(cache.get("thread|1|new").await, None, "forgotten");
        cache.clear();
        assert_eq!(cache.get("k").await, None);
        // A failed build: the waiting caller is let go to build it itself.
        let waiter = tokio::spawn({
            let cache = cache.clone();
            async move { cache.get("k").await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        cache.abandon("k");
        assert_eq!(waiter.await.expect("joined"), None);
    }
}
