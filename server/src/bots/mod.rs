//! The Telegram and LINE bots, part of the server: chats subscribe to tags, tokens, channels or
//! kinds of news with commands (`commands`, parsed by client-core), every new item is queued for
//! the chats it matches in the transaction that stores it (`outbox::fanout`), and one server at a time
//! per platform sends the queue within the platform's limits (`sender`, with `crate::lease`).

pub mod chats;
pub mod commands;
pub mod guides;
pub mod line;
pub mod line_api;
pub mod link;
pub mod message;
pub mod sender;
pub mod status;
pub mod telegram;
pub mod telegram_api;

use client_core::envelope::ErrorKind;
use std::sync::Arc;

use tokio::sync::{Notify, OnceCell};

use crate::config::Config;
use crate::content::Content;
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};
use crate::events::Event;
use line_api::LineApi;
use telegram_api::TelegramApi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    Telegram,
    Line,
}

impl Platform {
    pub const ALL: [Self; 2] = [Self::Telegram, Self::Line];

    pub fn name(self) -> &'static str {
        match self {
            Self::Telegram => "telegram",
            Self::Line => "line",
        }
    }

    /// The longest message the platform shows.
    pub fn max_text_chars(self) -> usize {
        match self {
            Self::Telegram => 4096,
            Self::Line => line_api::MAX_TEXT_CHARS,
        }
    }
}

/// The bots' clients (each `None` when its platform is not configured) and what their jobs
/// share on this server.
#[derive(Clone)]
pub struct Bots(Arc<Inner>);

pub struct Inner {
    pub config: Arc<Config>,
    /// Where `/search` in a chat reads.
    pub content: Content,
    pub telegram: Option<TelegramApi>,
    pub line: Option<LineApi>,
    /// The Telegram bot's username, from `getMe` once.
    username: OnceCell<String>,
    /// Woken when this server queued deliveries, so its sender need not wait for its next look.
    pub queued: Notify,
    /// This server's name in leases.
    pub holder: String,
}

impl std::ops::Deref for Bots {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Bots {
    pub fn new(
        config: Arc<Config>,
        content: Content,
        http: &reqwest::Client,
        holder: String,
    ) -> Self {
        let telegram = config
            .telegram_bot_token
            .as_deref()
            .map(|token| TelegramApi::new(&config.telegram_api_url, token, http.clone()));
        let line = match (
            &config.line_channel_secret,
            &config.line_channel_access_token,
        ) {
            (Some(_), Some(token)) => Some(LineApi::new(&config.line_api_url, token, http.clone())),
            _ => None,
        };
        Self(Arc::new(Inner {
            config,
            content,
            telegram,
            line,
            username: OnceCell::new(),
            queued: Notify::new(),
            holder,
        }))
    }

    /// Wakes this server's senders when deliveries were queued.
    pub fn heard(&self, event: &Event) {
        if *event == Event::DeliveriesQueued {
            self.queued.notify_waiters();
        }
    }

    pub async fn telegram_username(&self) -> AppResult<String> {
        let api = self
            .telegram
            .as_ref()
            .ok_or_else(|| AppError::internal("the Telegram bot is off"))?;
        self.username
            .get_or_try_init(|| async {
                api.get_me()
                    .await
                    .map_err(|e| AppError::internal(format!("getMe: {e}")))
            })
            .await
            .cloned()
    }

    /// The Telegram bot's username for a reader's request: Unavailable, saying why, when the
    /// bot is not set up or Telegram cannot be reached.
    pub async fn telegram_username_for_reader(&self) -> AppResult<String> {
        if self.telegram.is_none() {
            // Not a fault of ours: the site chose not to offer it (logged at debug, not error).
            return Err(AppError::new(ErrorKind::ProviderDisabled)
                .with_message("Telegram is not set up on this site"));
        }
        self.telegram_username().await.map_err(|e| {
            tracing::warn!("telegram getMe: {e:?}");
            AppError::new(ErrorKind::Unavailable)
                .with_message("Telegram cannot be reached, please try again in a minute")
                .retry_after(60)
        })
    }

    pub fn configured(&self, platform: Platform) -> bool {
        match platform {
            Platform::Telegram => self.telegram.is_some(),
            Platform::Line => self.line.is_some(),
        }
    }
}

/// Starts what runs for each configured bot: Telegram's start-up and polling, and a sender per
/// platform. Nothing runs for a bot that is not configured.
pub fn spawn(ctx: &Ctx, bots: &Bots) {
    if bots.telegram.is_some() {
        telegram::spawn(ctx.clone(), bots.clone());
    }
    for platform in Platform::ALL {
        if bots.configured(platform) {
            sender::spawn(ctx.clone(), bots.clone(), platform);
        }
    }
}
