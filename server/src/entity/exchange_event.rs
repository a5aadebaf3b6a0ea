//! An event an exchange confirmed (a registration, a deposit): kept once per its event id.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exchange_events")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub exchange_id: i64,
    pub event_id: String,
    pub user_id: i64,
    /// `register` or `deposit`.
    pub event: String,
    pub occurred_at: i64,
    pub received_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
