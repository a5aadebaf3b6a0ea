//! A price alert's line crossed, for its reader: written with the state that fired it, then
//! sent (`sent_at`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "price_alert_firings")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub alert_id: i64,
    pub user_id: i64,
    pub symbol: String,
    /// client-core's `Crossing` as JSON.
    pub crossing: String,
    pub window_minutes: i64,
    /// Where, comma-separated (`push`, `email`).
    pub deliver: String,
    pub created_at: i64,
    /// When it may be sent: now, or when the alert's quiet hours end.
    pub due_at: i64,
    pub sent_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
