//! Bans: the team stops an account from writing for a time (`community::reports` takes down
//! what it wrote). A banned reader still reads.

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set};
use serde_json::json;

use crate::ctx::Ctx;
use crate::entity::{user, user_ban};
use crate::error::{AppError, AppResult};

/// The longest reason a report or a moderator gives.
pub const REASON_MAX_CHARS: u64 = 500;

/// Refuses a banned user's writes, saying until when.
pub async fn ensure_not_banned(ctx: &Ctx, user_id: i64) -> AppResult<()> {
    let ban = user_ban::Entity::find_by_id(user_id)
        .filter(user_ban::Column::Until.gt(ctx.now()))
        .one(&ctx.db)
        .await?;
    match ban {
        Some(ban) => Err(AppError::new(ErrorKind::Banned).with_data(json!({ "until": ban.until }))),
        None => Ok(()),
    }
}

/// Bans `user_id` from commenting, liking and reporting until `until` (a time already past
/// lifts the ban).
pub async fn ban(ctx: &Ctx, user_id: i64, until: i64, reason: &str) -> AppResult<()> {
    if user::Entity::find_by_id(user_id)
        .one(&ctx.db)
        .await?
        .is_none()
    {
        return Err(AppError::not_found("No such user"));
    }
    if until <= ctx.now() {
        user_ban::Entity::delete_by_id(user_id)
            .exec(&ctx.db)
            .await?;
        return Ok(());
    }
    user_ban::Entity::insert(user_ban::ActiveModel {
        user_id: Set(user_id),
        until: Set(until),
        reason: Set(reason.to_owned()),
        created_at: Set(ctx.now()),
    })
    .on_conflict(
        OnConflict::column(user_ban::Column::UserId)
            .update_columns([
                user_ban::Column::Until,
                user_ban::Column::Reason,
                user_ban::Column::CreatedAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(&ctx.db)
    .await?;
    Ok(())
}
