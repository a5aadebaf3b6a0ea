//! Favorites: feed items a reader keeps for later, newest saved first.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use serde::Serialize;

use super::marks::{self, ReaderMarks};
use crate::content::feeds::{self, FeedView, Reading};
use crate::ctx::Ctx;
use crate::entity::{favorite, feed_item};
use crate::error::{AppError, AppResult};
use crate::events::Event;
use crate::pagination::{Page, parse_id, split_page};

pub async fn set(ctx: &Ctx, user_id: i64, feed_id: i64, favorited: bool) -> AppResult<()> {
    if favorited {
        if feed_item::Entity::find_by_id(feed_id)
            .one(&ctx.db)
            .await?
            .is_none()
        {
            return Err(AppError::not_found("No such news item"));
        }
        let row = favorite::ActiveModel {
            user_id: Set(user_id),
            feed_id: Set(feed_id),
            created_at: Set(ctx.now()),
            ..Default::default()
        };
        let key = [favorite::Column::UserId, favorite::Column::FeedId];
        crate::db::insert_once(&ctx.db, row, key).await?;
    } else {
        favorite::Entity::delete_many()
            .filter(favorite::Column::UserId.eq(user_id))
            .filter(favorite::Column::FeedId.eq(feed_id))
            .exec(&ctx.db)
            .await?;
    }
    ctx.events.publish(&Event::MarksChanged(user_id));
    Ok(())
}

/// A kept or read item, with when.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct KeptItem {
    pub at: i64,
    pub item: FeedView,
}

/// Items for `(feed_id, at)` rows, in their order, marked for the reader.
pub async fn kept_items(
    ctx: &Ctx,
    readers: &ReaderMarks,
    user_id: i64,
    rows: Vec<(i64, i64)>,
    reading: Reading,
) -> AppResult<Vec<KeptItem>> {
    let ids: Vec<i64> = rows.iter().map(|(id, _)| *id).collect();
    let items = feed_item::Entity::find()
        .filter(feed_item::Column::Id.is_in(ids))
        .all(&ctx.db)
        .await?;
    let mut views = feeds::views(ctx, items, reading).await?;
    marks::mark(ctx, readers, user_id, &mut views).await?;
    let mut by_id: std::collections::HashMap<i64, FeedView> =
        views.into_iter().map(|v| (v.id, v)).collect();
    Ok(rows
        .into_iter()
        .filter_map(|(id, at)| {
            Some(KeptItem {
                at,
                item: by_id.remove(&id)?,
            })
        })
        .collect())
}

pub async fn list(
    ctx: &Ctx,
    readers: &ReaderMarks,
    user_id: i64,
    cursor: Option<&str>,
    limit: u64,
    reading: Reading,
) -> AppResult<Page<KeptItem>> {
    let mut query = favorite::Entity::find()
        .filter(favorite::Column::UserId.eq(user_id))
        .order_by_desc(favorite::Column::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        let id = parse_id(cursor)?;
        query = query.filter(favorite::Column::Id.lt(id));
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |f| f.id.to_string());
    let rows = rows
        .into_iter()
        .map(|f| (f.feed_id, f.created_at))
        .collect();
    let list = kept_items(ctx, readers, user_id, rows, reading).await?;
    Ok(Page { list, next_cursor })
}
