//! Hot and rising pages. A feed's newest [`CANDIDATES`] items are scored by client-core's
//! `hot_score` or `rising_score` and the order kept as a ranking row; pages are cut from it, the
//! cursor naming the ranking and the offset, so paging stays stable (no repeats, no gaps) while
//! scores move. A ranking serves every reader of its feed for [`FRESH_SECONDS`], and is kept an
//! hour for those still paging through it.

use std::collections::HashMap;

use client_core::vote::{Signals, hot_score, rising_score};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter,
    QueryOrder, QuerySelect, Set, Statement,
};

use super::feeds::{FeedView, Filter, Reading, Scope, Sort, item_filter, views, vote_counts};
use crate::ctx::Ctx;
use crate::entity::{feed_item, feed_ranking};
use crate::error::{AppError, AppResult};
use crate::pagination::{Page, parse_pair};
use crate::time::HOUR;

/// How many of a feed's newest items a ranking orders.
pub const CANDIDATES: u64 = 500;
/// How long a ranking is served to new readers.
pub const FRESH_SECONDS: i64 = 60;
/// How long a ranking is kept for readers paging through it.
const KEPT_SECONDS: i64 = HOUR;

/// One page of `scope` in hot or rising order.
pub async fn page(
    ctx: &Ctx,
    scope: &Scope,
    filter: &Filter,
    cursor: Option<&str>,
    limit: u64,
    reading: Reading,
) -> AppResult<Page<FeedView>> {
    let key = format!("{scope:?}|{filter:?}");
    let candidates = async {
        Ok(item_filter(feed_item::Entity::find(), scope, filter)
            .order_by_desc(feed_item::Column::PublishedAt)
            .order_by_desc(feed_item::Column::Id)
            .limit(CANDIDATES)
            .all(&ctx.db)
            .await?)
    };
    let (wanted, next_cursor) = cut(ctx, &key, filter.sort, cursor, limit, candidates).await?;
    let mut rows: HashMap<i64, feed_item::Model> = feed_item::Entity::find()
        .filter(feed_item::Column::Id.is_in(wanted.iter().copied()))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|r| (r.id, r))
        .collect();
    // In the ranking's order; an item taken down since is left out.
    let rows = wanted.iter().filter_map(|id| rows.remove(id)).collect();
    Ok(Page {
        list: views(ctx, rows, reading).await?,
        next_cursor,
    })
}

/// The ids of one page of `key`'s ranking in `sort` order, and the cursor of the next: the
/// ranking the cursor names, or the one made for `key` in the last minute, or a new one of
/// `candidates`.
pub async fn cut(
    ctx: &Ctx,
    key: &str,
    sort: Sort,
    cursor: Option<&str>,
    limit: u64,
    candidates: impl Future<Output = AppResult<Vec<feed_item::Model>>>,
) -> AppResult<(Vec<i64>, Option<String>)> {
    let (ranking, offset) = match cursor.filter(|c| !c.is_empty()) {
        Some(cursor) => {
            let (id, offset) = parse_pair(cursor)?;
            let found = feed_ranking::Entity::find_by_id(id)
                .one(&ctx.db)
                .await?
                .ok_or_else(|| AppError::invalid("This list has moved on: load it again"))?;
            (found, offset)
        }
        None => (current(ctx, key, sort, candidates).await?, 0),
    };
    let ids: Vec<i64> = serde_json::from_str(&ranking.ids).map_err(AppError::internal)?;
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(ids.len());
    let end = start
        .saturating_add(usize::try_from(limit).unwrap_or(usize::MAX))
        .min(ids.len());
    let next_cursor = (end < ids.len()).then(|| format!("{}.{end}", ranking.id));
    Ok((ids[start..end].to_vec(), next_cursor))
}

/// `key`'s ranking made in the last minute, or a new one.
async fn current(
    ctx: &Ctx,
    key: &str,
    sort: Sort,
    candidates: impl Future<Output = AppResult<Vec<feed_item::Model>>>,
) -> AppResult<feed_ranking::Model> {
    let now = ctx.now();
    let fresh = feed_ranking::Entity::find()
        .filter(feed_ranking::Column::Key.eq(key))
        .filter(feed_ranking::Column::MadeAt.gt(now - FRESH_SECONDS))
        .order_by_desc(feed_ranking::Column::MadeAt)
        .one(&ctx.db)
        .await?;
    if let Some(fresh) = fresh {
        return Ok(fresh);
    }
    let ids = rank(ctx, &candidates.await?, sort, now).await?;
    Ok(feed_ranking::ActiveModel {
        key: Set(key.to_owned()),
        made_at: Set(now),
        ids: Set(serde_json::to_string(&ids).map_err(AppError::internal)?),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?)
}

#[derive(FromQueryResult)]
struct Recent {
    feed_id: i64,
    what: String,
    n: i64,
}

/// `rows`, best first.
async fn rank(ctx: &Ctx, rows: &[feed_item::Model], sort: Sort, now: i64) -> AppResult<Vec<i64>> {
    let signals = |row: &feed_item::Model| Signals {
        votes: vote_counts(row),
        comments: row.comments,
        likes: row.likes,
        views: row.views,
        important: row.important,
    };
    let hour_ago = match sort {
        Sort::Rising => gained_in_the_hour(ctx, rows, now).await?,
        _ => HashMap::new(),
    };
    let mut scored: Vec<(f64, i64)> = rows
        .iter()
        .map(|row| {
            let age = now - row.published_at;
            let score = match sort {
                Sort::Rising => {
                    let mut then = signals(row);
                    for (what, n) in hour_ago.get(&row.id).into_iter().flatten() {
                        match what.as_str() {
                            "like" => then.likes -= n,
                            "comment" => then.comments -= n,
                            kind => {
                                if let Some(count) = then.votes.of(kind) {
                                    *count -= n;
                                }
                            }
                        }
                    }
                    rising_score(&signals(row), &then, age)
                }
                _ => hot_score(&signals(row), age),
            };
            (score, row.id)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    Ok(scored.into_iter().map(|(_, id)| id).collect())
}

/// What each of `rows` gained in the last hour: likes, comments and votes by kind.
async fn gained_in_the_hour(
    ctx: &Ctx,
    rows: &[feed_item::Model],
    now: i64,
) -> AppResult<HashMap<i64, Vec<(String, i64)>>> {
    if rows.is_empty() {
        return Ok(HashMap::new());
    }
    let list = crate::db::placeholders(2, rows.len());
    let sql = format!(
        "SELECT target_id AS feed_id, 'like' AS what, COUNT(*) AS n FROM likes \
         WHERE kind = 'feed' AND created_at > $1 AND target_id IN ({list}) GROUP BY target_id \
         UNION ALL SELECT subject_id AS feed_id, 'comment' AS what, COUNT(*) AS n FROM comments \
         WHERE subject_kind = 'feed' AND created_at > $1 AND subject_id IN ({list}) \
         GROUP BY subject_id \
         UNION ALL SELECT feed_id, kind AS what, COUNT(*) AS n FROM votes \
         WHERE created_at > $1 AND feed_id IN ({list}) GROUP BY feed_id, kind"
    );
    let mut values: Vec<sea_orm::Value> = vec![(now - HOUR).into()];
    values.extend(rows.iter().map(|r| sea_orm::Value::from(r.id)));
    let found = Recent::find_by_statement(Statement::from_sql_and_values(
        ctx.db.get_database_backend(),
        sql,
        values,
    ))
    .all(&ctx.db)
    .await?;
    let mut gained: HashMap<i64, Vec<(String, i64)>> = HashMap::new();
    for r in found {
        gained.entry(r.feed_id).or_default().push((r.what, r.n));
    }
    Ok(gained)
}

/// Removes rankings no reader can still be paging through, for the cleanup job.
pub async fn forget_old(ctx: &Ctx) -> AppResult<u64> {
    Ok(feed_ranking::Entity::delete_many()
        .filter(feed_ranking::Column::MadeAt.lte(ctx.now() - KEPT_SECONDS))
        .exec(&ctx.db)
        .await?
        .rows_affected)
}
