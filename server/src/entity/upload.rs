//! An image this server accepted and stored.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "uploads")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Its name in the store: `feedback/<32 hex>.<ext>`.
    #[sea_orm(unique)]
    pub key: String,
    pub content_type: String,
    pub bytes: i64,
    pub width: i32,
    pub height: i32,
    pub ip: String,
    pub user_id: Option<i64>,
    pub guest_id: Option<i64>,
    pub created_at: i64,
    /// When feedback, a post or an avatar first used it; never used, it goes after a day.
    pub attached_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
