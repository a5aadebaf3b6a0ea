//! Markets: a token's chart and the Markets page's tables (visitors too). Token chips and token
//! pages carry prices through the feed and catalogue calls.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::cached::cached_ok;
use super::ok;
use crate::error::AppResult;
use crate::extract::ApiJson;
use crate::markets::history::{self, History};
use crate::markets::overview::{self, Overview};
use crate::openapi::answers;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/market/history", post(history_of))
        .api_route(
            "/market/overview",
            post_with(overview_of, answers::<Overview>),
        )
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct HistoryRequest {
    #[validate(length(min = 1, max = 32))]
    symbol: String,
    /// 1, 7 or 30.
    days: i64,
}

async fn history_of(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<HistoryRequest>,
) -> AppResult<Json<Envelope<History>>> {
    Ok(ok(history::history(
        &state.ctx,
        &state.markets,
        &req.symbol,
        req.days,
    )
    .await?))
}

async fn overview_of(State(state): State<AppState>) -> AppResult<Response> {
    let key = Some("market-overview".to_owned());
    cached_ok(&state, key, overview::overview(&state.ctx)).await
}
