//! A reader's opaque id at an exchange (`sub_id`): what the exchange sends back, never the
//! reader's own id.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exchange_referrals")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub exchange_id: i64,
    pub user_id: i64,
    pub sub_id: String,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
