//! `/like/set`: a signed-in reader likes or unlikes a feed item or a comment.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::ok;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::likes::{self, LikeState};
use crate::social::{moderation, spend_write};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/like/set", post(like_set))
}

#[derive(Deserialize, Validate)]
struct LikeRequest {
    kind: String,
    id: i64,
    liked: bool,
}

async fn like_set(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<LikeRequest>,
) -> AppResult<Json<Envelope<LikeState>>> {
    if ![likes::FEED, likes::COMMENT].contains(&req.kind.as_str()) {
        return Err(AppError::invalid("kind must be feed or comment"));
    }
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::LIKES).await?;
    let set = if req.kind == likes::FEED {
        likes::set_feed_like(&state, user.user_id, req.id, req.liked).await?
    } else {
        likes::set_comment_like(&state, user.user_id, req.id, req.liked).await?
    };
    Ok(ok(set))
}
