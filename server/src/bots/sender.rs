//! Sending what `fanout` queued, one platform per sender. Only the server holding the
//! platform's sending lease sends, so the platform's limits are kept across servers; each
//! delivery is still taken by a conditional UPDATE before it is sent, so a lease that changes
//! hands mid-send never sends one twice. A chat gets its items in order: only its oldest queued
//! item is ever tried, and a retry waits in its place.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect, Statement,
};
use tokio::task::JoinSet;

use super::line_api::Pushed;
use super::telegram_api::{ApiError, Outgoing};
use super::{Platform, chats, message};
use crate::bots::Bots;
use crate::ctx::Ctx;
use crate::entity::{bot_chat, bot_delivery};
use crate::error::AppResult;
use crate::lease;

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
/// Items one digest lists at most.
const DIGEST_ITEMS: u64 = 30;

/// A platform's published limits, kept in memory by the lease holder.
pub struct Limits {
    all: DefaultDirectRateLimiter,
    /// Keyed by the platform's chat: a forum's topics are rows of their own but one chat to
    /// Telegram, and share its limits.
    per_chat: Option<DefaultKeyedRateLimiter<String>>,
    per_group: Option<DefaultKeyedRateLimiter<String>>,
}

fn per_second(n: u32) -> Quota {
    // Evenly spaced (no burst): a sliding one-second window never holds more than `n`.
    Quota::per_second(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)).allow_burst(NonZeroU32::MIN)
}

impl Limits {
    pub fn of(platform: Platform) -> Self {
        match platform {
            // 30 messages a second in all, 1 a second to one chat, 20 a minute to one group;
            // command replies keep 5 a second of the 30 (`TELEGRAM_REPLIES_PER_SECOND`).
            Platform::Telegram => Self {
                all: RateLimiter::direct(per_second(25)),
                per_chat: Some(RateLimiter::keyed(per_second(1))),
                per_group: Some(RateLimiter::keyed(
                    Quota::with_period(Duration::from_secs(3))
                        .unwrap_or_else(|| per_second(1))
                        .allow_burst(NonZeroU32::MIN),
                )),
            },
            // LINE publishes 2,000 requests a second for pushes; 100 keeps far below it.
            Platform::Line => Self {
                all: RateLimiter::direct(per_second(100)),
                per_chat: None,
                per_group: None,
            },
        }
    }

    /// Whether `chat` may get a message now; counts it when it may.
    fn allows(&self, chat: &bot_chat::Model) -> bool {
        let group = matches!(chat.kind.as_str(), "group" | "supergroup");
        self.per_chat
            .as_ref()
            .is_none_or(|l| l.check_key(&chat.chat_ref).is_ok())
            && (!group
                || self
                    .per_group
                    .as_ref()
                    .is_none_or(|l| l.check_key(&chat.chat_ref).is_ok()))
    }
}

/// How one send ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    /// Too many requests: try again after this many seconds, in the chat's place.
    RetryAfter(i64),
    /// The bot may no longer write there (blocked, kicked, chat not found).
    ChatGone(String),
    /// A group became a supergroup with this id.
    Moved(String),
    /// Worth trying again with backoff.
    Failed(String),
    /// Not worth trying again.
    Refused(String),
}

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
        limits.all.until_ready().await;
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

/// What a Telegram error means for the chat (the Bot API's documented answers).
pub fn telegram_outcome(error: ApiError) -> Outcome {
    match error {
        ApiError::Refused {
            migrate_to_chat_id: Some(id),
            ..
        } => Outcome::Moved(id.to_string()),
        ApiError::Refused {
            code: 429,
            retry_after,
            ..
        } => Outcome::RetryAfter(retry_after.unwrap_or(5).clamp(1, 3600) as i64),
        ApiError::Refused {
            code: 403,
            description,
            ..
        } => Outcome::ChatGone(description),
        ApiError::Refused {
            code: 400,
            description,
            ..
        } if description.to_lowercase().contains("chat not found") => {
            Outcome::ChatGone(description)
        }
        ApiError::Refused {
            code, description, ..
        } if (400..500).contains(&code) => Outcome::Refused(format!("{code} {description}")),
        other => Outcome::Failed(other.to_string()),
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

/// Digest chats whose hour or day has passed get one message listing what was queued for them.
async fn send_digests(
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
        limits.all.until_ready().await;
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
