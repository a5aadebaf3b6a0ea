//! A Sign-In with Ethereum message the server issued: single use, valid 10 minutes.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wallet_nonces")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub nonce: String,
    /// Lower-case `0x…` address the message was issued for.
    pub address: String,
    /// `login` or `bind`.
    pub purpose: String,
    /// The signed-in user a `bind` message was issued to.
    pub user_id: Option<i64>,
    /// The exact text issued: a signed message must be this, byte for byte.
    pub message: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub used: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
