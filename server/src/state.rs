//! What every handler shares: settings, the database, the clock, randomness and the senders.

use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use client_core::envelope::ErrorKind;
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection};
use tokio::sync::OnceCell;

use crate::auth::jwks::JwksCache;
use crate::auth::tokens::SessionCache;
use crate::bots::Bots;
use crate::config::Config;
use crate::content::ContentCache;
use crate::content::ingest::IngestStatus;
use crate::content::search_copy::{Opened, SearchCopy};
use crate::error::{AppError, AppResult};
use crate::limits::SearchLimiter;
use crate::mail::Mailer;
use crate::platform::{Clock, Random};
use crate::sms::SmsSender;
use crate::uploads::store::Store;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub config: Config,
    pub db: DatabaseConnection,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub mailer: Mailer,
    pub sms: SmsSender,
    /// For calls to services beyond this machine (captcha, SMS gateway).
    pub http: reqwest::Client,
    /// Key of the one-time-code hashes.
    pub secret: Vec<u8>,
    pub sessions: SessionCache,
    /// Uploaded files.
    pub store: Store,
    /// Identity-token signing keys of Apple, Google and Line.
    pub apple_keys: JwksCache,
    pub google_keys: JwksCache,
    pub line_keys: JwksCache,
    /// Short-lived answers of the busiest content reads; cleared by every content write.
    pub content_cache: ContentCache,
    /// Short-lived search result pages (a breaking story sends many readers after one term);
    /// apart from `content_cache`, so a flood of distinct queries cannot evict the home feed.
    pub search_cache: ContentCache,
    /// Searches per client on this server.
    pub search_limiter: SearchLimiter,
    /// Uploads read at once on this server (`routes::feedback`).
    pub upload_slots: tokio::sync::Semaphore,
    /// The last outcome of each scheduled feed source.
    pub ingest_status: IngestStatus,
    /// The Telegram and LINE bots.
    pub bots: Bots,
    /// On PostgreSQL, the copy of the search documents that search reads (see `search_index`).
    search_copy: OnceCell<SearchCopy>,
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    pub fn new(
        config: Config,
        db: DatabaseConnection,
        clock: Arc<dyn Clock>,
        random: Arc<dyn Random>,
    ) -> Result<Self, String> {
        let mailer = Mailer::from_settings(config.smtp_url.as_deref(), &config.mail_from)
            .map_err(|e| e.to_string())?;
        let sms = SmsSender::from_settings(config.sms_webhook_url.as_deref());
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        let apple_keys = JwksCache::new(&config.apple_jwks_url);
        let google_keys = JwksCache::new(&config.google_jwks_url);
        let line_keys = JwksCache::new(&config.line_jwks_url);
        let store = Store::open(config.upload_store.as_deref(), &config.data_dir)?;
        let secret = match &config.secret_key {
            Some(key) if key.len() >= 32 => key.as_bytes().to_vec(),
            Some(_) => return Err("SECRET_KEY must be at least 32 characters".to_owned()),
            None => load_or_create_key(&config.data_dir, "secret.key", random.as_ref())?,
        };
        if config.admin_token.as_ref().is_some_and(|t| t.len() < 16) {
            return Err("ADMIN_TOKEN must be at least 16 characters".to_owned());
        }
        // This server's name in leases, kept with its data: restarted, it resumes its own work
        // at once instead of waiting for its old lease to run out.
        let holder = load_or_create_key(&config.data_dir, "server.id", random.as_ref())?;
        let bots = Bots::new(&config, &http, hex::encode(&holder[..8]));
        Ok(Self(Arc::new(Inner {
            bots,
            config,
            db,
            clock,
            random,
            mailer,
            sms,
            http,
            secret,
            sessions: SessionCache::default(),
            apple_keys,
            google_keys,
            line_keys,
            store,
            content_cache: ContentCache::new(Duration::from_secs(1)),
            search_cache: ContentCache::new(Duration::from_secs(1)),
            search_limiter: SearchLimiter::default(),
            upload_slots: tokio::sync::Semaphore::new(crate::routes::UPLOADS_IN_FLIGHT),
            ingest_status: IngestStatus::default(),
            search_copy: OnceCell::new(),
        })))
    }

    /// Content was written: cached answers built from it are dropped.
    pub fn content_changed(&self) {
        self.content_cache.clear();
        self.search_cache.clear();
        if let Some(copy) = self.search_copy.get() {
            copy.invalidate();
        }
    }

    /// Where search reads: a SQLite database's own index, or on PostgreSQL this server's copy
    /// (`content::search_copy`), caught up when it may be behind. Until the copy is open, search
    /// is unavailable (`/api/health` says so).
    pub async fn search_index(&self) -> AppResult<&DatabaseConnection> {
        if self.db.get_database_backend() == DatabaseBackend::Sqlite {
            return Ok(&self.db);
        }
        let copy = self.search_copy.get().ok_or_else(|| {
            AppError::new(ErrorKind::Unavailable)
                .with_message("Search is getting ready, please try again in a minute")
                .retry_after(30)
        })?;
        copy.current(&self.db, self.now()).await
    }

    /// Whether search can answer (on PostgreSQL: once this server's copy is open).
    pub fn search_ready(&self) -> bool {
        self.db.get_database_backend() == DatabaseBackend::Sqlite
            || self.search_copy.get().is_some()
    }

    /// On PostgreSQL, opens this server's search copy (reused and caught up, or built); a
    /// server starts serving before this ends. Nothing to do on SQLite.
    pub async fn open_search_copy(&self) -> AppResult<Option<Opened>> {
        if self.search_ready() {
            return Ok(None);
        }
        let (copy, opened) = SearchCopy::open(&self.config.data_dir, &self.db, self.now()).await?;
        // Only start-up opens it: nothing else can have set it meanwhile.
        let _ = self.search_copy.set(copy);
        Ok(Some(opened))
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }
}

/// A random key kept in the data directory under `name` (the secret that keeps codes verifiable
/// across restarts, the server's own id).
fn load_or_create_key(dir: &Path, name: &str, random: &dyn Random) -> Result<Vec<u8>, String> {
    let path = dir.join(name);
    if let Ok(existing) = std::fs::read_to_string(&path) {
        return hex::decode(existing.trim()).map_err(|e| format!("{}: {e}", path.display()));
    }
    let mut key = vec![0u8; 32];
    random.fill(&mut key);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_private(&path, &hex::encode(&key)).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(key)
}

fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    options.open(path)?.write_all(contents.as_bytes())
}
