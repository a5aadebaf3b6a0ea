//! A reader's answer to a question (one per reader and question).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "answers")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub question_id: i64,
    pub user_id: i64,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    pub like_count: i64,
    /// The writer's language when they wrote it (empty before it was kept: not translated).
    pub lang: String,
    pub created_at: i64,
    pub edited_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
