//! The composition root: builds each area's state once and wires the events between them.

use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use sea_orm::DatabaseConnection;

use crate::alerts::Alerts;
use crate::auth::Auth;
use crate::bots::Bots;
use crate::config::Config;
use crate::content::Content;
use crate::content::search_copy::Opened;
use crate::ctx::Ctx;
use crate::error::AppResult;
use crate::linking::Linking;
use crate::mail::Mailer;
use crate::markets::Markets;
use crate::platform::{Clock, Random};
use crate::sms::SmsSender;
use crate::social::marks::ReaderMarks;
use crate::stream::Stream;
use crate::uploads::Uploads;
use crate::uploads::store::Store;

/// The composition root: every area's state, built once. Only `main`, `lib` and `routes` see it;
/// a handler takes the parts it needs (`State<Ctx>`, `State<Content>`, … through `FromRef`) or
/// passes them on from here. It derefs to the small context every area takes.
#[derive(Clone)]
pub struct AppState {
    pub ctx: Ctx,
    pub config: Arc<Config>,
    pub auth: Auth,
    pub content: Content,
    /// The catalogue compiled for entity linking.
    pub linking: Linking,
    pub uploads: Uploads,
    pub bots: Bots,
    pub alerts: Alerts,
    pub markets: Markets,
    /// Readers' likes and favorites, kept to mark signed-in pages.
    pub marks: Arc<ReaderMarks>,
    /// This server's live streams.
    pub stream: Stream,
    pub mailer: Mailer,
    pub sms: SmsSender,
    /// For calls to services beyond this machine (feed sources, the SMS gateway).
    pub http: reqwest::Client,
}

impl Deref for AppState {
    type Target = Ctx;
    fn deref(&self) -> &Ctx {
        &self.ctx
    }
}

macro_rules! sub_state {
    ($($field:ident: $ty:ty),*) => {$(
        impl FromRef<AppState> for $ty {
            fn from_ref(state: &AppState) -> Self {
                state.$field.clone()
            }
        }
    )*};
}

sub_state!(
    ctx: Ctx,
    config: Arc<Config>,
    auth: Auth,
    content: Content,
    linking: Linking,
    uploads: Uploads,
    bots: Bots,
    alerts: Alerts,
    markets: Markets,
    marks: Arc<ReaderMarks>,
    stream: Stream
);

impl AppState {
    pub fn new(
        config: Config,
        db: DatabaseConnection,
        clock: Arc<dyn Clock>,
        random: Arc<dyn Random>,
    ) -> Result<Self, String> {
        let config = Arc::new(config);
        let mailer = Mailer::from_settings(config.smtp_url.as_deref(), &config.mail_from)
            .map_err(|e| e.to_string())?;
        let sms = SmsSender::from_settings(config.sms_webhook_url.as_deref());
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
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
        let ctx = Ctx::new(db, clock, random, &config.public_url);
        let content = Content::new(config.data_dir.clone());
        let linking = Linking::new(config.linking.clone());
        let bots = Bots::new(
            config.clone(),
            content.clone(),
            &http,
            hex::encode(&holder[..8]),
        );
        // What makes the caches stale and wakes the senders.
        let marks = Arc::new(ReaderMarks::default());
        let stream = Stream::new(config.stream.clone());
        let alerts = Alerts::new(&config.push, &secret)?;
        let markets = Markets::new(&config.markets, &secret)?;
        let auth = Auth::new(config.clone(), secret, http.clone());
        let (sessions, caches, linkers, senders, readers, streams, samples) = (
            auth.clone(),
            content.clone(),
            linking.clone(),
            bots.clone(),
            marks.clone(),
            stream.clone(),
            alerts.clone(),
        );
        ctx.events.subscribe(move |event| {
            sessions.sessions.heard(event);
            caches.heard(event);
            linkers.heard(event);
            samples.heard(event);
            senders.heard(event);
            readers.heard(event);
            streams.heard(event);
        });
        Ok(Self {
            auth,
            uploads: Uploads::new(store),
            ctx,
            content,
            linking,
            bots,
            alerts,
            markets,
            marks,
            stream,
            config,
            mailer,
            sms,
            http,
        })
    }

    /// On PostgreSQL, opens this server's search copy (see `Content::open_search_copy`).
    pub async fn open_search_copy(&self) -> AppResult<Option<Opened>> {
        self.content.open_search_copy(&self.ctx).await
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
