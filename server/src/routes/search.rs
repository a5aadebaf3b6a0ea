//! Search across tags, tokens, KOLs and feeds.

use aide::axum::ApiRouter;
use aide::axum::routing::post_with;
use axum::extract::State;
use axum::response::Response;
use client_core::{langs, validation};
use serde::Deserialize;
use validator::Validate;

use super::cached::{cached_envelope, json_bytes};
use crate::content::feeds::Sort;
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
    /// `relevance` (catalogue entries, then feeds with the terms in a title, then the rest; the
    /// default), or feeds only: `new`, `hot` or `rising`.
    #[serde(default)]
    sort: Option<String>,
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
    let sort =
        match req.sort.as_deref().unwrap_or("relevance") {
            "relevance" => None,
            name => Some(Sort::parse(name).ok_or_else(|| {
                AppError::invalid("sort must be one of relevance, new, hot, rising")
            })?),
        };
    if sort.is_some() && kind.is_some_and(|k| k != DocKind::Feed) {
        return Err(AppError::invalid(
            "only news can be sorted by time or score",
        ));
    }
    let cursor = req.cursor.as_deref().filter(|c| !c.is_empty());
    let langs = req.langs.as_deref().map(langs::checked);
    let key = format!(
        "search|{terms:?}|{kind:?}|{langs:?}|{sort:?}|{cursor:?}|{}",
        client.locale
    );
    let page = async {
        let index = state.content.search_index(&state).await?;
        let (docs, next_cursor) = match sort {
            None => {
                let from = cursor.map_or(Ok(search::Cursor::START), search::Cursor::parse)?;
                let (docs, next) =
                    search::find(index, &terms, kind, langs.as_deref(), from).await?;
                (docs, next.map(search::Cursor::encode))
            }
            Some(sort) => {
                search::find_sorted(&state, index, &terms, langs.as_deref(), sort, cursor).await?
            }
        };
        let mut list = search::hits(docs, &terms, client.locale);
        search::in_reader_language(&state.db, &mut list, &terms, client.locale).await?;
        search::with_dates(&state.db, &mut list).await?;
        Ok(Page { list, next_cursor })
    };
    Ok(json_bytes(
        cached_envelope(&state.content.search_cache, Some(key), page).await?,
    ))
}
