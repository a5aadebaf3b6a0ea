//! Readers' own posts: written in a small Markdown subset (previewed by the server's own
//! rendering), edited with their history kept, deleted by their author. Reading a post is
//! `/feed/detail`: a post is a feed item.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use client_core::post::check_post;
use client_core::validation;
use serde::{Deserialize, Serialize};
use validator::{Validate, ValidationError};

use super::{IdRequest, PageRequest, ok};
use crate::community::markdown;
use crate::community::posts::{self, PostHistory, PostInput};
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::{budget_by_age, moderation, spend_daily_write, spend_write};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/post/create", post(create))
        .api_route("/post/edit", post(edit))
        .api_route("/post/del", post(delete))
        .api_route("/post/preview", post(preview))
        .api_route("/post/history", post(history))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
#[validate(schema(function = "post_rule"))]
struct PostRequest {
    #[serde(default)]
    title: String,
    content: String,
    #[serde(default)]
    tags: Vec<i64>,
    #[serde(default)]
    tokens: Vec<i64>,
    #[serde(default)]
    images: Vec<String>,
}

fn post_rule(req: &PostRequest) -> Result<(), ValidationError> {
    let broken = check_post(
        &req.title,
        &req.content,
        req.tags.len(),
        req.tokens.len(),
        req.images.len(),
    );
    broken.map_or(Ok(()), |m| Err(validation::rule_error(m)))
}

impl PostRequest {
    fn input(&self) -> PostInput<'_> {
        PostInput {
            title: &self.title,
            markdown: &self.content,
            tag_ids: self.tags.clone(),
            token_ids: self.tokens.clone(),
            images: self.images.clone(),
        }
    }
}

#[derive(schemars::JsonSchema, Serialize)]
struct Created {
    id: i64,
}

async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<PostRequest>,
) -> AppResult<Json<Envelope<Created>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    let budget = budget_by_age(
        &state,
        user.user_id,
        limits::POSTS,
        limits::NEW_ACCOUNT_POSTS,
    )
    .await?;
    let write = posts::create(&state, user.user_id, client.locale, req.input());
    let id = spend_daily_write(&state, &user, &client, budget, write).await?;
    Ok(ok(Created { id }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct EditRequest {
    id: i64,
    #[serde(flatten)]
    #[validate(nested)]
    post: PostRequest,
}

async fn edit(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<EditRequest>,
) -> AppResult<Json<Envelope<Created>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::POST_CHANGES).await?;
    posts::edit(&state, user.user_id, req.id, req.post.input()).await?;
    Ok(ok(Created { id: req.id }))
}

async fn delete(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<Created>>> {
    spend_write(&state, &user, &client, limits::POST_CHANGES).await?;
    posts::delete(&state, user.user_id, req.id).await?;
    Ok(ok(Created { id: req.id }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct PreviewRequest {
    #[validate(custom(function = "validation::post_draft"))]
    content: String,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Preview {
    /// The post's HTML as it will be shown, cleaned.
    html: String,
}

/// The editor's preview, by the same rendering a published post gets (signed-in readers; no
/// budget: it writes nothing and 10,000 characters render in well under a millisecond).
async fn preview(
    _user: CurrentUser,
    ApiJson(req): ApiJson<PreviewRequest>,
) -> AppResult<Json<Envelope<Preview>>> {
    Ok(ok(Preview {
        html: markdown::render(&req.content),
    }))
}

/// A post's versions, newest first, and its tags and tokens: the editor starts from these;
/// anyone may read how a post changed.
async fn history(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<HistoryRequest>,
) -> AppResult<Json<Envelope<PostHistory>>> {
    let (cursor, limit) = (req.page.cursor(), req.page.limit());
    Ok(ok(posts::history(&state, req.id, cursor, limit).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct HistoryRequest {
    id: i64,
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
}
