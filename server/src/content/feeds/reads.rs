//! Counting reads: one view per reader per item per UTC day.

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set, TryInsertResult};

use crate::ctx::Ctx;
use crate::entity::{feed_item, feed_view};
use crate::error::AppResult;
use crate::time::DAY;

/// Counts a reader's view of item `id`, once per reader per item per UTC day; returns whether
/// this view was counted. `reader` is `u:<user>`, `g:<guest>` or `ip:<client>`.
pub async fn count_view(ctx: &Ctx, id: i64, reader: &str) -> AppResult<bool> {
    let first_today = feed_view::Entity::insert(feed_view::ActiveModel {
        feed_id: Set(id),
        reader: Set(reader.to_owned()),
        day: Set(ctx.now().div_euclid(DAY)),
    })
    .on_conflict(
        OnConflict::columns([
            feed_view::Column::FeedId,
            feed_view::Column::Reader,
            feed_view::Column::Day,
        ])
        .do_nothing()
        .to_owned(),
    )
    .do_nothing()
    .exec(&ctx.db)
    .await?;
    if !matches!(first_today, TryInsertResult::Inserted(_)) {
        return Ok(false);
    }
    feed_item::Entity::update_many()
        .col_expr(
            feed_item::Column::Views,
            Expr::col(feed_item::Column::Views).add(1),
        )
        .filter(feed_item::Column::Id.eq(id))
        .exec(&ctx.db)
        .await?;
    Ok(true)
}

/// View rows of days before yesterday decide nothing any more: the cleanup job removes them.
pub async fn forget_old_views(ctx: &Ctx) -> AppResult<u64> {
    let removed = feed_view::Entity::delete_many()
        .filter(feed_view::Column::Day.lt(ctx.now().div_euclid(DAY) - 1))
        .exec(&ctx.db)
        .await?;
    Ok(removed.rows_affected)
}
