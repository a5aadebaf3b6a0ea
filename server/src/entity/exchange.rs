//! A partner exchange readers can register on through their referral link.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exchanges")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub code: String,
    pub name: String,
    pub logo: String,
    /// The registration address with `{sub_id}` where the reader's opaque id goes.
    pub url_template: String,
    /// Shared with the exchange: it signs its postbacks with it (HMAC-SHA256). Never sent out.
    pub secret: String,
    /// JSON `{locale: text}`: what a reader gets for registering.
    pub perks: String,
    pub sort: i64,
    pub active: bool,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
