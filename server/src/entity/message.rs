//! A notification to a reader: a reply, a mention, likes on a comment (one row per comment, counted), points, a removal, an announcement.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "messages")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    /// Who did it (the latest, for grouped likes).
    pub actor_id: Option<i64>,
    pub feed_id: Option<i64>,
    pub comment_id: Option<i64>,
    pub announcement_id: Option<i64>,
    pub question_id: Option<i64>,
    /// Rows with the same key for a reader are one message (`like:<comment id>`).
    pub group_key: Option<String>,
    pub count: i64,
    /// A short text: the comment's opening, the points, the removal's reason.
    #[sea_orm(column_type = "Text")]
    pub body: String,
    pub read: bool,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// A new unread message of `kind` for `user_id`, to fill in.
pub fn unread(user_id: i64, kind: &str, now: i64) -> ActiveModel {
    use sea_orm::Set;
    ActiveModel {
        user_id: Set(user_id),
        kind: Set(kind.to_owned()),
        count: Set(1),
        body: Set(String::new()),
        read: Set(false),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
}
