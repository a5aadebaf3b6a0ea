//! A client's budget for one kind of request in the current window (`limits`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "rate_limits")]
pub struct Model {
    /// `budget:client`, e.g. `gtoken:198.51.100.7`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub bucket: String,
    pub window_start: i64,
    pub hits: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
