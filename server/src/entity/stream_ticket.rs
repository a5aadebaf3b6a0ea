//! A single-use ticket that signs an `EventSource` stream in (`stream`), kept by its digest.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "stream_tickets")]
pub struct Model {
    /// SHA-256 of the ticket, in hex.
    #[sea_orm(primary_key, auto_increment = false)]
    pub ticket: String,
    pub user_id: i64,
    pub expires_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
