//! A tag readers follow; `names`/`descriptions` are JSON objects keyed by locale.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "tags")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub code: String,
    #[sea_orm(column_type = "Text")]
    pub names: String,
    #[sea_orm(column_type = "Text")]
    pub descriptions: String,
    pub logo: String,
    pub token_id: Option<i64>,
    pub follower_count: i64,
    /// Editorial order of recommendations (lower first).
    pub sort: i64,
    /// The words that say it, by locale: a JSON object of lists; the linker's.
    #[sea_orm(column_type = "Text")]
    pub keywords: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
