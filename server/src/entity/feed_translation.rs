//! A feed item's text in another locale.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feed_translations")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub feed_id: i64,
    pub locale: String,
    #[sea_orm(column_type = "Text")]
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub summary: String,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// Written by the translation service (`content::translate`), not the source or an editor.
    pub machine: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
