//! A user's progress on a task in one period (`once`, or the UTC day for daily tasks).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "task_progress")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub task_id: i64,
    pub period: String,
    pub count: i32,
    /// `in_progress`, `to_receive` or `completed` (no row: `not_start`).
    pub status: String,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
