//! A Telegram sign-in `hash` already accepted: each is accepted once.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "telegram_logins")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub hash: String,
    pub seen_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
