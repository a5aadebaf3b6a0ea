//! A reader's view of an item on one day: a view is counted only when its row is new.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feed_views")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub feed_id: i64,
    /// `u:7` (a user), `g:12` (a guest token), `ip:198.51.100.7` (neither).
    #[sea_orm(primary_key, auto_increment = false)]
    pub reader: String,
    /// Days since the Unix epoch (UTC).
    #[sea_orm(primary_key, auto_increment = false)]
    pub day: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
