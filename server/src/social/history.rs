//! Reading history: the items a signed-in reader opened, one row per item with the latest time,
//! newest first, at most [`KEPT`] per reader.

use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use super::favorites::{KeptItem, kept_items};
use super::marks::ReaderMarks;
use crate::content::feeds::Reading;
use crate::ctx::Ctx;
use crate::entity::reading_history;
use crate::error::AppResult;
use crate::pagination::{Page, parse_pair, split_page};

/// The most items kept per reader; older ones are forgotten.
pub const KEPT: u64 = 1000;

/// Notes that `user_id` opened `feed_id` now.
pub async fn record(ctx: &Ctx, user_id: i64, feed_id: i64) -> AppResult<()> {
    use reading_history::Column as H;
    let now = ctx.now();
    reading_history::Entity::insert(reading_history::ActiveModel {
        user_id: Set(user_id),
        feed_id: Set(feed_id),
        read_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([H::UserId, H::FeedId])
            .update_column(H::ReadAt)
            .to_owned(),
    )
    .exec_without_returning(&ctx.db)
    .await?;
    // Past the cap: the oldest go (the newest-first index finds the cut in one step).
    let cut = reading_history::Entity::find()
        .filter(H::UserId.eq(user_id))
        .order_by_desc(H::ReadAt)
        .order_by_desc(H::Id)
        .offset(KEPT)
        .one(&ctx.db)
        .await?;
    if let Some(cut) = cut {
        reading_history::Entity::delete_many()
            .filter(H::UserId.eq(user_id))
            .filter(
                Condition::any().add(H::ReadAt.lt(cut.read_at)).add(
                    Condition::all()
                        .add(H::ReadAt.eq(cut.read_at))
                        .add(H::Id.lte(cut.id)),
                ),
            )
            .exec(&ctx.db)
            .await?;
    }
    Ok(())
}

pub async fn list(
    ctx: &Ctx,
    readers: &ReaderMarks,
    user_id: i64,
    cursor: Option<&str>,
    limit: u64,
    reading: Reading,
) -> AppResult<Page<KeptItem>> {
    use reading_history::Column as H;
    let mut query = reading_history::Entity::find()
        .filter(H::UserId.eq(user_id))
        .order_by_desc(H::ReadAt)
        .order_by_desc(H::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        let (at, id) = parse_pair(cursor)?;
        query = query.filter(
            Expr::tuple([Expr::col(H::ReadAt).into(), Expr::col(H::Id).into()])
                .lt(Expr::tuple([Expr::value(at), Expr::value(id)])),
        );
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |h| {
        format!("{}.{}", h.read_at, h.id)
    });
    let rows = rows.into_iter().map(|h| (h.feed_id, h.read_at)).collect();
    let list = kept_items(ctx, readers, user_id, rows, reading).await?;
    Ok(Page { list, next_cursor })
}

/// Forgets one item, or (`None`) the whole history.
pub async fn forget(ctx: &Ctx, user_id: i64, feed_id: Option<i64>) -> AppResult<()> {
    let mut delete =
        reading_history::Entity::delete_many().filter(reading_history::Column::UserId.eq(user_id));
    if let Some(feed_id) = feed_id {
        delete = delete.filter(reading_history::Column::FeedId.eq(feed_id));
    }
    delete.exec(&ctx.db).await?;
    Ok(())
}
