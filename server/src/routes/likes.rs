//! `/like/set`: a signed-in reader likes or unlikes a feed item.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::ok;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, CurrentUser};
use crate::limits;
use crate::social::likes::{self, LikeState};
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
    ApiJson(req): ApiJson<LikeRequest>,
) -> AppResult<Json<Envelope<LikeState>>> {
    if req.kind != likes::FEED {
        return Err(AppError::invalid("kind must be feed"));
    }
    limits::spend(&state, limits::LIKES, &format!("u:{}", user.user_id)).await?;
    Ok(ok(likes::set_feed_like(
        &state,
        user.user_id,
        req.id,
        req.liked,
    )
    .await?))
}
