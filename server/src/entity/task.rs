//! A task of the catalogue (seeded at start-up from `points::catalogue`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "tasks")]
pub struct Model {
    /// The `point_id` clients see.
    #[sea_orm(primary_key)]
    pub id: i64,
    pub group: String,
    pub event_type: String,
    pub award: i64,
    /// Events needed before the award can be collected.
    pub target: i32,
    pub app_link: String,
    pub report_time: i32,
    /// The web cannot do it (an app-only action).
    pub button_disabled: bool,
    /// JSON object: locale → title.
    pub titles: String,
    /// JSON object: locale → button text (empty: the client's default label).
    pub button_texts: String,
    pub sort: i32,
    pub active: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
