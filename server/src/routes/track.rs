//! Tracking events.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use client_core::envelope::{Envelope, ErrorKind};
use client_core::track::{TRACK_MAX_BODY_BYTES, TRACK_MAX_ENTRIES};
use serde::Deserialize;
use serde_json::Value;
use validator::Validate;

use super::ok;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, Caller, ClientMeta};
use crate::limits;
use crate::state::AppState;
use crate::track::{self, Ingested};

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new().api_route(
        "/log/track",
        post(ingest).layer(DefaultBodyLimit::max(TRACK_MAX_BODY_BYTES)),
    )
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct Batch {
    /// Read as raw values: one malformed entry is counted as rejected, not a failed batch.
    track_logs: Vec<Value>,
}

async fn ingest(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(batch): ApiJson<Batch>,
) -> AppResult<Json<Envelope<Ingested>>> {
    limits::spend(&state, limits::TRACK_BATCHES, &client.ip).await?;
    if batch.track_logs.len() > TRACK_MAX_ENTRIES {
        return Err(AppError::new(ErrorKind::PayloadTooLarge)
            .with_message(format!("A batch holds at most {TRACK_MAX_ENTRIES} entries")));
    }
    Ok(ok(track::ingest(&state, &caller, &batch.track_logs).await?))
}
