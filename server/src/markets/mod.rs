//! Markets: prices beside the news. The poller (`poll`) keeps each catalogue token's latest
//! price from a CoinGecko-compatible provider (`provider`), or from the demo history without one
//! (`demo`); token chips and token pages read them (`quotes`), the Markets page gets its movers
//! and the most talked-about tokens (`overview`), and token pages their charts (`history`).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::config::MarketSettings;

pub mod demo;
pub mod exchanges;
pub mod history;
pub mod overview;
pub mod poll;
pub mod presales;
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
    /// Makes readers' opaque ids at exchanges (derived from the server's secret, so every
    /// server makes the same).
    referral_key: Arc<[u8; 32]>,
}

impl Markets {
    /// `secret`: the server's key, from which the referral key is derived.
    pub fn new(settings: &MarketSettings, secret: &[u8]) -> Result<Self, String> {
        let provider = settings
            .price_api_url
            .as_deref()
            .map(|url| provider::Provider::new(url, settings.price_api_key.clone()))
            .transpose()?;
        let mut referral_key = [0u8; 32];
        hkdf::Hkdf::<sha2::Sha256>::new(Some(b"blockbrief exchange referrals"), secret)
            .expand(b"sub_id", &mut referral_key)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            settings: settings.clone(),
            provider,
            fetching: Arc::default(),
            referral_key: Arc::new(referral_key),
        })
    }

    pub fn referral_key(&self) -> &[u8; 32] {
        &self.referral_key
    }
}
