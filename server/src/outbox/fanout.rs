//! Queuing an item for every chat that subscribed to it, in the transaction that stores the
//! item: one INSERT … SELECT, so 10,000 chats cost one statement, and the unique (chat, item)
//! index makes a second queuing of the same item (an update, another server) a no-op. A chat
//! linked to an account gets only items written in, or translated into, its "Languages I read".
//! The same transaction queues the item for readers' alerts (`alert_jobs`).

use client_core::feed::POST_KIND;
use sea_orm::{ConnectionTrait, Statement};

use crate::error::AppResult;

/// Items older than this when they arrive (an RSS source's backlog) are not pushed.
pub const FRESH_SECONDS: i64 = 24 * 60 * 60;

/// What of a new item decides who receives it.
pub struct NewItem<'a> {
    pub id: i64,
    pub kind: &'a str,
    pub important: bool,
    pub channel_id: Option<i64>,
    pub kol_id: Option<i64>,
    pub published_at: i64,
}

// `$n` placeholders: PostgreSQL's, and SQLite reads `$n` as the n-th value too.
const QUEUE: &str = "INSERT INTO bot_deliveries (chat_id, feed_id, state, created_at, due_at, attempts) \
     SELECT c.id, $1, 'queued', $2, $2, 0 FROM bot_chats c \
     WHERE c.state = 'active' AND EXISTS (SELECT 1 FROM bot_subscriptions s WHERE s.chat_id = c.id AND ( \
       s.target IN ($3, $4, $5) OR ($8 = 'community' AND s.target = 'community') \
       OR ($8 = 'news' AND s.target = 'channel' AND s.target_id = $6) \
       OR ($8 = 'news' AND s.target IN ('tag', 'token') AND EXISTS (SELECT 1 FROM feed_links l \
           WHERE l.feed_id = $1 AND l.kind = s.target AND l.target_id = s.target_id)) \
       OR ($8 = 'news' AND s.target = 'following' AND c.user_id IS NOT NULL AND EXISTS (SELECT 1 FROM follows f \
           WHERE f.user_id = c.user_id AND ((f.kind = 'kol' AND f.target_id = $7) \
             OR (f.kind <> 'kol' AND EXISTS (SELECT 1 FROM feed_links l \
                 WHERE l.feed_id = $1 AND l.kind = f.kind AND l.target_id = f.target_id))))))) \
     AND (c.user_id IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND ( \
       ',' || u.read_langs || ',' LIKE '%,' || (SELECT i.lang FROM feed_items i WHERE i.id = $1) || ',%' \
       OR EXISTS (SELECT 1 FROM feed_translations t \
           WHERE t.feed_id = $1 AND ',' || u.read_langs || ',' LIKE '%,' || t.locale || ',%')))) \
     ON CONFLICT (chat_id, feed_id) DO NOTHING";

/// Queues `item` (stored in this transaction, links included) for its subscribers; returns
/// how many chats it was queued for.
pub async fn queue(db: &impl ConnectionTrait, item: &NewItem<'_>, now: i64) -> AppResult<u64> {
    if item.published_at < now - FRESH_SECONDS {
        return Ok(0);
    }
    // The targets every item of this kind and importance matches ('' matches none).
    let general = |on: bool, name: &str| if on { name } else { "" }.to_owned();
    let values: Vec<sea_orm::Value> = vec![
        item.id.into(),
        now.into(),
        general(item.important, "important").into(),
        general(item.kind == "flash", "news").into(),
        general(item.kind == "article", "articles").into(),
        item.channel_id.unwrap_or(-1).into(),
        item.kol_id.unwrap_or(-1).into(),
        // Readers' posts reach only chats that asked for `community`; news, every other target.
        if item.kind == POST_KIND {
            "community"
        } else {
            "news"
        }
        .into(),
    ];
    let backend = db.get_database_backend();
    let done = db
        .execute(Statement::from_sql_and_values(backend, QUEUE, values))
        .await?;
    // And for the readers whose alerts may match it (`alerts::deliver`).
    db.execute(Statement::from_sql_and_values(
        backend,
        "INSERT INTO alert_jobs (feed_id, created_at) VALUES ($1, $2) ON CONFLICT (feed_id) DO NOTHING",
        [item.id.into(), now.into()],
    ))
    .await?;
    Ok(done.rows_affected())
}

/// Item `feed_id` was taken down: what is still queued for it (chats, alerts) is dropped, in
/// `db`'s transaction.
pub async fn withdraw(db: &impl ConnectionTrait, feed_id: i64) -> AppResult<()> {
    for sql in [
        "UPDATE bot_deliveries SET state = 'dropped' WHERE feed_id = $1 AND state = 'queued'",
        "DELETE FROM alert_jobs WHERE feed_id = $1",
        "UPDATE alert_deliveries SET state = 'dropped' WHERE feed_id = $1 AND state = 'queued'",
    ] {
        db.execute(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            [feed_id.into()],
        ))
        .await?;
    }
    Ok(())
}
