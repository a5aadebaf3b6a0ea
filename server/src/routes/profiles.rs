//! Public profiles: anyone reads one, with the person's posts and answers; a reader changes their
//! own.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use client_core::validation;
use serde::Deserialize;
use validator::Validate;

use super::feeds::reading;
use super::{PageRequest, ok};
use crate::community::profiles::{self, ProfileChange, ProfileView};
use crate::community::questions::{self, AuthoredAnswer};
use crate::content::feeds::{self, FeedView, Filter, Scope};
use crate::error::AppResult;
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::limits;
use crate::pagination::Page;
use crate::social::marks;
use crate::social::moderation;
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/user/profile", post(profile))
        .api_route("/user/profile/update", post(update))
        .api_route("/user/posts", post(user_posts))
        .api_route("/user/answers", post(user_answers))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct ProfileRequest {
    user_id: i64,
}

async fn profile(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ProfileRequest>,
) -> AppResult<Json<Envelope<ProfileView>>> {
    Ok(ok(profiles::profile(&state, req.user_id).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
struct UpdateRequest {
    #[validate(custom(function = "validation::nickname"))]
    nickname: Option<String>,
    #[validate(custom(function = "validation::bio"))]
    bio: Option<String>,
    /// An image uploaded through `/img/upload`, or `""` to remove it.
    #[validate(length(max = 1024))]
    avatar: Option<String>,
}

async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<UpdateRequest>,
) -> AppResult<Json<Envelope<ProfileView>>> {
    // A banned reader's name, bio and picture are seen by others: they wait for the ban's end.
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::PROFILE_UPDATES).await?;
    let change = ProfileChange {
        nickname: req.nickname.as_deref(),
        bio: req.bio.as_deref(),
        avatar: req.avatar.as_deref(),
    };
    Ok(ok(profiles::update(&state, user.user_id, change).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct AuthorPageRequest {
    user_id: i64,
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
}

/// A person's posts, newest first, as the feed lists them.
async fn user_posts(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<AuthorPageRequest>,
) -> AppResult<Json<Envelope<Page<FeedView>>>> {
    let reading = reading(&caller, &client);
    let scope = Scope::Author(req.user_id);
    let (cursor, limit) = (req.page.cursor(), req.page.limit());
    let mut page = feeds::page(&state, &scope, &Filter::default(), cursor, limit, reading).await?;
    if let Some(user_id) = caller.user_id() {
        marks::mark(&state, &state.marks, user_id, &mut page.list).await?;
    }
    Ok(ok(page))
}

/// A person's answers, newest first, each with its question's title.
async fn user_answers(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<AuthorPageRequest>,
) -> AppResult<Json<Envelope<Page<AuthoredAnswer>>>> {
    let page = (req.page.cursor(), req.page.limit());
    let reading = reading(&caller, &client);
    Ok(ok(questions::answers_by(
        &state,
        req.user_id,
        page,
        reading,
    )
    .await?))
}
