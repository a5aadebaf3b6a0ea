//! What a bot chat receives: a tag, token or channel (`target_id`), or every important item,
//! flash, article or followed item (`target_id` 0).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bot_subscriptions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub chat_id: i64,
    /// `tag`, `token`, `channel`, `important`, `news`, `articles` or `following`.
    pub target: String,
    pub target_id: i64,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
