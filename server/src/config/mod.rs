//! Settings, from flags or the environment, with embedded defaults so `make run` needs none.
//! Every URL of a service beyond this machine is a setting, so tests point it at a local server.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::client_addr::TrustedProxies;

mod commands;
mod sections;

pub use commands::{BotsAction, Command, ModerationAction};
pub use sections::{
    LinkingSettings, MarketSettings, PushSettings, StreamSettings, TranslateSettings,
};

#[derive(Debug, Clone, Parser)]
#[command(name = "blockbrief", about = "Blockbrief API and web server")]
pub struct Config {
    /// What to do; serving is the default.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Address the server listens on.
    #[arg(long, env = "BIND_ADDR", default_value = "127.0.0.1:8080")]
    pub bind_addr: SocketAddr,

    /// Where the embedded database and other local state live.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// `sqlite://…` or `postgres://…`; unset: a SQLite file under DATA_DIR.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,

    /// `smtp://host:port` or `smtps://user:pass@host`; unset: one-time codes go to the log.
    #[arg(long, env = "SMTP_URL")]
    pub smtp_url: Option<String>,

    /// Sender of one-time-code mail.
    #[arg(
        long,
        env = "MAIL_FROM",
        default_value = "Blockbrief <no-reply@blockbrief.local>"
    )]
    pub mail_from: String,

    /// The site's public address, used in mail and links.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:8080")]
    pub public_url: String,

    /// The app's App Store page. Unset (until the app is published): no App Store button, and
    /// no task asks to rate the app there.
    #[arg(long, env = "APP_STORE_URL")]
    pub app_store_url: Option<String>,

    /// The app's Google Play page. Unset: no Google Play button.
    #[arg(long, env = "PLAY_STORE_URL")]
    pub play_store_url: Option<String>,

    /// A test or preview site: every page says so in a banner ("Test build").
    #[arg(long, env = "TEST_BUILD", default_value_t = false)]
    pub test_build: bool,

    /// Key for hashing one-time codes; unset: a random key kept in DATA_DIR/secret.key.
    #[arg(long, env = "SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<String>,

    /// Which captcha guards sending codes.
    #[arg(long, env = "CAPTCHA", value_enum, default_value_t = CaptchaMode::None)]
    pub captcha: CaptchaMode,

    /// reCAPTCHA site key handed to the browser.
    #[arg(long, env = "RECAPTCHA_SITE_KEY", default_value = "")]
    pub recaptcha_site_key: String,

    /// reCAPTCHA secret for server-side verification.
    #[arg(
        long,
        env = "RECAPTCHA_SECRET",
        default_value = "",
        hide_env_values = true
    )]
    pub recaptcha_secret: String,

    #[arg(
        long,
        env = "RECAPTCHA_VERIFY_URL",
        default_value = "https://www.google.com/recaptcha/api/siteverify"
    )]
    pub recaptcha_verify_url: String,

    /// Hostname a captcha answer must have been solved on; unset: PUBLIC_URL's host.
    #[arg(long, env = "RECAPTCHA_HOSTNAME")]
    pub recaptcha_hostname: Option<String>,

    /// HTTP endpoint of an SMS gateway (POST JSON {to, text}); unset: sign-in by phone is off.
    #[arg(long, env = "SMS_WEBHOOK_URL")]
    pub sms_webhook_url: Option<String>,

    /// Chain ids a Sign-In with Ethereum message may name (comma-separated).
    #[arg(
        long,
        env = "SIWE_CHAIN_IDS",
        value_delimiter = ',',
        default_value = "1,56,137,42161,8453,10"
    )]
    pub siwe_chain_ids: Vec<u64>,

    /// Sign in with Apple: our Services ID (the identity token's audience); unset: Apple is off.
    #[arg(long, env = "APPLE_CLIENT_ID")]
    pub apple_client_id: Option<String>,

    #[arg(
        long,
        env = "APPLE_ISSUER",
        default_value = "https://appleid.apple.com"
    )]
    pub apple_issuer: String,

    #[arg(
        long,
        env = "APPLE_JWKS_URL",
        default_value = "https://appleid.apple.com/auth/keys"
    )]
    pub apple_jwks_url: String,

    /// Apple's JS for the web's sign-in popup (the page may load scripts from its origin).
    #[arg(
        long,
        env = "APPLE_JS_URL",
        default_value = "https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js"
    )]
    pub apple_js_url: String,

    /// The Return URL registered with Apple for the web; unset: PUBLIC_URL.
    #[arg(long, env = "APPLE_REDIRECT_URL")]
    pub apple_redirect_url: Option<String>,

    /// Where providers send the browser back after consent (the web's popup page);
    /// unset: PUBLIC_URL/oauth/by/web.
    #[arg(long, env = "OAUTH_REDIRECT_URL")]
    pub oauth_redirect_url: Option<String>,

    /// Google (OpenID Connect); unset client id: Google is off.
    #[arg(long, env = "GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    #[arg(
        long,
        env = "GOOGLE_CLIENT_SECRET",
        default_value = "",
        hide_env_values = true
    )]
    pub google_client_secret: String,
    #[arg(
        long,
        env = "GOOGLE_AUTH_URL",
        default_value = "https://accounts.google.com/o/oauth2/v2/auth"
    )]
    pub google_auth_url: String,
    #[arg(
        long,
        env = "GOOGLE_TOKEN_URL",
        default_value = "https://oauth2.googleapis.com/token"
    )]
    pub google_token_url: String,
    #[arg(
        long,
        env = "GOOGLE_JWKS_URL",
        default_value = "https://www.googleapis.com/oauth2/v3/certs"
    )]
    pub google_jwks_url: String,
    #[arg(
        long,
        env = "GOOGLE_ISSUER",
        default_value = "https://accounts.google.com"
    )]
    pub google_issuer: String,

    /// Line (OpenID Connect); unset client id: Line is off.
    #[arg(long, env = "LINE_CLIENT_ID")]
    pub line_client_id: Option<String>,
    #[arg(
        long,
        env = "LINE_CLIENT_SECRET",
        default_value = "",
        hide_env_values = true
    )]
    pub line_client_secret: String,
    #[arg(
        long,
        env = "LINE_AUTH_URL",
        default_value = "https://access.line.me/oauth2/v2.1/authorize"
    )]
    pub line_auth_url: String,
    #[arg(
        long,
        env = "LINE_TOKEN_URL",
        default_value = "https://api.line.me/oauth2/v2.1/token"
    )]
    pub line_token_url: String,
    #[arg(
        long,
        env = "LINE_JWKS_URL",
        default_value = "https://api.line.me/oauth2/v2.1/certs"
    )]
    pub line_jwks_url: String,
    #[arg(long, env = "LINE_ISSUER", default_value = "https://access.line.me")]
    pub line_issuer: String,

    /// X/Twitter (OAuth 2 with PKCE, profile from the users/me endpoint); unset client id: off.
    #[arg(long, env = "TWITTER_CLIENT_ID")]
    pub twitter_client_id: Option<String>,
    #[arg(
        long,
        env = "TWITTER_CLIENT_SECRET",
        default_value = "",
        hide_env_values = true
    )]
    pub twitter_client_secret: String,
    #[arg(
        long,
        env = "TWITTER_AUTH_URL",
        default_value = "https://twitter.com/i/oauth2/authorize"
    )]
    pub twitter_auth_url: String,
    #[arg(
        long,
        env = "TWITTER_TOKEN_URL",
        default_value = "https://api.twitter.com/2/oauth2/token"
    )]
    pub twitter_token_url: String,
    #[arg(
        long,
        env = "TWITTER_USERINFO_URL",
        default_value = "https://api.twitter.com/2/users/me"
    )]
    pub twitter_userinfo_url: String,

    /// The Telegram bot's token; unset: the bot is off and nothing about it runs.
    #[arg(long, env = "TELEGRAM_BOT_TOKEN", hide_env_values = true)]
    pub telegram_bot_token: Option<String>,
    /// Requests go to `{TELEGRAM_API_URL}/bot{token}/{method}`.
    #[arg(
        long,
        env = "TELEGRAM_API_URL",
        default_value = "https://api.telegram.org"
    )]
    pub telegram_api_url: String,
    /// Set: updates arrive at `POST /webhooks/telegram` (registered at start-up with this
    /// secret); unset: one server at a time long-polls `getUpdates`.
    #[arg(long, env = "TELEGRAM_WEBHOOK_SECRET", hide_env_values = true)]
    pub telegram_webhook_secret: Option<String>,

    /// Command replies a second, on every server together: their share of Telegram's 30 (the
    /// news sender keeps the rest).
    #[arg(long, env = "TELEGRAM_REPLIES_PER_SECOND", default_value_t = 5)]
    pub telegram_replies_per_second: i32,

    /// Command replies a minute to one chat (a forum's topics are one chat).
    #[arg(long, env = "TELEGRAM_REPLIES_PER_CHAT_MINUTE", default_value_t = 10)]
    pub telegram_replies_per_chat_minute: i32,

    /// The LINE bot's channel secret and access token; either unset: the LINE bot is off.
    #[arg(long, env = "LINE_CHANNEL_SECRET", hide_env_values = true)]
    pub line_channel_secret: Option<String>,
    #[arg(long, env = "LINE_CHANNEL_ACCESS_TOKEN", hide_env_values = true)]
    pub line_channel_access_token: Option<String>,
    #[arg(long, env = "LINE_API_URL", default_value = "https://api.line.me")]
    pub line_api_url: String,

    /// The reverse proxies in front of this server, as addresses or CIDRs
    /// (`127.0.0.1,10.0.0.0/8`): only their `X-Forwarded-For` is read. Unset: none is trusted.
    #[arg(long, env = "TRUST_PROXY", default_value = "")]
    pub trust_proxy: TrustedProxies,

    /// Where uploaded images are stored: `s3://bucket/prefix` (AWS_* variables for credentials and
    /// endpoint) or `file:///dir`; unset: DATA_DIR/uploads.
    #[arg(long, env = "UPLOAD_STORE")]
    pub upload_store: Option<String>,

    /// The built web client served at `/`.
    #[arg(long, env = "WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,

    /// Token editors and importers send in `X-ADMIN-TOKEN` (at least 16 characters); unset: the
    /// admin API is off.
    #[arg(long, env = "ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,

    /// RSS or Atom feeds to import on a schedule, comma-separated.
    #[arg(long, env = "RSS_SOURCES", value_delimiter = ',')]
    pub rss_sources: Vec<String>,

    /// Seconds between two fetches of one feed source (failures retry sooner, with backoff).
    #[arg(long, env = "RSS_INTERVAL_SECONDS", default_value_t = 900)]
    pub rss_interval_seconds: u64,

    /// Wrong sign-in codes site-wide in 10 minutes that put up the guard: until the window ends,
    /// every code needs a captcha answer when `CAPTCHA` is set, else the site checks at most 5
    /// codes a second.
    #[arg(long, env = "OTP_GUARD_FAILURES", default_value_t = 100)]
    pub otp_guard_failures: i32,

    /// Days tracking entries are kept (on PostgreSQL whole months are dropped once past it).
    #[arg(long, env = "TRACK_RETENTION_DAYS", default_value_t = 90)]
    pub track_retention_days: u32,

    /// Hours an account must exist before it may vote (a new account is the cheapest way to
    /// stuff a count).
    #[arg(long, env = "VOTER_MIN_AGE_HOURS", default_value_t = 24)]
    pub voter_min_age_hours: i64,

    /// Load the demo content set when the database has no feeds yet (`make run` turns it on).
    #[arg(long, env = "DEMO_CONTENT", default_value_t = false)]
    pub demo_content: bool,

    #[command(flatten)]
    pub stream: StreamSettings,

    #[command(flatten)]
    pub push: PushSettings,

    #[command(flatten)]
    pub markets: MarketSettings,

    #[command(flatten)]
    pub translate: TranslateSettings,

    #[command(flatten)]
    pub linking: LinkingSettings,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CaptchaMode {
    None,
    V2,
    V3,
}

impl CaptchaMode {
    /// The name the client API uses.
    pub fn api_name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::V2 => "reCAPTCHA.v2",
            Self::V3 => "reCAPTCHA.v3",
        }
    }
}

impl Config {
    /// Flags and environment, where a blank variable (`SMTP_URL=`) means unset.
    pub fn load() -> Self {
        Self::parse().without_blanks()
    }

    /// Defaults only, as `make run` starts with; tests adjust fields from here.
    pub fn embedded(data_dir: PathBuf) -> Self {
        let mut config = Self::parse_from(["blockbrief"]).without_blanks();
        config.data_dir = data_dir;
        config
    }

    fn without_blanks(mut self) -> Self {
        for value in [
            &mut self.database_url,
            &mut self.smtp_url,
            &mut self.app_store_url,
            &mut self.play_store_url,
            &mut self.secret_key,
            &mut self.recaptcha_hostname,
            &mut self.sms_webhook_url,
            &mut self.upload_store,
            &mut self.apple_client_id,
            &mut self.apple_redirect_url,
            &mut self.oauth_redirect_url,
            &mut self.google_client_id,
            &mut self.line_client_id,
            &mut self.twitter_client_id,
            &mut self.admin_token,
            &mut self.telegram_bot_token,
            &mut self.telegram_webhook_secret,
            &mut self.line_channel_secret,
            &mut self.line_channel_access_token,
            &mut self.markets.price_api_url,
            &mut self.markets.price_api_key,
            &mut self.translate.translate_url,
            &mut self.translate.translate_api_key,
        ] {
            if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                *value = None;
            }
        }
        self.rss_sources.retain(|s| !s.trim().is_empty());
        self
    }

    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("blockbrief.db").display()
            )
        })
    }

    /// `host[:port]` of PUBLIC_URL: the domain a Sign-In with Ethereum message names.
    pub fn public_authority(&self) -> &str {
        let after_scheme = self
            .public_url
            .split("://")
            .nth(1)
            .unwrap_or(&self.public_url);
        after_scheme.split('/').next().unwrap_or_default()
    }

    /// The host a captcha answer must come from.
    pub fn captcha_hostname(&self) -> String {
        self.recaptcha_hostname.clone().unwrap_or_else(|| {
            self.public_authority()
                .split(':')
                .next()
                .unwrap_or_default()
                .to_owned()
        })
    }
}
