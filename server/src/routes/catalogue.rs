//! The catalogue: explore, tags, tokens, topics, channels, KOLs and benefits.

use aide::axum::ApiRouter;
use aide::axum::routing::{post, post_with};
use axum::Json;
use axum::extract::State;
use axum::response::Response;
use client_core::envelope::Envelope;
use client_core::validation;
use serde::Deserialize;
use validator::Validate;

use super::cached::{cached_envelope, json_bytes};
use super::{IdRequest, List, ok};
use crate::content::catalogue::{
    self, BenefitView, ChannelView, KolView, TagKey, TagView, TokenView, TopicView,
};
use crate::content::{PAGE_DEFAULT, PAGE_MAX};
use crate::error::AppResult;
use crate::extract::{ApiJson, ClientMeta};
use crate::openapi::answers;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route(
            "/explore",
            post_with(explore, answers::<catalogue::Explore>),
        )
        .api_route("/tag/list", post(tag_list))
        .api_route("/tag/detail", post(tag_detail))
        .api_route("/token/detail", post(token_detail))
        .api_route("/topic/list", post(topic_list))
        .api_route("/topic/detail", post(topic_detail))
        .api_route("/channel/list", post(channel_list))
        .api_route("/channel/detail", post(channel_detail))
        .api_route("/kol/list", post(kol_list))
        .api_route("/kol/detail", post(kol_detail))
        .api_route("/benefit/list", post(benefit_list))
        .api_route("/benefit/detail", post(benefit_detail))
        .api_route("/catalogue/linking", post(linking_catalogue))
}

/// The catalogue as the entity linker reads it, for the Write page's suggestions (the same rule
/// the server links every stored item with).
async fn linking_catalogue(
    State(state): State<AppState>,
) -> AppResult<Json<Envelope<client_core::linking::Catalogue>>> {
    let compiled = state.linking.compiled(&state.db).await?;
    Ok(ok(compiled.catalogue().clone()))
}

async fn explore(State(state): State<AppState>, client: ClientMeta) -> AppResult<Response> {
    Ok(json_bytes(explore_first_page(&state, client.locale).await?))
}

/// `/explore`'s answer as the API gives it, from the same cache: the page's first paint uses it.
pub async fn explore_first_page(state: &AppState, locale: &str) -> AppResult<bytes::Bytes> {
    let key = format!("explore|{locale}");
    cached_envelope(
        &state.content.cache,
        Some(key),
        catalogue::explore(state, locale),
    )
    .await
}

#[derive(schemars::JsonSchema, Deserialize, Default, Validate)]
#[serde(default)]
struct TagListRequest {
    /// Narrows by code or name (the `/recommendTag?q=` page).
    #[validate(custom(function = "validation::search_query"))]
    q: Option<String>,
    #[validate(range(min = 1, max = PAGE_MAX))]
    limit: Option<u64>,
    /// The tags on the most items of the last day instead (`q` does not apply).
    trending: bool,
}

async fn tag_list(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<TagListRequest>,
) -> AppResult<Json<Envelope<List<TagView>>>> {
    let limit = req.limit.unwrap_or(PAGE_DEFAULT);
    let list = if req.trending {
        catalogue::trending_tags(&state, limit, client.locale).await?
    } else {
        catalogue::recommended_tags(&state, req.q.as_deref(), limit, client.locale).await?
    };
    Ok(ok(List { list }))
}

async fn tag_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<TagKey>,
) -> AppResult<Json<Envelope<TagView>>> {
    Ok(ok(catalogue::tag(&state, &req, client.locale).await?))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct SymbolRequest {
    symbol: String,
}

async fn token_detail(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SymbolRequest>,
) -> AppResult<Json<Envelope<TokenView>>> {
    Ok(ok(catalogue::token(&state, &req.symbol).await?))
}

async fn topic_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<TopicView>>>> {
    let list = catalogue::trending_topics(&state, 50, client.locale).await?;
    Ok(ok(List { list }))
}

async fn topic_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<TopicView>>> {
    Ok(ok(catalogue::topic(&state, req.id, client.locale).await?))
}

async fn channel_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<ChannelView>>>> {
    let list = catalogue::channels(&state, client.locale).await?;
    Ok(ok(List { list }))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct CodeRequest {
    code: String,
}

async fn channel_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<CodeRequest>,
) -> AppResult<Json<Envelope<ChannelView>>> {
    Ok(ok(
        catalogue::channel(&state, &req.code, client.locale).await?
    ))
}

async fn kol_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<KolView>>>> {
    let list = catalogue::popular_kols(&state, 50, client.locale).await?;
    Ok(ok(List { list }))
}

async fn kol_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<KolView>>> {
    Ok(ok(catalogue::kol(&state, req.id, client.locale).await?))
}

async fn benefit_list(
    State(state): State<AppState>,
    client: ClientMeta,
) -> AppResult<Json<Envelope<List<BenefitView>>>> {
    let list = catalogue::benefits(&state, client.locale).await?;
    Ok(ok(List { list }))
}

async fn benefit_detail(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<IdRequest>,
) -> AppResult<Json<Envelope<BenefitView>>> {
    Ok(ok(catalogue::benefit(&state, req.id, client.locale).await?))
}
