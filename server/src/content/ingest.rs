//! RSS and Atom ingestion (feed-rs): sources fetched on a schedule, or one URL or file imported
//! from the command line. Items are keyed by their source and guid, so a second fetch updates
//! rather than duplicates, and a source never overwrites an item that is not its own. A source
//! that fails is retried with backoff and reported in the log and in its status; it never stops
//! the server or the other sources.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

use super::write::{FeedInput, Timestamp, upsert_from_source};
use crate::content::Content;
use crate::ctx::Ctx;
use crate::error::AppError;
use crate::linking::Linking;

/// Largest feed document read; a larger response is refused while streaming.
pub const FEED_MAX_BYTES: usize = 5 * 1024 * 1024;
/// The first retry waits this long; each further failure doubles it, up to the interval.
const RETRY_FIRST: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("fetch failed: {0}")]
    Fetch(String),
    #[error("HTTP status {0}")]
    Status(u16),
    #[error("the feed is larger than {} MB", FEED_MAX_BYTES / 1024 / 1024)]
    TooLarge,
    #[error("not an RSS or Atom feed: {0}")]
    NotAFeed(String),
    #[error("store failed: {0}")]
    Store(String),
}

impl From<AppError> for IngestError {
    fn from(e: AppError) -> Self {
        Self::Store(e.to_string())
    }
}

/// Downloads a feed document, refusing it as soon as it passes the size cap.
pub async fn fetch(http: &reqwest::Client, url: &str) -> Result<Vec<u8>, IngestError> {
    let mut response = http
        .get(url)
        .header(
            reqwest::header::ACCEPT,
            "application/rss+xml, application/atom+xml, application/xml, text/xml",
        )
        .send()
        .await
        .map_err(|e| IngestError::Fetch(e.to_string()))?;
    if !response.status().is_success() {
        return Err(IngestError::Status(response.status().as_u16()));
    }
    if response
        .content_length()
        .is_some_and(|n| n > FEED_MAX_BYTES as u64)
    {
        return Err(IngestError::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| IngestError::Fetch(e.to_string()))?
    {
        if body.len() + chunk.len() > FEED_MAX_BYTES {
            return Err(IngestError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// One entry of a feed document: its guid (feed-rs derives one when the entry has none) and the
/// item it becomes.
pub struct Entry {
    pub guid: String,
    pub item: FeedInput,
}

/// The feed's entries; `fallback_lang` when the feed names no language.
pub fn parse(bytes: &[u8], now: i64, fallback_lang: &str) -> Result<Vec<Entry>, IngestError> {
    let feed = feed_rs::parser::parse(bytes).map_err(|e| IngestError::NotAFeed(e.to_string()))?;
    let lang = feed
        .language
        .clone()
        .unwrap_or_else(|| fallback_lang.to_owned());
    let source_name = feed
        .title
        .as_ref()
        .map(|t| t.content.clone())
        .unwrap_or_default();
    Ok(feed
        .entries
        .into_iter()
        .filter_map(|entry| {
            let link = entry
                .links
                .iter()
                .map(|l| l.href.clone())
                .chain(std::iter::once(entry.id.clone()))
                .find(|href| client_core::link::is_absolute_http_url(href))?;
            let title = entry.title.map(|t| t.content)?;
            let summary = entry.summary.map(|t| t.content).unwrap_or_default();
            let content = entry.content.and_then(|c| c.body).unwrap_or_default();
            let published = entry
                .published
                .or(entry.updated)
                .map_or(now, |d| d.timestamp());
            let item = FeedInput {
                source_url: link,
                kind: "article".to_owned(),
                lang: lang.clone(),
                title,
                summary: summary.chars().take(2_000).collect(),
                content,
                source_name: source_name.chars().take(128).collect(),
                published_at: Timestamp::Unix(published.max(0)),
                tags: Vec::new(),
                tokens: Vec::new(),
                topics: Vec::new(),
                channel: None,
                author: None,
                images: Vec::new(),
                important: false,
                translations: Default::default(),
            };
            Some(Entry {
                guid: entry.id,
                item,
            })
        })
        .collect())
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Imported {
    pub items: usize,
    pub new: usize,
    /// Entries refused one by one (bad URL, empty title, a link that is another item's, …); the
    /// rest are kept.
    pub skipped: usize,
}

/// Parses and stores one document of `source`; each bad entry is skipped, not the whole feed.
pub async fn import_bytes(
    ctx: &Ctx,
    linking: &Linking,
    source: &str,
    bytes: &[u8],
) -> Result<Imported, IngestError> {
    let entries = parse(bytes, ctx.now(), "en")?;
    let mut imported = Imported::default();
    for entry in entries {
        match upsert_from_source(ctx, linking, source, &entry.guid, entry.item).await {
            Ok(new) => {
                imported.items += 1;
                imported.new += usize::from(new);
            }
            Err(e) if e.is_client_error() => imported.skipped += 1,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(imported)
}

/// Imports a URL (fetched with the size cap) or a local file.
pub async fn import(
    ctx: &Ctx,
    linking: &Linking,
    http: &reqwest::Client,
    source: &str,
) -> Result<Imported, IngestError> {
    let bytes = if source.starts_with("http://") || source.starts_with("https://") {
        fetch(http, source).await?
    } else {
        let meta = std::fs::metadata(source).map_err(|e| IngestError::Fetch(e.to_string()))?;
        if meta.len() > FEED_MAX_BYTES as u64 {
            return Err(IngestError::TooLarge);
        }
        std::fs::read(source).map_err(|e| IngestError::Fetch(e.to_string()))?
    };
    import_bytes(ctx, linking, source, &bytes).await
}

/// The last outcome of each scheduled source.
#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
pub struct SourceStatus {
    pub url: String,
    pub last_success_at: Option<i64>,
    pub last_error: Option<String>,
    pub consecutive_failures: u32,
    pub imported: usize,
}

#[derive(Default)]
pub struct IngestStatus(Mutex<HashMap<String, SourceStatus>>);

impl IngestStatus {
    pub fn snapshot(&self) -> Vec<SourceStatus> {
        let mut list: Vec<SourceStatus> = self
            .0
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default();
        list.sort_by(|a, b| a.url.cmp(&b.url));
        list
    }

    fn update(&self, url: &str, change: impl FnOnce(&mut SourceStatus)) -> u32 {
        let Ok(mut map) = self.0.lock() else {
            return 0;
        };
        let entry = map.entry(url.to_owned()).or_insert_with(|| SourceStatus {
            url: url.to_owned(),
            ..Default::default()
        });
        change(entry);
        entry.consecutive_failures
    }
}

/// The wait before the next attempt after `failures` failures in a row.
pub fn next_delay(failures: u32, interval: Duration) -> Duration {
    if failures == 0 {
        return interval;
    }
    let backoff = RETRY_FIRST.saturating_mul(2u32.saturating_pow(failures - 1));
    backoff.min(interval)
}

/// Polls each source forever, each on its own timer, every `interval` seconds.
pub fn spawn_schedule(
    ctx: &Ctx,
    content: &Content,
    linking: &Linking,
    http: &reqwest::Client,
    sources: &[String],
    interval: u64,
) {
    let interval = Duration::from_secs(interval.max(1));
    for url in sources {
        let (ctx, content, linking) = (ctx.clone(), content.clone(), linking.clone());
        let (http, url) = (http.clone(), url.clone());
        tokio::spawn(async move {
            loop {
                let failures = match import(&ctx, &linking, &http, &url).await {
                    Ok(done) => {
                        tracing::info!(%url, items = done.items, new = done.new, "feed imported");
                        let now = ctx.now();
                        content.ingest_status.update(&url, |s| {
                            s.last_success_at = Some(now);
                            s.last_error = None;
                            s.consecutive_failures = 0;
                            s.imported += done.new;
                        })
                    }
                    Err(e) => {
                        let failures = content.ingest_status.update(&url, |s| {
                            s.last_error = Some(e.to_string());
                            s.consecutive_failures += 1;
                        });
                        tracing::warn!(%url, failures, "feed import failed: {e}");
                        failures
                    }
                };
                tokio::time::sleep(next_delay(failures, interval)).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_interval() {
        let hour = Duration::from_secs(3600);
        assert_eq!(next_delay(0, hour), hour);
        assert_eq!(next_delay(1, hour), Duration::from_secs(30));
        assert_eq!(next_delay(2, hour), Duration::from_secs(60));
        assert_eq!(next_delay(4, hour), Duration::from_secs(240));
        assert_eq!(next_delay(40, hour), hour);
    }
}
