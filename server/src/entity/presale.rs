//! A token sale before listing.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "presales")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project's name: its identity for the editors' upsert.
    #[sea_orm(unique)]
    pub project: String,
    pub symbol: String,
    pub chain: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub target_usd: f64,
    /// The token's price in the sale.
    pub price_usd: f64,
    /// JSON `[{label, url}]`.
    pub links: String,
    /// JSON `{locale: text}`.
    pub descriptions: String,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
