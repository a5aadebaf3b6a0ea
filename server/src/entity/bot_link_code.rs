//! A single-use code that links a Telegram chat to an account (`/start <code>`); only its hash
//! is kept.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bot_link_codes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub code_hash: String,
    pub user_id: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
