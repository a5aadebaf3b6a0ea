//! A reader's comment, question or answer in another locale, written by the translation service
//! (`content::translate`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "text_translations")]
pub struct Model {
    /// `comment`, `question` or `answer` (`content::translate::TextKind`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub kind: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub ref_id: i64,
    #[sea_orm(primary_key, auto_increment = false)]
    pub locale: String,
    /// A question's title; empty for the others.
    #[sea_orm(column_type = "Text")]
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub content: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
