//! An airdrop or campaign; `texts` is a JSON object keyed by locale of `{title, steps}`.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "benefits")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub link: String,
    pub project: String,
    pub logo: String,
    #[sea_orm(column_type = "Text")]
    pub texts: String,
    pub reward: String,
    pub deadline: i64,
    pub published_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
