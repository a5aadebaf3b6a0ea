//! A reader's messages: the list, the unread count (polled by the header), marking read.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::{PageRequest, ok};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::pagination::Page;
use crate::social::messages::{self, KINDS, MessageView, READ_MAX_IDS};
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/message/list", post(message_list))
        .api_route("/message/unread", post(message_unread))
        .api_route("/message/read", post(message_read))
}

#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
struct ListRequest {
    #[serde(flatten)]
    #[validate(nested)]
    page: PageRequest,
    kind: Option<String>,
}

async fn message_list(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<ListRequest>,
) -> AppResult<Json<Envelope<Page<MessageView>>>> {
    let kind = req.kind.as_deref().filter(|k| !k.is_empty());
    if kind.is_some_and(|k| !KINDS.contains(&k)) {
        return Err(AppError::invalid(format!(
            "kind must be one of {}",
            KINDS.join(", ")
        )));
    }
    let page = messages::list(
        &state,
        user.user_id,
        client.locale,
        kind,
        req.page.cursor(),
        req.page.limit(),
    )
    .await?;
    Ok(ok(page))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Count {
    count: u64,
}

async fn message_unread(
    State(state): State<AppState>,
    user: CurrentUser,
) -> AppResult<Json<Envelope<Count>>> {
    Ok(ok(Count {
        count: messages::unread(&state, user.user_id).await?,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate, Default)]
#[serde(default)]
struct ReadRequest {
    #[validate(length(max = READ_MAX_IDS))]
    ids: Vec<i64>,
    all: bool,
}

async fn message_read(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<ReadRequest>,
) -> AppResult<Json<Envelope<Count>>> {
    if !req.all && req.ids.is_empty() {
        return Err(AppError::invalid("Give ids or all: true"));
    }
    spend_write(&state, &user, &client, limits::KEEPING).await?;
    let ids = (!req.all).then_some(req.ids.as_slice());
    Ok(ok(Count {
        count: messages::mark_read(&state, user.user_id, ids).await?,
    }))
}
