//! One-time codes: a keyed hash of the code, bound to its address and purpose.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "otp_codes")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `email:a@b.co` or `phone:886-912345678`.
    pub address: String,
    pub purpose: String,
    pub code_hash: String,
    /// Who asked for it, for the per-IP cap.
    pub ip: String,
    pub created_at: i64,
    pub expires_at: i64,
    /// Attempts made against this code (right or wrong).
    pub tries: i32,
    /// Used to sign in, or voided by a newer code: either way it can no longer be used.
    pub spent: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
