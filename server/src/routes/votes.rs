//! `/vote/set`: a signed-in reader votes on an item; `/token/sentiment`: how readers voted on a
//! token's news.

use aide::axum::ApiRouter;
use aide::axum::routing::post;
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use serde::Deserialize;
use validator::Validate;

use super::ok;
use crate::content::catalogue;
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::limits;
use crate::social::votes::{self, Cast, Sentiment, VoteState};
use crate::social::{moderation, spend_write};
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/vote/set", post(vote_set))
        .api_route("/token/sentiment", post(token_sentiment))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct VoteRequest {
    feed_id: i64,
    /// `bullish`, `bearish`, `important`, `lol` or `toxic`.
    kind: String,
    on: bool,
}

async fn vote_set(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<VoteRequest>,
) -> AppResult<Json<Envelope<VoteState>>> {
    moderation::ensure_not_banned(&state, user.user_id).await?;
    spend_write(&state, &user, &client, limits::VOTES).await?;
    let cast = Cast {
        user_id: user.user_id,
        feed_id: req.feed_id,
        kind: &req.kind,
        on: req.on,
    };
    let set = votes::set(&state, cast, state.config.voter_min_age_hours * 3600).await?;
    Ok(ok(set))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct SentimentRequest {
    symbol: String,
    /// The last hours (1 to 168; 24 unless given).
    #[serde(default = "day")]
    #[validate(range(min = 1, max = 168))]
    hours: i64,
}

const fn day() -> i64 {
    24
}

async fn token_sentiment(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SentimentRequest>,
) -> AppResult<Json<Envelope<Sentiment>>> {
    let token = catalogue::token(&state, &req.symbol).await?;
    Ok(ok(votes::sentiment(&state, token.id, req.hours).await?))
}
