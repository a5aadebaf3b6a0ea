//! A token's chart over 1, 7 or 30 days, as last fetched.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "price_histories")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub token_id: i64,
    pub days: i64,
    /// JSON `[[unix_seconds, usd], …]`, oldest first.
    pub points: String,
    pub fetched_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
