//! A browser a reader allowed to show notifications: its push service endpoint and the keys
//! messages to it are encrypted with (RFC 8291).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "push_subscriptions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub endpoint: String,
    /// The browser's P-256 public key and auth secret, base64url.
    pub p256dh: String,
    pub auth: String,
    pub created_at: i64,
    /// Not before this (the push service answered 429 with `Retry-After`).
    pub retry_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
