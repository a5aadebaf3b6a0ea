//! A reader's question, with its bounty in escrow until an answer is accepted or its time is up.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "questions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    #[sea_orm(column_type = "Text")]
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// Points held for the accepted answer (0: none).
    pub bounty: i64,
    /// `none`, `open`, `accepted` or `settled` (time up, split by the rule).
    pub bounty_state: String,
    pub accepted_answer_id: Option<i64>,
    pub answer_count: i64,
    pub like_count: i64,
    /// The writer's language when they wrote it (empty before it was kept: not translated).
    pub lang: String,
    pub created_at: i64,
    /// When an open bounty is settled if no answer was accepted.
    pub deadline_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
