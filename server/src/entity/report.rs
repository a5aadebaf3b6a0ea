//! A reader's report on a comment, post, question, answer or profile, with its author and text
//! as they were when reported.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "reports")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub reporter_id: i64,
    pub kind: String,
    pub target_id: i64,
    /// Who wrote what is reported (`None`: reported before authors were kept).
    pub author_id: Option<i64>,
    #[sea_orm(column_type = "Text")]
    pub reason: String,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// `open` or `resolved`.
    pub state: String,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
