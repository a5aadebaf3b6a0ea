//! A curated group of feeds; `heat` orders trending topics.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "topics")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub code: String,
    #[sea_orm(column_type = "Text")]
    pub titles: String,
    #[sea_orm(column_type = "Text")]
    pub descriptions: String,
    pub cover: String,
    pub heat: i64,
    pub follower_count: i64,
    /// The words that say it, by locale: a JSON object of lists; the linker's.
    #[sea_orm(column_type = "Text")]
    pub keywords: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
