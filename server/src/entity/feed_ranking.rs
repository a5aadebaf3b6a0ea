//! A hot or rising ranking of a feed as it stood when made: its pages are cut from it, so paging
//! stays stable while scores move.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feed_rankings")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The feed, filter and sort it ranks.
    pub key: String,
    pub made_at: i64,
    /// JSON array of feed ids, best first.
    pub ids: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
