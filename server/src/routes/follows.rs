//! Following tags, tokens, topics and KOLs: one add, del and status handler for every kind,
//! told apart by the request's id field.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use client_core::envelope::Envelope;
use serde::de::DeserializeOwned;
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
        .route("/tag/follow/add", post(follow_add::<TagIdRequest>))
        .route("/tag/follow/del", post(follow_del::<TagIdRequest>))
        .route("/tag/follow/status", post(follow_status::<TagIdRequest>))
        .route("/token/follow/add", post(follow_add::<TokenIdRequest>))
        .route("/token/follow/del", post(follow_del::<TokenIdRequest>))
        .route(
            "/token/follow/status",
            post(follow_status::<TokenIdRequest>),
        )
        .route("/topic/follow/add", post(follow_add::<TopicIdRequest>))
        .route("/topic/follow/del", post(follow_del::<TopicIdRequest>))
        .route(
            "/topic/follow/status",
            post(follow_status::<TopicIdRequest>),
        )
        .route("/user/follow/list", post(kol_follow_list))
        .route("/user/follow/add", post(follow_add::<KolIdRequest>))
        .route("/user/follow/del", post(follow_del::<KolIdRequest>))
}

/// A request naming one thing to follow: which kind, and its id.
trait FollowRequest: DeserializeOwned + Validate + Send + 'static {
    const TARGET: Target;
    fn id(&self) -> i64;
}

#[derive(Deserialize, Validate)]
struct TagIdRequest {
    tag_id: i64,
}

#[derive(Deserialize, Validate)]
struct TokenIdRequest {
    token_id: i64,
}

#[derive(Deserialize, Validate)]
struct TopicIdRequest {
    topic_id: i64,
}

#[derive(Deserialize, Validate)]
struct KolIdRequest {
    kol_id: i64,
}

impl FollowRequest for TagIdRequest {
    const TARGET: Target = Target::Tag;
    fn id(&self) -> i64 {
        self.tag_id
    }
}

impl FollowRequest for TokenIdRequest {
    const TARGET: Target = Target::Token;
    fn id(&self) -> i64 {
        self.token_id
    }
}

impl FollowRequest for TopicIdRequest {
    const TARGET: Target = Target::Topic;
    fn id(&self) -> i64 {
        self.topic_id
    }
}

impl FollowRequest for KolIdRequest {
    const TARGET: Target = Target::Kol;
    fn id(&self) -> i64 {
        self.kol_id
    }
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

async fn kol_follow_list(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<KolView>>>> {
    let ids = follows::followed_ids(&state, me.user_id, Target::Kol).await?;
    let list = catalogue::kols_by_ids(&state, &ids, client.locale).await?;
    Ok(ok(List { list }))
}

async fn follow_add<R: FollowRequest>(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<R>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::add(&state, me.user_id, R::TARGET, req.id()).await?;
    Ok(ok(Following { following: true }))
}

async fn follow_del<R: FollowRequest>(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<R>,
) -> AppResult<Json<Envelope<Following>>> {
    follows::remove(&state, me.user_id, R::TARGET, req.id()).await?;
    Ok(ok(Following { following: false }))
}

async fn follow_status<R: FollowRequest>(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<R>,
) -> AppResult<Json<Envelope<Following>>> {
    let following = follows::is_following(&state, me.user_id, R::TARGET, req.id()).await?;
    Ok(ok(Following { following }))
}
