//! Linking a Telegram chat to an account: the account page makes a single-use code, the chat
//! sends it back with `/start <code>` (Telegram's deep link). Only the code's hash is kept.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::ctx::Ctx;
use crate::entity::{bot_chat, bot_link_code, bot_subscription, user};
use crate::error::AppResult;
use crate::points::tasks::{Source, record_event};

/// How long a link code works.
pub const CODE_SECONDS: i64 = 10 * 60;
/// Random bytes in a code: 192 bits, 32 characters of Telegram's `start` alphabet.
const CODE_BYTES: usize = 24;

fn hash(code: &str) -> String {
    hex::encode(Sha256::digest(code.as_bytes()))
}

/// A new code for `user_id`.
pub async fn make_code(ctx: &Ctx, user_id: i64) -> AppResult<String> {
    let mut bytes = [0u8; CODE_BYTES];
    ctx.random.fill(&mut bytes);
    let code = URL_SAFE_NO_PAD.encode(bytes);
    bot_link_code::ActiveModel {
        code_hash: Set(hash(&code)),
        user_id: Set(user_id),
        expires_at: Set(ctx.now() + CODE_SECONDS),
        used_at: Set(None),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?;
    Ok(code)
}

/// The nickname of the account a fresh, unused code links to, without using it up: the chat is
/// asked to confirm first, since whoever made the code can hand its link to anyone.
pub async fn account_of(ctx: &Ctx, code: &str) -> AppResult<Option<String>> {
    let Some(row) = bot_link_code::Entity::find()
        .filter(bot_link_code::Column::CodeHash.eq(hash(code)))
        .filter(bot_link_code::Column::UsedAt.is_null())
        .filter(bot_link_code::Column::ExpiresAt.gt(ctx.now()))
        .one(&ctx.db)
        .await?
    else {
        return Ok(None);
    };
    Ok(user::Entity::find_by_id(row.user_id)
        .one(&ctx.db)
        .await?
        .map(|u| u.nickname))
}

/// Links `chat` to the code's account if the code is unused and fresh; uses it up. Linking
/// completes the account's `join_community` task.
pub async fn redeem(ctx: &Ctx, code: &str, chat: &bot_chat::Model) -> AppResult<bool> {
    let now = ctx.now();
    let Some(row) = bot_link_code::Entity::find()
        .filter(bot_link_code::Column::CodeHash.eq(hash(code)))
        .one(&ctx.db)
        .await?
    else {
        return Ok(false);
    };
    // Taken by one conditional update: a code sent twice at once links once.
    let taken = bot_link_code::Entity::update_many()
        .col_expr(bot_link_code::Column::UsedAt, Expr::value(now))
        .filter(bot_link_code::Column::Id.eq(row.id))
        .filter(bot_link_code::Column::UsedAt.is_null())
        .filter(bot_link_code::Column::ExpiresAt.gt(now))
        .exec(&ctx.db)
        .await?;
    if taken.rows_affected == 0 {
        return Ok(false);
    }
    bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::UserId, Expr::value(row.user_id))
        .filter(bot_chat::Column::Id.eq(chat.id))
        .exec(&ctx.db)
        .await?;
    record_event(ctx, row.user_id, "join_community", Source::Server).await?;
    Ok(true)
}

/// Unlinks a chat: it keeps its subscriptions but `following`, which needs an account.
pub async fn unlink_chat(ctx: &Ctx, chat_id: i64) -> AppResult<()> {
    bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::UserId, Expr::value(Option::<i64>::None))
        .filter(bot_chat::Column::Id.eq(chat_id))
        .exec(&ctx.db)
        .await?;
    bot_subscription::Entity::delete_many()
        .filter(bot_subscription::Column::ChatId.eq(chat_id))
        .filter(bot_subscription::Column::Target.eq("following"))
        .exec(&ctx.db)
        .await?;
    Ok(())
}

/// A chat linked to an account, as the account page lists it.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct LinkedChat {
    pub id: i64,
    pub platform: String,
    pub kind: String,
    pub state: String,
    /// When the bot first saw the chat.
    pub first_seen_at: i64,
}

pub async fn linked_chats(ctx: &Ctx, user_id: i64) -> AppResult<Vec<LinkedChat>> {
    Ok(bot_chat::Entity::find()
        .filter(bot_chat::Column::UserId.eq(user_id))
        .order_by_asc(bot_chat::Column::Id)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|c| LinkedChat {
            id: c.id,
            platform: c.platform,
            kind: c.kind,
            state: c.state,
            first_seen_at: c.created_at,
        })
        .collect())
}

/// Unlinks the account's chat `chat_id`; false when it is not the account's.
pub async fn unlink_own(ctx: &Ctx, user_id: i64, chat_id: i64) -> AppResult<bool> {
    let own = bot_chat::Entity::find_by_id(chat_id)
        .one(&ctx.db)
        .await?
        .is_some_and(|c| c.user_id == Some(user_id));
    if own {
        unlink_chat(ctx, chat_id).await?;
    }
    Ok(own)
}
