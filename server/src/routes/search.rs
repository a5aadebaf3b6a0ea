//! Search across tags, tokens, KOLs and feeds.

use aide::axum::ApiRouter;
use aide::axum::routing::post_with;
use axum::extract::State;
use axum::response::Response;
use client_core::{langs, validation};
use serde::Deserialize;
use validator::Validate;

use super::cached::{cached_envelope, json_bytes};
use crate::content::search::{self, DocKind};
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta};
use crate::openapi::answers;
use crate::pagination::Page;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new().api_route(
        "/search",
        post_with(search_all, answers::<Page<search::Hit>>),
    )
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct SearchRequest {
    #[validate(custom(function = "validation::search_query"))]
    q: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    cursor: Option<String>,
    /// Only feeds written in, or translated into, these locales (tags, tokens and KOLs are in
    /// every language).
    #[validate(custom(function = "validation::read_langs"))]
    #[serde(default)]
    langs: Option<Vec<String>>,
}

async fn search_all(
    State(state): State<AppState>,
    client: ClientMeta,
    ApiJson(req): ApiJson<SearchRequest>,
) -> AppResult<Response> {
    state
        .content
        .search_limiter
        .check(&state, &client.ip)
        .await?;
    let terms = search::terms(&req.q)?;
    let kind =
        match req.kind.as_deref().unwrap_or("all") {
            "all" => None,
            name => Some(DocKind::parse(name).ok_or_else(|| {
                AppError::invalid("kind must be one of all, feed, tag, token, kol")
            })?),
        };
    let cursor = match req.cursor.as_deref().filter(|c| !c.is_empty()) {
        None => search::Cursor::START,
        Some(c) => search::Cursor::parse(c)?,
    };
    let langs = req.langs.as_deref().map(langs::checked);
    let key = format!(
        "search|{terms:?}|{kind:?}|{langs:?}|{cursor:?}|{}",
        client.locale
    );
    let page = async {
        let index = state.content.search_index(&state).await?;
        let (docs, next) = search::find(index, &terms, kind, langs.as_deref(), cursor).await?;
        let mut list = search::hits(docs, &terms, client.locale);
        search::in_reader_language(&state.db, &mut list, &terms, client.locale).await?;
        Ok(Page {
            list,
            next_cursor: next.map(search::Cursor::encode),
        })
    };
    Ok(json_bytes(
        cached_envelope(&state.content.search_cache, Some(key), page).await?,
    ))
}
