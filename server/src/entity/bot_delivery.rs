//! One item for one chat: queued when the item is stored, then sent (`bots::sender`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bot_deliveries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub chat_id: i64,
    pub feed_id: i64,
    /// `queued`, `sent`, `muted` (a muted word matched), `dropped` (the chat was paused) or
    /// `failed` (given up after the last attempt; `error` says why).
    pub state: String,
    pub created_at: i64,
    /// When it may next be tried; the sender moves it forward before sending.
    pub due_at: i64,
    pub attempts: i32,
    pub sent_at: Option<i64>,
    /// LINE's `X-Line-Retry-Key`, made at the first attempt and sent with every retry.
    pub retry_key: Option<String>,
    pub error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
