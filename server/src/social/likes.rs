//! Liking a feed item: the like is a row unique per reader and item, and the item's count moves
//! only when a row was really inserted or deleted, so repeating a call, or sending it fifty times
//! at once, changes the count once.

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set, TryInsertResult};
use serde::Serialize;

use crate::entity::{feed_item, like};
use crate::error::{AppError, AppResult};
use crate::state::AppState;

/// What can be liked.
pub const FEED: &str = "feed";

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct LikeState {
    pub liked: bool,
    pub count: i64,
}

/// Sets whether `user_id` likes feed item `id`; gives the state and the item's count.
pub async fn set_feed_like(
    state: &AppState,
    user_id: i64,
    id: i64,
    liked: bool,
) -> AppResult<LikeState> {
    let txn = crate::db::begin_write(&state.db).await?;
    if feed_item::Entity::find_by_id(id).one(&txn).await?.is_none() {
        return Err(AppError::new(ErrorKind::NotFound).with_message("No such news item"));
    }
    let changed = if liked {
        let inserted = like::Entity::insert(like::ActiveModel {
            user_id: Set(user_id),
            kind: Set(FEED.to_owned()),
            target_id: Set(id),
            created_at: Set(state.now()),
            ..Default::default()
        })
        .on_conflict(
            OnConflict::columns([
                like::Column::UserId,
                like::Column::Kind,
                like::Column::TargetId,
            ])
            .do_nothing()
            .to_owned(),
        )
        .do_nothing()
        .exec(&txn)
        .await?;
        matches!(inserted, TryInsertResult::Inserted(_))
    } else {
        like::Entity::delete_many()
            .filter(like::Column::UserId.eq(user_id))
            .filter(like::Column::Kind.eq(FEED))
            .filter(like::Column::TargetId.eq(id))
            .exec(&txn)
            .await?
            .rows_affected
            > 0
    };
    if changed {
        let step = if liked { 1 } else { -1 };
        feed_item::Entity::update_many()
            .col_expr(
                feed_item::Column::Likes,
                Expr::col(feed_item::Column::Likes).add(step),
            )
            .filter(feed_item::Column::Id.eq(id))
            .exec(&txn)
            .await?;
    }
    let count = feed_item::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .map_or(0, |f| f.likes);
    txn.commit().await?;
    if changed {
        state.content_changed();
    }
    Ok(LikeState { liked, count })
}

/// Whether `user_id` likes feed item `id`.
pub async fn likes_feed(state: &AppState, user_id: i64, id: i64) -> AppResult<bool> {
    Ok(like::Entity::find()
        .filter(like::Column::UserId.eq(user_id))
        .filter(like::Column::Kind.eq(FEED))
        .filter(like::Column::TargetId.eq(id))
        .one(&state.db)
        .await?
        .is_some())
}
