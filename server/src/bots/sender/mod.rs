//! Sending what `fanout` queued, one platform per sender. Only the server holding the
//! platform's sending lease sends, so the platform's limits are kept across servers; each
//! delivery is still taken by a conditional UPDATE before it is sent, so a lease that changes
//! hands mid-send never sends one twice. A chat gets its items in order: only its oldest queued
//! item is ever tried, and a retry waits in its place.

mod digest;
mod limits;
mod outcome;

pub use limits::Limits;
pub use outcome::{Outcome, telegram_outcome};

use std::sync::Arc;
use std::time::Duration;

use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder, Statement,
};
use tokio::task::JoinSet;

use super::line_api::Pushed;
use super::telegram_api::Outgoing;
use super::{Platform, chats, message};
use crate::bots::Bots;
use crate::ctx::Ctx;
use crate::entity::{bot_chat, bot_delivery};
use crate::error::AppResult;
use crate::lease;
use digest::send_digests;

/// How long a taken delivery is left to the server sending it: well past one send (the HTTP
/// client gives up after 10 s), and short, because a server killed mid-send leaves its chat
/// waiting this long before that item is tried again.
const CLAIM: i64 = 30;
const MAX_ATTEMPTS: i32 = 6;
/// The sending lease: renewed every round (a round is at most [`HEADS`] sends).
const LEASE_SECONDS: i64 = 30;
/// Chats tried per round.
const HEADS: u64 = 300;
/// Sends waiting on the platform at once.
const IN_FLIGHT: usize = 16;

#[derive(Debug, FromQueryResult)]
struct Head {
    id: i64,
}

/// The oldest queued delivery of each active chat of `platform` that sends as items arrive,
/// where that delivery is due: a chat waiting out a retry keeps its order and its place, and
/// takes none of a round's [`HEADS`] from the chats that are due.
const HEADS_SQL: &str = "SELECT h.id FROM (SELECT MIN(d.id) AS id FROM bot_deliveries d \
     JOIN bot_chats c ON c.id = d.chat_id \
     WHERE d.state = 'queued' AND c.platform = $1 AND c.state = 'active' AND c.digest = 'off' \
     GROUP BY d.chat_id) h JOIN bot_deliveries due ON due.id = h.id \
     WHERE due.due_at <= $3 ORDER BY h.id LIMIT $2";

/// Sends what is due now within the limits; returns how many were sent. The caller holds the
/// platform's lease.
pub async fn send_round(
    ctx: &Ctx,
    bots: &Bots,
    platform: Platform,
    limits: &Limits,
) -> AppResult<usize> {
    let db = &ctx.db;
    let now = ctx.now();
    let mut sent = send_digests(ctx, bots, platform, limits).await?;
    let heads = Head::find_by_statement(Statement::from_sql_and_values(
        db.get_database_backend(),
        HEADS_SQL,
        [platform.name().into(), (HEADS as i64).into(), now.into()],
    ))
    .all(db)
    .await?;
    let deliveries = bot_delivery::Entity::find()
        .filter(bot_delivery::Column::Id.is_in(heads.iter().map(|h| h.id)))
        .filter(bot_delivery::Column::DueAt.lte(now))
        .order_by_asc(bot_delivery::Column::Id)
        .all(db)
        .await?;
    let chats: std::collections::HashMap<i64, bot_chat::Model> = bot_chat::Entity::find()
        .filter(bot_chat::Column::Id.is_in(deliveries.iter().map(|d| d.chat_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    let mut sending = JoinSet::new();
    for delivery in deliveries {
        let Some(chat) = chats.get(&delivery.chat_id).cloned() else {
            continue;
        };
        let Some(words) = message::words(db, delivery.feed_id, &chat.locale).await? else {
            finish(ctx, delivery.id, "dropped").await?;
            continue;
        };
        if words.is_muted(&chats::muted_words(&chat)) {
            finish(ctx, delivery.id, "muted").await?;
            continue;
        }
        if !limits.allows(&chat) {
            continue;
        }
        limits.turn().await;
        let Some(retry_key) = claim(ctx, &delivery, platform).await? else {
            continue;
        };
        let text = message::news(platform, &words, &chat.locale, ctx.public_url());
        let (ctx, bots) = (ctx.clone(), bots.clone());
        sending.spawn(async move {
            let outcome = send(&bots, platform, &chat, &text, &retry_key).await;
            record(&ctx, &delivery, &chat, outcome).await
        });
        while sending.len() >= IN_FLIGHT {
            sent += joined(sending.join_next().await);
        }
    }
    while let Some(done) = sending.join_next().await {
        sent += joined(Some(done));
    }
    Ok(sent)
}

fn joined(done: Option<Result<AppResult<bool>, tokio::task::JoinError>>) -> usize {
    match done {
        Some(Ok(Ok(true))) => 1,
        Some(Ok(Err(e))) => {
            tracing::warn!("bot delivery: {e:?}");
            0
        }
        Some(Err(e)) => {
            tracing::error!("bot delivery task: {e}");
            0
        }
        _ => 0,
    }
}

/// Takes a delivery for this server (moving `due_at` forward); gives its retry key (made at the
/// first attempt, kept for every retry). `None`: another server took it.
async fn claim(
    ctx: &Ctx,
    delivery: &bot_delivery::Model,
    platform: Platform,
) -> AppResult<Option<String>> {
    let key = delivery
        .retry_key
        .clone()
        .unwrap_or_else(|| new_retry_key(ctx));
    let mut update = bot_delivery::Entity::update_many()
        .col_expr(bot_delivery::Column::DueAt, Expr::value(ctx.now() + CLAIM))
        .filter(bot_delivery::Column::Id.eq(delivery.id))
        .filter(bot_delivery::Column::DueAt.eq(delivery.due_at))
        .filter(bot_delivery::Column::State.eq("queued"));
    if platform == Platform::Line {
        update = update.col_expr(bot_delivery::Column::RetryKey, Expr::value(key.clone()));
    }
    let taken = update.exec(&ctx.db).await?;
    Ok((taken.rows_affected == 1).then_some(key))
}

/// A random version-4 UUID (the form LINE's retry key must have).
fn new_retry_key(ctx: &Ctx) -> String {
    let mut b = [0u8; 16];
    ctx.random.fill(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// One message to one chat, as the platform answered it.
async fn send(
    bots: &Bots,
    platform: Platform,
    chat: &bot_chat::Model,
    text: &str,
    retry_key: &str,
) -> Outcome {
    match platform {
        Platform::Telegram => {
            let Some(api) = bots.telegram.as_ref() else {
                return Outcome::Failed("the Telegram bot is off".to_owned());
            };
            let out = Outgoing {
                chat_id: &chat.chat_ref,
                thread_id: (chat.thread_id != 0).then_some(chat.thread_id),
                text,
                html: true,
                keyboard: &[],
            };
            match api.send_message(&out).await {
                Ok(_) => Outcome::Sent,
                Err(e) => telegram_outcome(e),
            }
        }
        Platform::Line => {
            let Some(api) = bots.line.as_ref() else {
                return Outcome::Failed("the LINE bot is off".to_owned());
            };
            match api.push(&chat.chat_ref, text, retry_key).await {
                Pushed::Delivered => Outcome::Sent,
                Pushed::Retry(e) => Outcome::Failed(e),
                Pushed::Refused(e) => Outcome::Refused(e),
            }
        }
    }
}

/// Stores how a send ended; true when it was delivered.
async fn record(
    ctx: &Ctx,
    delivery: &bot_delivery::Model,
    chat: &bot_chat::Model,
    outcome: Outcome,
) -> AppResult<bool> {
    let db = &ctx.db;
    let now = ctx.now();
    let attempts = delivery.attempts + 1;
    let update =
        bot_delivery::Entity::update_many().filter(bot_delivery::Column::Id.eq(delivery.id));
    match outcome {
        Outcome::Sent => {
            update
                .col_expr(bot_delivery::Column::State, Expr::value("sent"))
                .col_expr(bot_delivery::Column::SentAt, Expr::value(now))
                .col_expr(bot_delivery::Column::Attempts, Expr::value(attempts))
                .exec(db)
                .await?;
            return Ok(true);
        }
        Outcome::RetryAfter(seconds) => {
            update
                .col_expr(bot_delivery::Column::DueAt, Expr::value(now + seconds))
                .exec(db)
                .await?;
        }
        Outcome::ChatGone(why) => {
            chats::pause_whole(db, &chat.platform, &chat.chat_ref, &why).await?
        }
        Outcome::Moved(new_ref) => {
            chats::moved(db, chat, &new_ref).await?;
            update
                .col_expr(bot_delivery::Column::DueAt, Expr::value(now))
                .exec(db)
                .await?;
        }
        Outcome::Failed(why) if attempts < MAX_ATTEMPTS => {
            tracing::warn!("bot delivery {}: attempt {attempts}: {why}", delivery.id);
            // 30 s, 1 min, 2 min, … in the chat's place.
            update
                .col_expr(bot_delivery::Column::Attempts, Expr::value(attempts))
                .col_expr(
                    bot_delivery::Column::DueAt,
                    Expr::value(now + 30 * (1 << (attempts - 1))),
                )
                .col_expr(bot_delivery::Column::Error, Expr::value(why.clone()))
                .exec(db)
                .await?;
            chats::note_error(db, chat.id, &why).await?;
        }
        Outcome::Failed(why) | Outcome::Refused(why) => {
            tracing::warn!("bot delivery {} given up: {why}", delivery.id);
            update
                .col_expr(bot_delivery::Column::Attempts, Expr::value(attempts))
                .col_expr(bot_delivery::Column::State, Expr::value("failed"))
                .col_expr(bot_delivery::Column::Error, Expr::value(why.clone()))
                .exec(db)
                .await?;
            chats::note_error(db, chat.id, &why).await?;
        }
    }
    Ok(false)
}

/// Ends a queued delivery without sending it: `muted` or `dropped` (its item is gone).
async fn finish(ctx: &Ctx, id: i64, how: &str) -> AppResult<()> {
    bot_delivery::Entity::update_many()
        .col_expr(bot_delivery::Column::State, Expr::value(how))
        .filter(bot_delivery::Column::Id.eq(id))
        .filter(bot_delivery::Column::State.eq("queued"))
        .exec(&ctx.db)
        .await?;
    Ok(())
}

/// Sends for `platform` while this server holds its lease, as long as the server runs.
pub fn spawn(ctx: Ctx, bots: Bots, platform: Platform) {
    tokio::spawn(async move {
        let limits = Arc::new(Limits::of(platform));
        let name = format!("send_{}", platform.name());
        loop {
            let held = lease::hold(&ctx.db, &name, &bots.holder, ctx.now(), LEASE_SECONDS).await;
            let sent = match held {
                Ok(true) => send_round(&ctx, &bots, platform, &limits).await,
                Ok(false) => Ok(0),
                Err(e) => Err(e),
            };
            match sent {
                Ok(0) => {
                    // Nothing to send: until an item is queued here, or a second (another
                    // server's items, retries coming due).
                    let _ =
                        tokio::time::timeout(Duration::from_secs(1), bots.queued.notified()).await;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("{name}: {e:?}");
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
            }
        }
    });
}
