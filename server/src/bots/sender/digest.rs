//! Digests: chats that chose an hourly or daily digest get one message listing what was queued
//! for them since the last.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::super::{Platform, chats, message};
use super::{HEADS, Limits, Outcome, finish, new_retry_key, send};
use crate::bots::Bots;
use crate::ctx::Ctx;
use crate::entity::{bot_chat, bot_delivery};
use crate::error::AppResult;

/// Items one digest lists at most.
const DIGEST_ITEMS: u64 = 30;

/// Digest chats whose hour or day has passed get one message listing what was queued for them.
pub(super) async fn send_digests(
    ctx: &Ctx,
    bots: &Bots,
    platform: Platform,
    limits: &Limits,
) -> AppResult<usize> {
    let db = &ctx.db;
    let now = ctx.now();
    let due = bot_chat::Entity::find()
        .filter(bot_chat::Column::Platform.eq(platform.name()))
        .filter(bot_chat::Column::State.eq(chats::ACTIVE))
        .filter(
            (bot_chat::Column::Digest
                .eq("hourly")
                .and(bot_chat::Column::DigestAt.lte(now - 3600)))
            .or(bot_chat::Column::Digest
                .eq("daily")
                .and(bot_chat::Column::DigestAt.lte(now - 86_400))),
        )
        .limit(HEADS)
        .all(db)
        .await?;
    let mut sent = 0;
    for chat in due {
        let queued = bot_delivery::Entity::find()
            .filter(bot_delivery::Column::ChatId.eq(chat.id))
            .filter(bot_delivery::Column::State.eq("queued"))
            .order_by_asc(bot_delivery::Column::Id)
            .limit(DIGEST_ITEMS)
            .all(db)
            .await?;
        let muted = chats::muted_words(&chat);
        let mut items = Vec::new();
        let mut listed = Vec::new();
        for delivery in &queued {
            match message::words(db, delivery.feed_id, &chat.locale).await? {
                Some(w) if !w.is_muted(&muted) => {
                    items.push(w);
                    listed.push(delivery.id);
                }
                Some(_) => finish(ctx, delivery.id, "muted").await?,
                None => finish(ctx, delivery.id, "dropped").await?,
            }
        }
        if items.is_empty() || !limits.allows(&chat) {
            continue;
        }
        // The chat's period is taken by one conditional update: one digest per period.
        let taken = bot_chat::Entity::update_many()
            .col_expr(bot_chat::Column::DigestAt, Expr::value(now))
            .filter(bot_chat::Column::Id.eq(chat.id))
            .filter(bot_chat::Column::DigestAt.eq(chat.digest_at))
            .exec(db)
            .await?;
        if taken.rows_affected == 0 {
            continue;
        }
        limits.turn().await;
        let text = message::digest(platform, &items, &chat.locale, ctx.public_url());
        match send(bots, platform, &chat, &text, &new_retry_key(ctx)).await {
            Outcome::Sent => {
                bot_delivery::Entity::update_many()
                    .col_expr(bot_delivery::Column::State, Expr::value("sent"))
                    .col_expr(bot_delivery::Column::SentAt, Expr::value(now))
                    .filter(bot_delivery::Column::Id.is_in(listed))
                    .exec(db)
                    .await?;
                sent += 1;
            }
            Outcome::ChatGone(why) => {
                chats::pause_whole(db, &chat.platform, &chat.chat_ref, &why).await?;
            }
            // The items stay queued for the next period's digest.
            Outcome::RetryAfter(_)
            | Outcome::Moved(_)
            | Outcome::Failed(_)
            | Outcome::Refused(_) => {
                chats::note_error(db, chat.id, "digest not sent").await?;
            }
        }
    }
    Ok(sent)
}
