//! An item's fingerprint for story grouping, kept while new items may still join it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "story_prints")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub feed_id: i64,
    pub published_at: i64,
    /// JSON of `content::stories::print::Print`.
    #[sea_orm(column_type = "Text")]
    pub print: String,
    /// An admin split it off its story: no story takes it again.
    pub split: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
