//! One accepted tracking event.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "track_logs")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `click` or `view`.
    pub kind: String,
    pub event: String,
    pub time_ms: i64,
    /// JSON object of properties.
    pub prop: String,
    pub user_id: Option<i64>,
    pub guest_id: Option<i64>,
    pub received_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
