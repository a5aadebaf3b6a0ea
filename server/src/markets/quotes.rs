//! Prices as readers see them: a quote on each token chip, the fuller market figures on a token's
//! page. Read from `token_prices`, which the poller (`poll`) keeps.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use serde::Serialize;

use crate::entity::token_price;
use crate::error::AppResult;

/// A token's price on a chip.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Quote {
    pub usd: f64,
    /// Change over the last 24 hours, in percent (`-3.2`).
    pub change_24h_pct: Option<f64>,
    /// When the provider took it: the web shows its age.
    pub as_of: i64,
    /// From the demo history `make run` plays, not a market.
    pub demo: bool,
}

/// A token's market figures, on its page.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct MarketView {
    pub usd: f64,
    pub change_24h_pct: Option<f64>,
    pub market_cap: Option<f64>,
    pub volume_24h: Option<f64>,
    pub as_of: i64,
    pub demo: bool,
}

impl From<&token_price::Model> for Quote {
    fn from(p: &token_price::Model) -> Self {
        Self {
            usd: p.usd,
            change_24h_pct: p.change_24h_pct,
            as_of: p.as_of,
            demo: p.source == super::DEMO_SOURCE,
        }
    }
}

impl From<token_price::Model> for MarketView {
    fn from(p: token_price::Model) -> Self {
        Self {
            demo: p.source == super::DEMO_SOURCE,
            usd: p.usd,
            change_24h_pct: p.change_24h_pct,
            market_cap: p.market_cap,
            volume_24h: p.volume_24h,
            as_of: p.as_of,
        }
    }
}

/// The quotes of `token_ids` that have one: one query for a page of cards.
pub async fn quotes(
    db: &impl ConnectionTrait,
    token_ids: impl IntoIterator<Item = i64>,
) -> AppResult<HashMap<i64, Quote>> {
    let ids: Vec<i64> = token_ids.into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(token_price::Entity::find()
        .filter(token_price::Column::TokenId.is_in(ids))
        .all(db)
        .await?
        .iter()
        .map(|p| (p.token_id, Quote::from(p)))
        .collect())
}

/// The market figures of one token, if it has a price.
pub async fn market(db: &impl ConnectionTrait, token_id: i64) -> AppResult<Option<MarketView>> {
    Ok(token_price::Entity::find_by_id(token_id)
        .one(db)
        .await?
        .map(MarketView::from))
}
