//! The chats the bots know and what each subscribed to.

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use super::Platform;
use crate::entity::{bot_chat, bot_delivery, bot_subscription, channel, tag, token};
use crate::error::{AppError, AppResult};

pub const ACTIVE: &str = "active";
pub const PAUSED: &str = "paused";

/// Where a chat is: the platform's id, and on Telegram the forum topic (0: the whole chat).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub platform: Platform,
    pub chat_ref: String,
    pub thread_id: i64,
    pub kind: String,
}

/// The chat at `place`, made (active, in `locale`) the first time it is seen.
pub async fn find_or_create(
    db: &impl ConnectionTrait,
    place: &Place,
    locale: &str,
    now: i64,
) -> AppResult<bot_chat::Model> {
    if let Some(chat) = find(db, place).await? {
        return Ok(chat);
    }
    // Two updates of a new chat at once: the unique index keeps one row, both use it.
    bot_chat::Entity::insert(bot_chat::ActiveModel {
        platform: Set(place.platform.name().to_owned()),
        chat_ref: Set(place.chat_ref.clone()),
        thread_id: Set(place.thread_id),
        kind: Set(place.kind.clone()),
        locale: Set(locale.to_owned()),
        state: Set(ACTIVE.to_owned()),
        digest: Set("off".to_owned()),
        digest_at: Set(now),
        muted: Set("[]".to_owned()),
        user_id: Set(None),
        last_error: Set(None),
        created_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            bot_chat::Column::Platform,
            bot_chat::Column::ChatRef,
            bot_chat::Column::ThreadId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(db)
    .await?;
    find(db, place)
        .await?
        .ok_or_else(|| AppError::internal("a bot chat inserted or found is gone"))
}

pub async fn find(db: &impl ConnectionTrait, place: &Place) -> AppResult<Option<bot_chat::Model>> {
    Ok(bot_chat::Entity::find()
        .filter(bot_chat::Column::Platform.eq(place.platform.name()))
        .filter(bot_chat::Column::ChatRef.eq(place.chat_ref.as_str()))
        .filter(bot_chat::Column::ThreadId.eq(place.thread_id))
        .one(db)
        .await?)
}

/// The ids of every topic of one platform chat (a forum's topics are chats of their own here).
async fn topics(db: &impl ConnectionTrait, platform: &str, chat_ref: &str) -> AppResult<Vec<i64>> {
    Ok(bot_chat::Entity::find()
        .filter(bot_chat::Column::Platform.eq(platform))
        .filter(bot_chat::Column::ChatRef.eq(chat_ref))
        .all(db)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect())
}

/// Pauses a whole platform chat, every topic of it (the bot was removed or blocked there).
pub async fn pause_whole(
    db: &impl ConnectionTrait,
    platform: &str,
    chat_ref: &str,
    why: &str,
) -> AppResult<()> {
    for id in topics(db, platform, chat_ref).await? {
        pause(db, id, why).await?;
    }
    Ok(())
}

/// Resumes a whole platform chat, every topic of it (the bot was added again).
pub async fn resume_whole(
    db: &impl ConnectionTrait,
    platform: &str,
    chat_ref: &str,
) -> AppResult<()> {
    for id in topics(db, platform, chat_ref).await? {
        resume(db, id).await?;
    }
    Ok(())
}

/// Pauses a chat the bot can no longer write to: what was queued for it is dropped, and nothing
/// more is queued until it is resumed.
pub async fn pause(db: &impl ConnectionTrait, chat_id: i64, why: &str) -> AppResult<()> {
    bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::State, Expr::value(PAUSED))
        .col_expr(bot_chat::Column::LastError, Expr::value(why))
        .filter(bot_chat::Column::Id.eq(chat_id))
        .exec(db)
        .await?;
    bot_delivery::Entity::update_many()
        .col_expr(bot_delivery::Column::State, Expr::value("dropped"))
        .filter(bot_delivery::Column::ChatId.eq(chat_id))
        .filter(bot_delivery::Column::State.eq("queued"))
        .exec(db)
        .await?;
    Ok(())
}

/// Keeps the last thing that went wrong with a chat, for `bots status`.
pub async fn note_error(db: &impl ConnectionTrait, chat_id: i64, why: &str) -> AppResult<()> {
    bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::LastError, Expr::value(why))
        .filter(bot_chat::Column::Id.eq(chat_id))
        .exec(db)
        .await?;
    Ok(())
}

/// A Telegram group became a supergroup: its chats (every topic) take the new id. Should the
/// new id already be a chat of ours, the old one is paused instead and the new one goes on.
pub async fn moved(
    db: &impl ConnectionTrait,
    chat: &bot_chat::Model,
    new_ref: &str,
) -> AppResult<()> {
    let platform = chat.platform.as_str();
    let taken = bot_chat::Entity::find()
        .filter(bot_chat::Column::Platform.eq(platform))
        .filter(bot_chat::Column::ChatRef.eq(new_ref))
        .one(db)
        .await?
        .is_some();
    if taken {
        return pause(db, chat.id, "moved to a chat already known").await;
    }
    bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::ChatRef, Expr::value(new_ref))
        .col_expr(bot_chat::Column::Kind, Expr::value("supergroup"))
        .filter(bot_chat::Column::Platform.eq(platform))
        .filter(bot_chat::Column::ChatRef.eq(chat.chat_ref.as_str()))
        .exec(db)
        .await?;
    Ok(())
}

/// Whether `sender` steers `chat` (a LINE group or room): its steward, or the first member to
/// change it, who becomes the steward by one conditional update (two members at once: one wins).
/// A member LINE does not name steers nothing.
pub async fn steers(
    db: &impl ConnectionTrait,
    chat: &bot_chat::Model,
    sender: Option<&str>,
) -> AppResult<bool> {
    let Some(sender) = sender else {
        return Ok(false);
    };
    if let Some(steward) = &chat.steward {
        return Ok(steward == sender);
    }
    let claimed = bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::Steward, Expr::value(sender))
        .filter(bot_chat::Column::Id.eq(chat.id))
        .filter(bot_chat::Column::Steward.is_null())
        .exec(db)
        .await?;
    if claimed.rows_affected == 1 {
        return Ok(true);
    }
    // Another member claimed it at the same moment.
    let steward = bot_chat::Entity::find_by_id(chat.id)
        .one(db)
        .await?
        .and_then(|c| c.steward);
    Ok(steward.as_deref() == Some(sender))
}

pub async fn resume(db: &impl ConnectionTrait, chat_id: i64) -> AppResult<()> {
    bot_chat::Entity::update_many()
        .col_expr(bot_chat::Column::State, Expr::value(ACTIVE))
        .filter(bot_chat::Column::Id.eq(chat_id))
        .exec(db)
        .await?;
    Ok(())
}

/// A subscription as stored: its kind and the row it names (0 for none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub target: &'static str,
    pub target_id: i64,
    /// How the chat names it (`bitcoin`, `$BTC`, `important`).
    pub label: String,
}

impl Subscription {
    pub fn general(target: &'static str) -> Self {
        Self {
            target,
            target_id: 0,
            label: target.to_owned(),
        }
    }
}

/// The tag, token or channel a chat named: a tag code first, then a token symbol, then a
/// channel code; `symbol_only` for `$BTC`.
pub async fn named(
    db: &impl ConnectionTrait,
    name: &str,
    symbol_only: bool,
) -> AppResult<Option<Subscription>> {
    if !symbol_only
        && let Some(t) = tag::Entity::find()
            .filter(tag::Column::Code.eq(name.to_lowercase()))
            .one(db)
            .await?
    {
        return Ok(Some(Subscription {
            target: "tag",
            target_id: t.id,
            label: t.code,
        }));
    }
    if let Some(t) = token::Entity::find()
        .filter(token::Column::Symbol.eq(name.to_uppercase()))
        .one(db)
        .await?
    {
        return Ok(Some(Subscription {
            target: "token",
            target_id: t.id,
            label: format!("${}", t.symbol),
        }));
    }
    if symbol_only {
        return Ok(None);
    }
    Ok(channel::Entity::find()
        .filter(channel::Column::Code.eq(name.to_lowercase()))
        .one(db)
        .await?
        .map(|c| Subscription {
            target: "channel",
            target_id: c.id,
            label: c.code,
        }))
}

pub async fn subscribe(
    db: &impl ConnectionTrait,
    chat_id: i64,
    subscription: &Subscription,
    now: i64,
) -> AppResult<()> {
    bot_subscription::Entity::insert(bot_subscription::ActiveModel {
        chat_id: Set(chat_id),
        target: Set(subscription.target.to_owned()),
        target_id: Set(subscription.target_id),
        created_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            bot_subscription::Column::ChatId,
            bot_subscription::Column::Target,
            bot_subscription::Column::TargetId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(db)
    .await?;
    Ok(())
}

/// Removes one subscription, or all of them (`None`).
pub async fn unsubscribe(
    db: &impl ConnectionTrait,
    chat_id: i64,
    subscription: Option<&Subscription>,
) -> AppResult<()> {
    let mut delete = bot_subscription::Entity::delete_many()
        .filter(bot_subscription::Column::ChatId.eq(chat_id));
    if let Some(s) = subscription {
        delete = delete
            .filter(bot_subscription::Column::Target.eq(s.target))
            .filter(bot_subscription::Column::TargetId.eq(s.target_id));
    }
    delete.exec(db).await?;
    Ok(())
}

/// The chat's subscriptions, named as a chat would name them, oldest first.
pub async fn subscriptions(
    db: &impl ConnectionTrait,
    chat_id: i64,
) -> AppResult<Vec<Subscription>> {
    let rows = bot_subscription::Entity::find()
        .filter(bot_subscription::Column::ChatId.eq(chat_id))
        .order_by_asc(bot_subscription::Column::Id)
        .all(db)
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let label = match row.target.as_str() {
            "tag" => tag::Entity::find_by_id(row.target_id)
                .one(db)
                .await?
                .map(|t| t.code),
            "token" => token::Entity::find_by_id(row.target_id)
                .one(db)
                .await?
                .map(|t| format!("${}", t.symbol)),
            "channel" => channel::Entity::find_by_id(row.target_id)
                .one(db)
                .await?
                .map(|c| c.code),
            other => Some(other.to_owned()),
        };
        if let (Some(label), Some(target)) = (label, static_target(&row.target)) {
            out.push(Subscription {
                target,
                target_id: row.target_id,
                label,
            });
        }
    }
    Ok(out)
}

fn static_target(name: &str) -> Option<&'static str> {
    [
        "tag",
        "token",
        "channel",
        "important",
        "news",
        "articles",
        "following",
        "community",
    ]
    .into_iter()
    .find(|t| *t == name)
}

/// Words the chat muted.
pub fn muted_words(chat: &bot_chat::Model) -> Vec<String> {
    serde_json::from_str(&chat.muted).unwrap_or_default()
}
