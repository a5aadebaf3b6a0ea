//! A Telegram chat (or one forum topic of it) or a LINE user, group or room the bots talk to.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bot_chats")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `telegram` or `line`.
    pub platform: String,
    /// The platform's id of the chat (Telegram's chat id, LINE's user, group or room id).
    pub chat_ref: String,
    /// A Telegram forum topic's `message_thread_id`; 0 for the whole chat.
    pub thread_id: i64,
    /// `private`, `group`, `supergroup`, `channel` (Telegram); `user`, `group`, `room` (LINE).
    pub kind: String,
    pub locale: String,
    /// `active`, or `paused` (the bot was removed or blocked): nothing is queued or sent.
    pub state: String,
    /// `off`, `hourly` or `daily`.
    pub digest: String,
    /// When the last digest was sent (or digests were turned on).
    pub digest_at: i64,
    /// JSON array of lower-cased muted words.
    pub muted: String,
    /// The linked account, if any.
    pub user_id: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: i64,
    /// A LINE group's or room's steward: the member (LINE user id) who first changed what it
    /// receives, and the only one who may from then on.
    pub steward: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
