//! Items that report one event across sources and languages (`content::stories`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "stories")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The item feeds show for it: the most important, then the earliest.
    pub lead_id: i64,
    pub size: i64,
    /// The earliest report, its language and time.
    pub first_id: i64,
    pub first_lang: String,
    pub first_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
