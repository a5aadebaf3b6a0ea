//! The settings of the areas that grew their own section: each area is handed its section.

/// Machine translation of items (`content::translate`).
#[derive(Debug, Clone, clap::Args)]
pub struct TranslateSettings {
    /// A LibreTranslate-compatible service (`https://libretranslate.com`); without one, items
    /// show in the languages they were written or translated in.
    #[arg(long, env = "TRANSLATE_URL")]
    pub translate_url: Option<String>,

    /// The service's API key, sent as `api_key`.
    #[arg(long, env = "TRANSLATE_API_KEY")]
    pub translate_api_key: Option<String>,

    /// Characters sent for translation a day (UTC), across every server.
    #[arg(long, env = "TRANSLATE_DAILY_CHARS", default_value_t = 500_000)]
    pub translate_daily_chars: i64,
}

/// Understanding items as they are stored (`linking`): when a story is breaking news.
#[derive(Debug, Clone, clap::Args)]
pub struct LinkingSettings {
    /// Distinct sources (sites) that make a story breaking news, important without an editor.
    #[arg(long, env = "BREAKING_SOURCES", default_value_t = client_core::breaking::BREAKING_SOURCES)]
    pub breaking_sources: u32,

    /// Within how many minutes of each other those sources must report it.
    #[arg(long, env = "BREAKING_MINUTES", default_value_t = client_core::breaking::BREAKING_MINUTES)]
    pub breaking_minutes: u32,
}

/// Prices (`markets`).
#[derive(Debug, Clone, clap::Args)]
pub struct MarketSettings {
    /// A CoinGecko-compatible price API (`https://api.coingecko.com/api/v3`); without one the
    /// demo price history plays, labelled as such.
    #[arg(long, env = "PRICE_API_URL")]
    pub price_api_url: Option<String>,

    /// The price API's key, sent in the header its plan reads (`x-cg-pro-api-key` on
    /// pro-api.coingecko.com, `x-cg-demo-api-key` elsewhere).
    #[arg(long, env = "PRICE_API_KEY")]
    pub price_api_key: Option<String>,

    /// Seconds between two polls of the price API (by one server at a time).
    #[arg(long, env = "PRICE_INTERVAL_SECONDS", default_value_t = 60)]
    pub price_interval_seconds: u64,
}

/// Web Push (`alerts::push`).
#[derive(Debug, Clone, clap::Args)]
pub struct PushSettings {
    /// Who push services may contact about our messages (VAPID `sub`): a `mailto:` or `https:`
    /// address.
    #[arg(
        long,
        env = "PUSH_CONTACT",
        default_value = "mailto:push@blockbrief.local"
    )]
    pub push_contact: String,

    /// Allow push endpoints on loopback over plain HTTP (tests and local development only; the
    /// server otherwise posts only to public HTTPS addresses).
    #[arg(long, env = "PUSH_ALLOW_LOOPBACK", default_value_t = false)]
    pub push_allow_loopback: bool,
}

/// The live stream's limits (`stream`), per server.
#[derive(Debug, Clone, clap::Args)]
pub struct StreamSettings {
    /// Streams open at once on this server.
    #[arg(long, env = "STREAM_MAX", default_value_t = 20_000)]
    pub stream_max: usize,

    /// Streams open at once from one client address.
    #[arg(long, env = "STREAM_PER_CLIENT", default_value_t = 50)]
    pub stream_per_client: usize,

    /// Streams open at once for one account.
    #[arg(long, env = "STREAM_PER_ACCOUNT", default_value_t = 10)]
    pub stream_per_account: usize,
}
