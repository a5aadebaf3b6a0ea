//! Something readers may see live, kept a while for readers who reconnect (`stream`).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "stream_events")]
pub struct Model {
    /// The event's `id:` on every stream, on every server.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `item`, `counts`, `comment` or `unread` (`events::Live`).
    pub kind: String,
    pub feed_id: Option<i64>,
    /// The comment (`comment`) or the reader (`unread`; none: every reader).
    pub target_id: Option<i64>,
    pub created_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
