//! Characters sent for machine translation on one UTC day.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "translation_days")]
pub struct Model {
    /// Days since the Unix epoch.
    #[sea_orm(primary_key, auto_increment = false)]
    pub day: i64,
    pub chars: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
