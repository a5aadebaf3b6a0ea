//! Public profiles: what anyone sees of a reader (nickname, avatar, bio, when they joined, their
//! points, what they wrote and who follows them), and the reader's own changes to it. Nicknames are unique without
//! regard to case, kept so by a unique index, so `@name` names one reader.

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter,
    QuerySelect, SqlErr,
};
use serde::Serialize;

use crate::auth::users::{generated_nickname, nickname_taken, set_nickname};
use crate::content::follows::Target;
use crate::ctx::Ctx;
use crate::entity::{answer, comment, feed_item, follow, user};
use crate::error::{AppError, AppResult};
use crate::social::comments::VISIBLE;

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct ProfileView {
    pub id: i64,
    pub nickname: String,
    pub avatar: String,
    pub bio: String,
    pub joined: i64,
    pub points: i64,
    /// Visible comments, and the likes they received.
    pub comments: u64,
    pub likes_received: i64,
    pub posts: u64,
    pub answers: u64,
    /// Readers who follow them, and the readers they follow.
    pub followers: u64,
    pub following: u64,
}

#[derive(FromQueryResult)]
struct Total {
    total: Option<i64>,
}

pub async fn profile(ctx: &Ctx, user_id: i64) -> AppResult<ProfileView> {
    let found = user::Entity::find_by_id(user_id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such user"))?;
    let visible = || {
        comment::Entity::find()
            .filter(comment::Column::UserId.eq(user_id))
            .filter(comment::Column::State.eq(VISIBLE))
    };
    let comments = visible().count(&ctx.db).await?;
    let likes = visible()
        .select_only()
        // PostgreSQL sums BIGINTs as NUMERIC: cast back for both databases.
        .column_as(Expr::cust("CAST(SUM(like_count) AS BIGINT)"), "total")
        .into_model::<Total>()
        .one(&ctx.db)
        .await?
        .and_then(|t| t.total)
        .unwrap_or_default();
    let posts = feed_item::Entity::find()
        .filter(feed_item::Column::UserId.eq(user_id))
        .count(&ctx.db)
        .await?;
    let answers = answer::Entity::find()
        .filter(answer::Column::UserId.eq(user_id))
        .count(&ctx.db)
        .await?;
    let people = || follow::Entity::find().filter(follow::Column::Kind.eq(Target::User.kind()));
    let followers = people()
        .filter(follow::Column::TargetId.eq(user_id))
        .count(&ctx.db)
        .await?;
    let following = people()
        .filter(follow::Column::UserId.eq(user_id))
        .count(&ctx.db)
        .await?;
    Ok(ProfileView {
        id: found.id,
        nickname: found.nickname,
        avatar: found.avatar,
        bio: found.bio,
        joined: found.created_at,
        points: found.points,
        comments,
        likes_received: likes,
        posts,
        answers,
        followers,
        following,
    })
}

/// What a reader changes of their profile; `None` leaves it as it is.
pub struct ProfileChange<'a> {
    /// Already checked by client-core's nickname rule.
    pub nickname: Option<&'a str>,
    /// Already checked by client-core's bio rule.
    pub bio: Option<&'a str>,
    /// An image this reader uploaded here, or empty for none.
    pub avatar: Option<&'a str>,
}

/// Changes the reader's profile.
pub async fn update(ctx: &Ctx, user_id: i64, change: ProfileChange<'_>) -> AppResult<ProfileView> {
    let ProfileChange {
        nickname,
        bio,
        avatar,
    } = change;
    let mut update = user::Entity::update_many().filter(user::Column::Id.eq(user_id));
    if let Some(nickname) = nickname.map(str::trim) {
        if nickname_taken(&ctx.db, nickname, Some(user_id)).await? {
            return Err(ErrorKind::NicknameTaken.into());
        }
        update = set_nickname(update, nickname);
    }
    if let Some(bio) = bio.map(str::trim) {
        update = update.col_expr(user::Column::Bio, Expr::value(bio));
    }
    if let Some(avatar) = avatar.map(str::trim) {
        if !avatar.is_empty() {
            crate::uploads::attach_issued(ctx, &[avatar.to_owned()], Some(user_id)).await?;
        }
        update = update.col_expr(user::Column::Avatar, Expr::value(avatar));
    }
    if nickname.is_some() || bio.is_some() || avatar.is_some() {
        match update.exec(&ctx.db).await {
            // Two readers asked for the same name at once: the index let one have it.
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(ErrorKind::NicknameTaken.into());
            }
            other => {
                other?;
            }
        }
    }
    profile(ctx, user_id).await
}

/// Reader `user_id`'s profile as it shows now (nickname, bio, avatar), or `NotFound`.
pub async fn shown(db: &impl ConnectionTrait, user_id: i64) -> AppResult<(i64, String)> {
    let found = user::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or_else(|| AppError::not_found("No such user"))?;
    let shown = [found.nickname, found.bio, found.avatar];
    Ok((user_id, shown.join("\n")))
}

/// Resets a reported profile, in `txn`: a generated nickname, no bio, no avatar.
pub async fn reset(ctx: &Ctx, txn: &impl ConnectionTrait, user_id: i64) -> AppResult<()> {
    set_nickname(user::Entity::update_many(), &generated_nickname(ctx))
        .col_expr(user::Column::Bio, Expr::value(""))
        .col_expr(user::Column::Avatar, Expr::value(""))
        .filter(user::Column::Id.eq(user_id))
        .exec(txn)
        .await?;
    Ok(())
}
