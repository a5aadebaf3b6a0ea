//! Following tags and KOLs.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{List, ok};
use crate::content::catalogue::{self, KolView, TagView};
use crate::content::follows::{self, Target};
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tag/follow/list", post(tag_follow_list))
        .route("/tag/follow/add", post(tag_follow_add))
        .route("/tag/follow/del", post(tag_follow_del))
        .route("/tag/follow/status", post(tag_follow_status))
        .route("/user/follow/list", post(kol_follow_list))
        .route("/user/follow/add", post(kol_follow_add))
        .route("/user/follow/del", post(kol_follow_del))
}

#[derive(Deserialize, Validate)]
struct TagIdRequest {
    tag_id: i64,
}

#[derive(Deserialize, Validate)]
struct KolIdRequest {
    kol_id: i64,
}

#[derive(Serialize)]
struct Following {
    following: bool,
}

async fn tag_follow_list(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<TagView>>>> {
    let ids = follows::followed_ids(&state, me.user_id, Target::Tag).await?;
    let list = catalogue::tags_by_ids(&state, &ids, client.locale).await?;
    Ok(ok(List { list }))
}

async fn tag_follow_add(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<TagIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::add(&state, me.user_id, Target::Tag, req.tag_id).await?;
    Ok(ok(Following { following: true }))
}

async fn tag_follow_del(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<TagIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::remove(&state, me.user_id, Target::Tag, req.tag_id).await?;
    Ok(ok(Following { following: false }))
}

async fn tag_follow_status(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<TagIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    let following = follows::is_following(&state, me.user_id, Target::Tag, req.tag_id).await?;
    Ok(ok(Following { following }))
}

async fn kol_follow_list(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<KolView>>>> {
    let ids = follows::followed_ids(&state, me.user_id, Target::Kol).await?;
    let list = catalogue::kols_by_ids(&state, &ids, client.locale).await?;
    Ok(ok(List { list }))
}

async fn kol_follow_add(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<KolIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::add(&state, me.user_id, Target::Kol, req.kol_id).await?;
    Ok(ok(Following { following: true }))
}

async fn kol_follow_del(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<KolIdRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::remove(&state, me.user_id, Target::Kol, req.kol_id).await?;
    Ok(ok(Following { following: false }))
}
