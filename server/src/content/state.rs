//! The content area's state: its caches, where search reads, the searches each client may make
//! and the outcome of each feed source. The composition root builds it once and subscribes it to
//! the events that make its caches stale.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use client_core::envelope::ErrorKind;
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection};
use tokio::sync::OnceCell;

use super::ContentCache;
use super::ingest::IngestStatus;
use super::search_copy::{Opened, SearchCopy};
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};
use crate::events::Event;
use crate::limits::SearchLimiter;

#[derive(Clone)]
pub struct Content(Arc<Inner>);

pub struct Inner {
    /// Short-lived answers of the busiest content reads; cleared by every content write.
    pub cache: ContentCache,
    /// Short-lived search result pages (a breaking story sends many readers after one term);
    /// apart from `cache`, so a flood of distinct queries cannot evict the home feed.
    pub search_cache: ContentCache,
    /// Searches per client on this server.
    pub search_limiter: SearchLimiter,
    /// The last outcome of each scheduled feed source.
    pub ingest_status: IngestStatus,
    /// Where a PostgreSQL server keeps its search copy.
    data_dir: PathBuf,
    /// On PostgreSQL, the copy of the search documents that search reads (see `search_index`).
    search_copy: OnceCell<SearchCopy>,
}

impl std::ops::Deref for Content {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Content {
    pub fn new(data_dir: PathBuf) -> Self {
        Self(Arc::new(Inner {
            cache: ContentCache::new(Duration::from_secs(1)),
            search_cache: ContentCache::new(Duration::from_secs(1)),
            search_limiter: SearchLimiter::default(),
            ingest_status: IngestStatus::default(),
            data_dir,
            search_copy: OnceCell::new(),
        }))
    }

    /// What this area's caches do when something changed.
    pub fn heard(&self, event: &Event) {
        match event {
            Event::ContentChanged | Event::Missed => {
                self.cache.clear();
                self.search_cache.clear();
                if let Some(copy) = self.search_copy.get() {
                    copy.invalidate();
                }
            }
            Event::Stale(key) => self.cache.forget(key),
            Event::DeliveriesQueued
            | Event::CatalogueChanged
            | Event::MarksChanged(_)
            | Event::SignedOut(_)
            | Event::Live(_)
            | Event::Logged(..) => {}
        }
    }

    /// Where search reads: a SQLite database's own index, or on PostgreSQL this server's copy
    /// (`content::search_copy`), caught up when it may be behind. Until the copy is open, search
    /// is unavailable (`/api/health` says so).
    pub async fn search_index<'a>(&'a self, ctx: &'a Ctx) -> AppResult<&'a DatabaseConnection> {
        if ctx.db.get_database_backend() == DatabaseBackend::Sqlite {
            return Ok(&ctx.db);
        }
        let copy = self.search_copy.get().ok_or_else(|| {
            AppError::new(ErrorKind::Unavailable)
                .with_message("Search is getting ready, please try again in a minute")
                .retry_after(30)
        })?;
        copy.current(&ctx.db, ctx.now()).await
    }

    /// Whether search can answer (on PostgreSQL: once this server's copy is open).
    pub fn search_ready(&self, ctx: &Ctx) -> bool {
        ctx.db.get_database_backend() == DatabaseBackend::Sqlite || self.search_copy.get().is_some()
    }

    /// On PostgreSQL, opens this server's search copy (reused and caught up, or built); a
    /// server starts serving before this ends. Nothing to do on SQLite.
    pub async fn open_search_copy(&self, ctx: &Ctx) -> AppResult<Option<Opened>> {
        if self.search_ready(ctx) {
            return Ok(None);
        }
        let (copy, opened) = SearchCopy::open(&self.data_dir, &ctx.db, ctx.now()).await?;
        // Only start-up opens it: nothing else can have set it meanwhile.
        let _ = self.search_copy.set(copy);
        Ok(Some(opened))
    }
}
