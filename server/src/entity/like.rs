//! A reader likes a feed item or a comment (`kind` `feed` or `comment`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "likes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub target_id: i64,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// What can be liked (`kind`).
pub const FEED: &str = "feed";
pub const COMMENT: &str = "comment";
pub const QUESTION: &str = "question";
pub const ANSWER: &str = "answer";
pub const KINDS: [&str; 4] = [FEED, COMMENT, QUESTION, ANSWER];
