//! A mail waiting to be sent, or sent (`outbox`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mail_outbox")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub recipient: String,
    /// Which mail (a template name in `outbox`, e.g. `otp_guessed`).
    pub template: String,
    pub locale: String,
    pub created_at: i64,
    /// When it may next be tried; a server that takes it moves this forward first, so no other
    /// server sends it meanwhile.
    pub due_at: i64,
    pub attempts: i32,
    pub sent_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
