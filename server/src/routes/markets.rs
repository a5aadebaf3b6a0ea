//! Markets: a token's chart and the Markets page's tables (visitors too), presales (followed by
//! signed-in readers), partner exchanges with the reader's referral links, and the exchanges'
//! signed postbacks. Token chips and token pages
//! carry prices through the feed and catalogue calls.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use client_core::envelope::Envelope;
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::admin::Admin;
use super::cached::cached_ok;
use super::{IdRequest, List, ok};
use crate::error::AppResult;
use crate::extract::{ApiJson, Caller, ClientMeta, CurrentUser};
use crate::limits;
use crate::markets::exchanges::{self, ExchangeInput, ExchangeView, Received};
use crate::markets::history::{self, History};
use crate::markets::overview::{self, MarketToken, Overview};
use crate::markets::presales::{self, PresaleInput, PresalePage, PresaleStatus, PresaleView};
use crate::openapi::answers;
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/market/history", post(history_of))
        .api_route(
            "/market/overview",
            post_with(overview_of, answers::<Overview>),
        )
        .api_route("/market/followed", post(followed_tokens))
        .api_route("/exchange/list", post(exchange_list))
        .api_route("/exchange/postback/{code}", post(exchange_postback))
        .api_route("/admin/exchange/upsert", post(exchange_upsert))
        .api_route("/presale/list", post(presale_list))
        .api_route("/presale/detail", post(presale_detail))
        .api_route("/presale/follow", post(presale_follow))
        .api_route("/admin/presale/upsert", post(presale_upsert))
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

/// The signed-in reader's followed tokens with prices (the Markets page shows them first).
async fn followed_tokens(
    State(state): State<AppState>,
    me: CurrentUser,
) -> AppResult<Json<Envelope<List<MarketToken>>>> {
    let list = overview::followed(&state.ctx, me.user_id).await?;
    Ok(ok(List { list }))
}

async fn exchange_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<ExchangeView>>>> {
    let key = state.markets.referral_key();
    let list = exchanges::list(&state.ctx, key, caller.user_id(), client.locale).await?;
    Ok(ok(List { list }))
}

#[derive(schemars::JsonSchema, Deserialize)]
struct ExchangeCode {
    /// The exchange's code (`/admin/exchange/upsert`).
    code: String,
}

/// An exchange confirming a reader's registration or deposit: `X-Signature` is the hex
/// HMAC-SHA256 of the raw body under the exchange's secret, checked before the body is read.
async fn exchange_postback(
    State(state): State<AppState>,
    client: ClientMeta,
    Path(ExchangeCode { code }): Path<ExchangeCode>,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<Envelope<Received>>> {
    limits::spend(&state, limits::EXCHANGE_POSTBACKS, &client.ip).await?;
    let signature = headers
        .get("x-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    Ok(ok(
        exchanges::postback(&state.ctx, &code, &body, signature).await?
    ))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Upserted {
    id: i64,
}

async fn exchange_upsert(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(input): ApiJson<ExchangeInput>,
) -> AppResult<Json<Envelope<Upserted>>> {
    Ok(ok(Upserted {
        id: exchanges::upsert(&state.ctx, &input).await?,
    }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct PresaleListRequest {
    status: PresaleStatus,
    #[serde(default)]
    #[validate(length(max = 20))]
    cursor: Option<String>,
}

async fn presale_list(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<PresaleListRequest>,
) -> AppResult<Json<Envelope<PresalePage>>> {
    let page = presales::list(
        &state.ctx,
        req.status,
        req.cursor.as_deref(),
        caller.user_id(),
        client.locale,
    )
    .await?;
    Ok(ok(page))
}

async fn presale_detail(
    State(state): State<AppState>,
    caller: Caller,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<PresaleView>>> {
    let view = presales::detail(&state.ctx, req.id, caller.user_id(), client.locale).await?;
    Ok(ok(view))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct PresaleFollowRequest {
    id: i64,
    follow: bool,
}

#[derive(schemars::JsonSchema, Serialize)]
struct Following {
    following: bool,
}

async fn presale_follow(
    State(state): State<AppState>,
    me: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<PresaleFollowRequest>,
) -> AppResult<Json<Envelope<Following>>> {
    spend_write(&state, &me, &client, limits::FOLLOWS).await?;
    presales::follow(&state.ctx, me.user_id, req.id, req.follow).await?;
    Ok(ok(Following {
        following: req.follow,
    }))
}

async fn presale_upsert(
    State(state): State<AppState>,
    _: Admin,
    ApiJson(input): ApiJson<PresaleInput>,
) -> AppResult<Json<Envelope<Upserted>>> {
    Ok(ok(Upserted {
        id: presales::upsert(&state.ctx, &input).await?,
    }))
}
