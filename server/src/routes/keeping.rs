//! What a reader keeps: favorites, and the history of what they read.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::feeds::reading;
use super::{PageRequest, ok};
use crate::error::AppResult;
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::limits;
use crate::pagination::Page;
use crate::social::favorites::{self, KeptItem};
use crate::social::{history, spend_write};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/favorite/set", post(favorite_set))
        .api_route("/favorite/list", post(favorite_list))
        .api_route("/history/list", post(history_list))
        .api_route("/history/del", post(history_del))
        .api_route("/history/clear", post(history_clear))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct FavoriteRequest {
    feed_id: i64,
    favorited: bool,
}

#[derive(schemars::JsonSchema, serde::Serialize)]
struct Favorited {
    favorited: bool,
}

async fn favorite_set(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<FavoriteRequest>,
) -> AppResult<Json<Envelope<Favorited>>> {
    spend_write(&state, &user, &client, limits::KEEPING).await?;
    favorites::set(&state, user.user_id, req.feed_id, req.favorited).await?;
    Ok(ok(Favorited {
        favorited: req.favorited,
    }))
}

async fn favorite_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    user: CurrentUser,
    ApiJson(req): ApiJson<PageRequest>,
) -> AppResult<Json<Envelope<Page<KeptItem>>>> {
    let reading = reading(&caller, &client);
    let page = favorites::list(
        &state,
        &state.marks,
        user.user_id,
        req.cursor(),
        req.limit(),
        reading,
    )
    .await?;
    Ok(ok(page))
}

async fn history_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    user: CurrentUser,
    ApiJson(req): ApiJson<PageRequest>,
) -> AppResult<Json<Envelope<Page<KeptItem>>>> {
    let reading = reading(&caller, &client);
    let page = history::list(
        &state,
        &state.marks,
        user.user_id,
        req.cursor(),
        req.limit(),
        reading,
    )
    .await?;
    Ok(ok(page))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct HistoryDelRequest {
    feed_id: i64,
}

async fn history_del(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<HistoryDelRequest>,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::KEEPING).await?;
    history::forget(&state, user.user_id, Some(req.feed_id)).await?;
    Ok(ok(()))
}

async fn history_clear(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::KEEPING).await?;
    history::forget(&state, user.user_id, None).await?;
    Ok(ok(()))
}
