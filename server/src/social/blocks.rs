//! Blocking: a blocker no longer sees the blocked reader's comments, and the blocked reader can
//! no longer reply to, mention or notify the blocker.

use sea_orm::sea_query::{Query, SelectStatement};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use serde::Serialize;

use crate::auth::users::{UserRef, users_by_id};
use crate::ctx::Ctx;
use crate::entity::{block, user};
use crate::error::{AppError, AppResult};
use crate::pagination::{Page, parse_id, split_page};

/// The people `user_id` blocked, for `NOT IN` filters.
pub fn blocked_by(user_id: i64) -> SelectStatement {
    Query::select()
        .column(block::Column::BlockedId)
        .from(block::Entity)
        .and_where(block::Column::UserId.eq(user_id))
        .to_owned()
}

/// Whether `user_id` blocked anyone (their threads then differ from everyone else's).
pub async fn blocks_anyone(ctx: &Ctx, user_id: i64) -> AppResult<bool> {
    Ok(block::Entity::find()
        .filter(block::Column::UserId.eq(user_id))
        .one(&ctx.db)
        .await?
        .is_some())
}

/// Whether `blocker` blocked `user_id`.
pub async fn blocks(ctx: &Ctx, blocker: i64, user_id: i64) -> AppResult<bool> {
    Ok(block::Entity::find()
        .filter(block::Column::UserId.eq(blocker))
        .filter(block::Column::BlockedId.eq(user_id))
        .one(&ctx.db)
        .await?
        .is_some())
}

pub async fn set(ctx: &Ctx, user_id: i64, other: i64, blocked: bool) -> AppResult<()> {
    if other == user_id {
        return Err(AppError::invalid("You cannot block yourself"));
    }
    if blocked {
        if user::Entity::find_by_id(other)
            .one(&ctx.db)
            .await?
            .is_none()
        {
            return Err(AppError::not_found("No such user"));
        }
        let row = block::ActiveModel {
            user_id: Set(user_id),
            blocked_id: Set(other),
            created_at: Set(ctx.now()),
            ..Default::default()
        };
        let key = [block::Column::UserId, block::Column::BlockedId];
        crate::db::insert_once(&ctx.db, row, key).await?;
    } else {
        block::Entity::delete_many()
            .filter(block::Column::UserId.eq(user_id))
            .filter(block::Column::BlockedId.eq(other))
            .exec(&ctx.db)
            .await?;
    }
    Ok(())
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct BlockedUser {
    pub user: UserRef,
    pub blocked_at: i64,
}

/// The people `user_id` blocked, newest first.
pub async fn list(
    ctx: &Ctx,
    user_id: i64,
    cursor: Option<&str>,
    limit: u64,
) -> AppResult<Page<BlockedUser>> {
    let mut query = block::Entity::find()
        .filter(block::Column::UserId.eq(user_id))
        .order_by_desc(block::Column::Id)
        .limit(limit + 1);
    if let Some(cursor) = cursor {
        let id = parse_id(cursor)?;
        query = query.filter(block::Column::Id.lt(id));
    }
    let (rows, next_cursor) = split_page(query.all(&ctx.db).await?, limit, |b| b.id.to_string());
    let users = users_by_id(&ctx.db, rows.iter().map(|b| b.blocked_id)).await?;
    let list = rows
        .into_iter()
        .filter_map(|b| {
            Some(BlockedUser {
                user: users.get(&b.blocked_id)?.clone(),
                blocked_at: b.created_at,
            })
        })
        .collect();
    Ok(Page { list, next_cursor })
}
