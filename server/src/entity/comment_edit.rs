//! A comment's text before one of its edits.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "comment_edits")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub comment_id: i64,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// When this version was replaced.
    pub edited_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
