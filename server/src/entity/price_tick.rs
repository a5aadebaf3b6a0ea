//! A token's price at one poll, kept for a day while a price alert measures moves on it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "price_ticks")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub token_id: i64,
    /// The quote's `as_of`.
    pub at: i64,
    pub usd: f64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
