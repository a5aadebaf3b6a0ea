//! Likes on feed items and comments: the like is a row unique per reader and thing, and the
//! thing's count moves only when a row was really inserted or deleted, so repeating a call, or
//! sending it fifty times at once, changes the count once. A new like on a comment counts in its
//! author's one like message.

use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, Set, Statement,
};
use serde::Serialize;

use super::blocks::blocks;
use super::comments;
use super::messages;
use super::subject::Subject;
use crate::ctx::Ctx;
use crate::entity::{comment, feed_item, like};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use client_core::envelope::ErrorKind;

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct LikeState {
    pub liked: bool,
    pub count: i64,
}

/// Adds or removes `user_id`'s like row; gives whether a row really came or went.
async fn flip(
    db: &impl ConnectionTrait,
    now: i64,
    user_id: i64,
    kind: &str,
    id: i64,
    liked: bool,
) -> AppResult<bool> {
    if liked {
        let row = like::ActiveModel {
            user_id: Set(user_id),
            kind: Set(kind.to_owned()),
            target_id: Set(id),
            created_at: Set(now),
            ..Default::default()
        };
        use like::Column as C;
        Ok(crate::db::insert_once(db, row, [C::UserId, C::Kind, C::TargetId]).await?)
    } else {
        Ok(like::Entity::delete_many()
            .filter(like::Column::UserId.eq(user_id))
            .filter(like::Column::Kind.eq(kind))
            .filter(like::Column::TargetId.eq(id))
            .exec(db)
            .await?
            .rows_affected
            > 0)
    }
}

/// A like of one's own post, comment, question or answer would only inflate it (and pay the
/// answerer in bounty rankings); taking one back is allowed, for likes made before this rule.
fn refuse_own(author: Option<i64>, user_id: i64, liked: bool) -> AppResult<()> {
    if liked && author == Some(user_id) {
        return Err(
            AppError::new(ErrorKind::Forbidden).with_message("You cannot like your own writing")
        );
    }
    Ok(())
}

fn step(liked: bool) -> i64 {
    if liked { 1 } else { -1 }
}

/// Sets whether `user_id` likes feed item `id`; gives the state and the item's count.
pub async fn set_feed_like(ctx: &Ctx, user_id: i64, id: i64, liked: bool) -> AppResult<LikeState> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    let Some(item) = feed_item::Entity::find_by_id(id).one(&txn).await? else {
        return Err(AppError::not_found("No such news item"));
    };
    refuse_own(item.user_id, user_id, liked)?;
    let flipped = flip(&txn, ctx.now(), user_id, like::FEED, id, liked).await?;
    if flipped {
        feed_item::Entity::update_many()
            .col_expr(
                feed_item::Column::Likes,
                Expr::col(feed_item::Column::Likes).add(step(liked)),
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
    ctx.events.publish(&Event::MarksChanged(user_id));
    if flipped {
        ctx.events.publish(&Event::Live(Live::Counts(id)));
    }
    Ok(LikeState { liked, count })
}

/// Sets whether `user_id` likes visible comment `id`; a new like is counted in the author's
/// like message (unless it is their own, or they blocked the liker).
pub async fn set_comment_like(
    ctx: &Ctx,
    user_id: i64,
    id: i64,
    liked: bool,
) -> AppResult<LikeState> {
    let now = ctx.now();
    let found = comments::find_visible(ctx, id).await?;
    refuse_own(Some(found.user_id), user_id, liked)?;
    let tell_author = found.user_id != user_id && !blocks(ctx, found.user_id, user_id).await?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let Some(found) = comments::visible_in(&txn, id).await? else {
        return Err(AppError::not_found("No such comment"));
    };
    let mut told = None;
    if flip(&txn, now, user_id, like::COMMENT, id, liked).await? {
        comment::Entity::update_many()
            .col_expr(
                comment::Column::LikeCount,
                Expr::col(comment::Column::LikeCount).add(step(liked)),
            )
            .filter(comment::Column::Id.eq(id))
            .exec(&txn)
            .await?;
        if liked && tell_author {
            let place = Subject::of(&found).place(&txn).await?;
            messages::liked(&txn, now, found.user_id, user_id, place, id, &found.content).await?;
            told = Some(found.user_id);
        }
    }
    let count = comment::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .map_or(0, |c| c.like_count);
    txn.commit().await?;
    ctx.events.publish(&Event::MarksChanged(user_id));
    messages::notified(ctx, told.map(Some));
    Ok(LikeState { liked, count })
}

#[derive(FromQueryResult)]
struct Count {
    like_count: i64,
    user_id: i64,
}

/// Sets whether `user_id` likes question or answer `id` (`kind`), which count their likes in
/// `like_count`; gives the state and the count.
pub async fn set_qa_like(
    ctx: &Ctx,
    user_id: i64,
    kind: &str,
    id: i64,
    liked: bool,
) -> AppResult<LikeState> {
    let table = match kind {
        like::QUESTION => "questions",
        like::ANSWER => "answers",
        _ => return Err(AppError::invalid("kind must be question or answer")),
    };
    let txn = crate::db::begin_write(&ctx.db).await?;
    let backend = txn.get_database_backend();
    let count = |txn| {
        Count::find_by_statement(Statement::from_sql_and_values(
            backend,
            format!("SELECT like_count, user_id FROM {table} WHERE id = $1"),
            [id.into()],
        ))
        .one(txn)
    };
    let Some(found) = count(&txn).await? else {
        return Err(AppError::not_found(format!("No such {kind}")));
    };
    refuse_own(Some(found.user_id), user_id, liked)?;
    if flip(&txn, ctx.now(), user_id, kind, id, liked).await? {
        txn.execute(Statement::from_sql_and_values(
            backend,
            format!("UPDATE {table} SET like_count = like_count + $1 WHERE id = $2"),
            [step(liked).into(), id.into()],
        ))
        .await?;
    }
    let count = count(&txn).await?.map_or(0, |c| c.like_count);
    txn.commit().await?;
    ctx.events.publish(&Event::MarksChanged(user_id));
    Ok(LikeState { liked, count })
}
