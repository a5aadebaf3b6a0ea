//! A reader's alert: a rule (client-core's, as JSON), where it is delivered, instantly or in the
//! daily email, and the quiet hours that hold instant ones.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "alerts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    #[sea_orm(column_type = "Text")]
    pub rule: String,
    /// Comma-separated: `push`, `email`, `telegram`, `line`.
    pub deliver: String,
    /// `instant` or `daily`.
    pub mode: String,
    /// Quiet hours in the reader's time zone, minutes after midnight (both or neither).
    pub quiet_from: Option<i64>,
    pub quiet_to: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
