//! Markets: prices beside the news. The poller (`poll`) keeps each catalogue token's latest
//! price from a CoinGecko-compatible provider (`provider`), or from the demo history without one
//! (`demo`); token chips and token pages read them (`quotes`), the Markets page gets its movers
//! and the most talked-about tokens (`overview`), and token pages their charts (`history`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::config::MarketSettings;

pub mod demo;
pub mod history;
pub mod overview;
pub mod poll;
pub mod provider;
pub mod quotes;

/// `token_prices.source` of a provider's quote.
pub const LIVE_SOURCE: &str = "live";
/// `token_prices.source` of the demo history's.
pub const DEMO_SOURCE: &str = "demo";

/// This area's state: the settings, and the provider when one is set.
#[derive(Clone)]
pub struct Markets {
    pub settings: MarketSettings,
    provider: Option<provider::Provider>,
    /// Charts being fetched now (token, days): one fetch each, however many readers ask.
    fetching: Arc<Mutex<HashSet<(i64, i64)>>>,
}

impl Markets {
    pub fn new(settings: &MarketSettings) -> Result<Self, String> {
        let provider = settings
            .price_api_url
            .as_deref()
            .map(|url| provider::Provider::new(url, settings.price_api_key.clone()))
            .transpose()?;
        Ok(Self {
            settings: settings.clone(),
            provider,
            fetching: Arc::default(),
        })
    }
}
