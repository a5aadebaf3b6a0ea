//! Public profiles: anyone reads one; a reader changes their own.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use client_core::envelope::Envelope;
use client_core::validation;
use serde::Deserialize;
use validator::Validate;

use super::ok;
use crate::community::profiles::{self, ProfileView};
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/user/profile", post(profile))
        .route("/user/profile/update", post(update))
}

#[derive(Deserialize, Validate)]
struct ProfileRequest {
    user_id: i64,
}

async fn profile(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ProfileRequest>,
) -> AppResult<Json<Envelope<ProfileView>>> {
    Ok(ok(profiles::profile(&state, req.user_id).await?))
}

#[derive(Deserialize, Validate, Default)]
#[serde(default)]
struct UpdateRequest {
    #[validate(custom(function = "validation::nickname"))]
    nickname: Option<String>,
    #[validate(custom(function = "validation::bio"))]
    bio: Option<String>,
}

async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<UpdateRequest>,
) -> AppResult<Json<Envelope<ProfileView>>> {
    spend_write(&state, &user, &client, limits::PROFILE_UPDATES).await?;
    let (nickname, bio) = (req.nickname.as_deref(), req.bio.as_deref());
    Ok(ok(
        profiles::update(&state, user.user_id, nickname, bio).await?
    ))
}
