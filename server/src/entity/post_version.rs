//! One version of a reader's post as its author wrote it; the newest is the one shown.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "post_versions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub feed_id: i64,
    #[sea_orm(column_type = "Text")]
    pub title: String,
    /// The Markdown source.
    #[sea_orm(column_type = "Text")]
    pub markdown: String,
    /// JSON array of image URLs.
    #[sea_orm(column_type = "Text")]
    pub images: String,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
