//! The story index: an item under each of its fingerprint's keys, so that the items sharing a
//! key with a new one are found without comparing pairs.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "story_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub feed_id: i64,
    pub published_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
