//! An author whose posts appear in feeds (a KOL); `bios` keyed by locale.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "kols")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub handle: String,
    pub name: String,
    pub avatar: String,
    #[sea_orm(column_type = "Text")]
    pub bios: String,
    pub follower_count: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
