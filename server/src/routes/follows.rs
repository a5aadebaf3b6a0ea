//! Following tags, tokens, topics, KOLs and people: one add, del and status handler for every
//! kind, told apart by the request's id field (`/user/follow/*` takes a `kol_id` or a `user_id`).

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{List, ok};
use crate::auth::users::{UserRef, users_by_id};
use crate::content::catalogue::{self, KolView, TagView};
use crate::content::follows::{self, Target};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/tag/follow/list", post(tag_follow_list))
        .api_route("/tag/follow/add", post(follow_add::<TagIdRequest>))
        .api_route("/tag/follow/del", post(follow_del::<TagIdRequest>))
        .api_route("/tag/follow/status", post(follow_status::<TagIdRequest>))
        .api_route("/token/follow/add", post(follow_add::<TokenIdRequest>))
        .api_route("/token/follow/del", post(follow_del::<TokenIdRequest>))
        .api_route(
            "/token/follow/status",
            post(follow_status::<TokenIdRequest>),
        )
        .api_route("/topic/follow/add", post(follow_add::<TopicIdRequest>))
        .api_route("/topic/follow/del", post(follow_del::<TopicIdRequest>))
        .api_route(
            "/topic/follow/status",
            post(follow_status::<TopicIdRequest>),
        )
        .api_route("/user/follow/list", post(kol_follow_list))
        .api_route("/user/follow/add", post(follow_add::<PersonRequest>))
        .api_route("/user/follow/del", post(follow_del::<PersonRequest>))
        .api_route("/user/follow/status", post(follow_status::<PersonRequest>))
}

/// A request naming one thing to follow: which kind, and its id.
trait FollowRequest: DeserializeOwned + Validate + Send + 'static {
    fn target(&self) -> AppResult<(Target, i64)>;
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct TagIdRequest {
    tag_id: i64,
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct TokenIdRequest {
    token_id: i64,
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct TopicIdRequest {
    topic_id: i64,
}

/// A KOL of the catalogue or another reader.
#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct PersonRequest {
    kol_id: Option<i64>,
    user_id: Option<i64>,
}

impl FollowRequest for TagIdRequest {
    fn target(&self) -> AppResult<(Target, i64)> {
        Ok((Target::Tag, self.tag_id))
    }
}

impl FollowRequest for TokenIdRequest {
    fn target(&self) -> AppResult<(Target, i64)> {
        Ok((Target::Token, self.token_id))
    }
}

impl FollowRequest for TopicIdRequest {
    fn target(&self) -> AppResult<(Target, i64)> {
        Ok((Target::Topic, self.topic_id))
    }
}

impl FollowRequest for PersonRequest {
    fn target(&self) -> AppResult<(Target, i64)> {
        match (self.kol_id, self.user_id) {
            (Some(id), None) => Ok((Target::Kol, id)),
            (None, Some(id)) => Ok((Target::User, id)),
            _ => Err(AppError::invalid("Give one of kol_id or user_id")),
        }
    }
}

#[derive(schemars::JsonSchema, Serialize)]
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

/// The KOLs (`list`) and the readers (`users`) a user follows, most recent first.
#[derive(schemars::JsonSchema, Serialize)]
struct People {
    list: Vec<KolView>,
    users: Vec<UserRef>,
}

async fn kol_follow_list(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<People>>> {
    let ids = follows::followed_ids(&state, me.user_id, Target::Kol).await?;
    let list = catalogue::kols_by_ids(&state, &ids, client.locale).await?;
    let ids = follows::followed_ids(&state, me.user_id, Target::User).await?;
    let mut known = users_by_id(&state.db, ids.iter().copied()).await?;
    let users = ids.iter().filter_map(|id| known.remove(id)).collect();
    Ok(ok(People { list, users }))
}

async fn follow_add<R: FollowRequest>(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<R>,
) -> AppResult<Json<Envelope<Following>>> {
    let (target, id) = req.target()?;
    spend_write(&state, &me, &client, limits::FOLLOWS).await?;
    follows::add(&state, me.user_id, target, id).await?;
    Ok(ok(Following { following: true }))
}

async fn follow_del<R: FollowRequest>(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<R>,
) -> AppResult<Json<Envelope<Following>>> {
    let (target, id) = req.target()?;
    spend_write(&state, &me, &client, limits::FOLLOWS).await?;
    follows::remove(&state, me.user_id, target, id).await?;
    Ok(ok(Following { following: false }))
}

async fn follow_status<R: FollowRequest>(
    State(state): State<AppState>,
    me: CurrentUser,
    ApiJson(req): ApiJson<R>,
) -> AppResult<Json<Envelope<Following>>> {
    let (target, id) = req.target()?;
    let following = follows::is_following(&state, me.user_id, target, id).await?;
    Ok(ok(Following { following }))
}
