//! `/story/detail`: a story's reports across sources and languages; `/admin/story/split`: an
//! editor takes a misgrouped item out of its story.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::admin::Admin;
use super::feeds::reading;
use super::{IdRequest, ok};
use crate::content::stories::{self, StoryDetail};
use crate::error::AppResult;
use crate::extract::{ApiJson, Caller, ClientMeta};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/story/detail", post(story_detail))
        .api_route("/admin/story/split", post(story_split))
}

async fn story_detail(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<StoryDetail>>> {
    let reading = reading(&caller, &client);
    Ok(ok(stories::detail(&state, req.id, reading).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct SplitRequest {
    feed_id: i64,
}

async fn story_split(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(req): ApiJson<SplitRequest>,
) -> AppResult<Json<Envelope<()>>> {
    stories::split(&state, req.feed_id).await?;
    Ok(ok(()))
}
