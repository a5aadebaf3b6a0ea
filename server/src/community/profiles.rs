//! Public profiles: what anyone sees of a reader (nickname, avatar, bio, when they joined, their
//! points and what they wrote), and the reader's own changes to it. Nicknames are unique without
//! regard to case, kept so by a unique index, so `@name` names one reader.

use client_core::envelope::ErrorKind;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, EntityTrait, FromQueryResult, PaginatorTrait, QueryFilter, QuerySelect, SqlErr,
};
use serde::Serialize;

use crate::auth::users::nickname_taken;
use crate::entity::{comment, user};
use crate::error::{AppError, AppResult};
use crate::social::comments::VISIBLE;
use crate::state::AppState;

#[derive(Debug, Serialize, ts_rs::TS)]
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
}

#[derive(FromQueryResult)]
struct Total {
    total: Option<i64>,
}

pub async fn profile(state: &AppState, user_id: i64) -> AppResult<ProfileView> {
    let found = user::Entity::find_by_id(user_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such user"))?;
    let visible = || {
        comment::Entity::find()
            .filter(comment::Column::UserId.eq(user_id))
            .filter(comment::Column::State.eq(VISIBLE))
    };
    let comments = visible().count(&state.db).await?;
    let likes = visible()
        .select_only()
        // PostgreSQL sums BIGINTs as NUMERIC: cast back for both databases.
        .column_as(Expr::cust("CAST(SUM(like_count) AS BIGINT)"), "total")
        .into_model::<Total>()
        .one(&state.db)
        .await?
        .and_then(|t| t.total)
        .unwrap_or_default();
    Ok(ProfileView {
        id: found.id,
        nickname: found.nickname,
        avatar: found.avatar,
        bio: found.bio,
        joined: found.created_at,
        points: found.points,
        comments,
        likes_received: likes,
    })
}

/// Changes the reader's nickname and bio (each already checked by client-core's rule; `None`
/// leaves it as it is).
pub async fn update(
    state: &AppState,
    user_id: i64,
    nickname: Option<&str>,
    bio: Option<&str>,
) -> AppResult<ProfileView> {
    let mut update = user::Entity::update_many().filter(user::Column::Id.eq(user_id));
    if let Some(nickname) = nickname.map(str::trim) {
        if nickname_taken(&state.db, nickname, Some(user_id)).await? {
            return Err(ErrorKind::NicknameTaken.into());
        }
        update = update.col_expr(user::Column::Nickname, Expr::value(nickname));
    }
    if let Some(bio) = bio.map(str::trim) {
        update = update.col_expr(user::Column::Bio, Expr::value(bio));
    }
    if nickname.is_some() || bio.is_some() {
        match update.exec(&state.db).await {
            // Two readers asked for the same name at once: the index let one have it.
            Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                return Err(ErrorKind::NicknameTaken.into());
            }
            other => {
                other?;
            }
        }
    }
    profile(state, user_id).await
}
