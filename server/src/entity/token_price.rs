//! A token's latest price, as the provider (or the demo) last gave it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "token_prices")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_id: i64,
    pub usd: f64,
    pub change_24h_pct: Option<f64>,
    pub market_cap: Option<f64>,
    pub volume_24h: Option<f64>,
    /// When the provider's quote was taken (Unix seconds).
    pub as_of: i64,
    /// `live` (the provider) or `demo` (the demo history `make run` plays).
    pub source: String,
    /// A price off by more than the sanity limit from `usd`, waiting for the next poll to
    /// confirm it.
    pub pending_usd: Option<f64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
