//! One item for one reader whose alerts matched it: once per reader and item.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "alert_deliveries")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub feed_id: i64,
    /// Where, comma-separated: the union of the matching alerts' choices.
    pub deliver: String,
    /// `instant`, or `daily` (a daily alert's, or an instant one past the hour's limit).
    pub mode: String,
    /// `queued`, `held` (quiet hours: sent in one summary at `due_at`), `sent` or `dropped` (the
    /// item was taken down first).
    pub state: String,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    /// When a held one is sent.
    pub due_at: i64,
    /// The reader's alerts that matched, comma-separated (the daily email groups by them).
    pub alert_ids: String,
    /// When it went out in the daily email (`None`: not yet, or never to).
    pub emailed_at: Option<i64>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
