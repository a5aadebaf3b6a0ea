//! `/like/set`: a signed-in reader likes or unlikes a feed item, a comment, a question or an
//! answer.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::ok;
use crate::entity::like;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::likes::{self, LikeState};
use crate::social::{moderation, spend_write};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new().api_route("/like/set", post(like_set))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
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
    if !like::KINDS.contains(&req.kind.as_str()) {
        return Err(AppError::invalid(format!(
            "kind must be one of {}",
            like::KINDS.join(", ")
        )));
    }
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::LIKES).await?;
    let set = match req.kind.as_str() {
        like::FEED => likes::set_feed_like(&state, user.user_id, req.id, req.liked).await?,
        like::COMMENT => likes::set_comment_like(&state, user.user_id, req.id, req.liked).await?,
        kind => likes::set_qa_like(&state, user.user_id, kind, req.id, req.liked).await?,
    };
    Ok(ok(set))
}
