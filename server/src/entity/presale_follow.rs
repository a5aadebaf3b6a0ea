//! A reader following a presale: told once when it starts.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "presale_follows")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub presale_id: i64,
    pub user_id: i64,
    pub created_at: i64,
    /// When the reader was told it started.
    pub told_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
