//! The stream's log: every live event under the id streams send, kept at least `KEEP_SECONDS`
//! and at least the newest `KEEP_EVENTS`, so a reader who reconnects to any server gets what
//! they missed.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use crate::ctx::Ctx;
use crate::entity::stream_event;
use crate::error::AppResult;
use crate::events::Live;

pub const KEEP_SECONDS: i64 = 10 * 60;
pub const KEEP_EVENTS: i64 = 1000;

/// At most this many events are sent again on one reconnect; a reader further behind refetches.
const REPLAY_MAX: u64 = 2 * KEEP_EVENTS as u64;

/// Writes `live` to the log; gives its id.
pub async fn append(ctx: &Ctx, live: Live) -> AppResult<i64> {
    let (kind, feed_id, target_id) = live.parts();
    let row = stream_event::ActiveModel {
        kind: Set(kind.to_owned()),
        feed_id: Set(feed_id),
        target_id: Set(target_id),
        created_at: Set(ctx.now()),
        ..Default::default()
    }
    .insert(&ctx.db)
    .await?;
    Ok(row.id)
}

/// Forgets events older than `KEEP_SECONDS`, keeping the newest `KEEP_EVENTS` whatever their
/// age (and always the newest, so the log knows where it stands).
pub async fn trim(ctx: &Ctx) -> AppResult<u64> {
    let Some(newest) = newest(ctx).await? else {
        return Ok(0);
    };
    let gone = stream_event::Entity::delete_many()
        .filter(stream_event::Column::CreatedAt.lt(ctx.now() - KEEP_SECONDS))
        .filter(stream_event::Column::Id.lte(newest - KEEP_EVENTS))
        .exec(&ctx.db)
        .await?;
    Ok(gone.rows_affected)
}

/// The oldest and newest ids the log holds (`None` when it is empty).
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub oldest: Option<i64>,
    pub newest: Option<i64>,
}

pub async fn bounds(ctx: &Ctx) -> AppResult<Bounds> {
    let (oldest, newest) = stream_event::Entity::find()
        .select_only()
        .column_as(stream_event::Column::Id.min(), "oldest")
        .column_as(stream_event::Column::Id.max(), "newest")
        .into_tuple::<(Option<i64>, Option<i64>)>()
        .one(&ctx.db)
        .await?
        .unwrap_or_default();
    Ok(Bounds { oldest, newest })
}

/// The newest event's id.
pub async fn newest(ctx: &Ctx) -> AppResult<Option<i64>> {
    Ok(bounds(ctx).await?.newest)
}

/// What a reader who last saw `last` missed, the log being within `bounds`: `None` when the log
/// no longer holds all of it (the reader refetches instead).
pub async fn since(ctx: &Ctx, bounds: Bounds, last: i64) -> AppResult<Option<Vec<(i64, Live)>>> {
    match (bounds.oldest, bounds.newest) {
        // Nothing was ever logged: nothing was missed.
        (None, _) | (_, None) if last == 0 => return Ok(Some(Vec::new())),
        (Some(oldest), Some(newest)) if last + 1 >= oldest && last <= newest => {}
        _ => return Ok(None),
    }
    let rows = stream_event::Entity::find()
        .filter(stream_event::Column::Id.gt(last))
        .order_by_asc(stream_event::Column::Id)
        .limit(REPLAY_MAX + 1)
        .all(&ctx.db)
        .await?;
    if rows.len() as u64 > REPLAY_MAX {
        return Ok(None);
    }
    Ok(Some(
        rows.into_iter()
            .filter_map(|r| Some((r.id, Live::from_parts(&r.kind, r.feed_id, r.target_id)?)))
            .collect(),
    ))
}
