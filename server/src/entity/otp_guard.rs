//! Per-address limits that outlive any one code: failed tries in the current 24 h window and the
//! time of the last send. Each check-and-count is one conditional UPDATE, so concurrent requests
//! can never pass a limit together.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "otp_guards")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub address: String,
    pub window_start: i64,
    /// Attempts counted against the address in this window; a right code gives its back.
    pub failures: i32,
    pub last_sent_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
