//! A comment on a feed item, a question or an answer; a reply has the top-level comment as
//! parent.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "comments")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `feed`, `question` or `answer` (`social::subject::Subject`).
    pub subject_kind: String,
    pub subject_id: i64,
    /// The top-level comment this replies to (replies are one level deep).
    pub parent_id: Option<i64>,
    pub user_id: i64,
    /// Whom a reply answers, when it answered a reply (they are mentioned and notified).
    pub reply_to_user_id: Option<i64>,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// `visible`, `deleted` (by its author, kept as a placeholder for its replies) or `removed`.
    pub state: String,
    pub like_count: i64,
    pub reply_count: i64,
    /// The writer's language when they wrote it (empty before it was kept: not translated).
    pub lang: String,
    pub created_at: i64,
    pub edited_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
