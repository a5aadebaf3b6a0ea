//! Feedback from readers, signed in or not.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feedback")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `suggestion`, `bug` or `other`.
    pub kind: String,
    pub content: String,
    pub contact: String,
    /// JSON array of image URLs this server issued.
    pub images: String,
    pub user_id: Option<i64>,
    pub guest_id: Option<i64>,
    pub ip: String,
    pub locale: String,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
