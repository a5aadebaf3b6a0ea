//! Feeds for feed readers at `/rss/{locale}/…` (outside `/api`: readers fetch them as files).
//! Built once a second at most, like the home feed; `ETag` and `Last-Modified` let a reader's
//! poll be answered with 304.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use client_core::locale::LOCALES;
use sha2::{Digest, Sha256};

use super::cached::cached_bytes;
use crate::content::syndication::{self, Built, Format, Subject};
use crate::error::{AppError, AppResult};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/{locale}/{file}", get(news))
        .route("/{locale}/{kind}/{file}", get(about))
}

async fn news(
    State(state): State<AppState>,
    Path((locale, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> AppResult<Response> {
    answer(&state, &locale, None, &file, &headers).await
}

async fn about(
    State(state): State<AppState>,
    Path((locale, kind, file)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> AppResult<Response> {
    answer(&state, &locale, Some(&kind), &file, &headers).await
}

async fn answer(
    state: &AppState,
    locale: &str,
    kind: Option<&str>,
    file: &str,
    headers: &HeaderMap,
) -> AppResult<Response> {
    let locale = LOCALES
        .into_iter()
        .find(|l| *l == locale)
        .ok_or_else(|| AppError::not_found("No such feed"))?;
    let (subject, format) = syndication::subject_of(kind, file)?;
    let key = format!("rss|{locale}|{subject:?}|{format:?}");
    let built = build(state, locale, &subject, format);
    let packed = cached_bytes(&state.content.cache, key, built).await?;
    Ok(respond(&packed, format, headers))
}

/// The content cache holds bytes: a feed is kept as its `Last-Modified` (8 bytes, big-endian
/// seconds) followed by its text.
async fn build(
    state: &AppState,
    locale: &'static str,
    subject: &Subject,
    format: Format,
) -> AppResult<bytes::Bytes> {
    let Built {
        body,
        last_modified,
    } = syndication::build(state, locale, subject, format).await?;
    let mut packed = last_modified.to_be_bytes().to_vec();
    packed.extend_from_slice(body.as_bytes());
    Ok(packed.into())
}

fn respond(packed: &bytes::Bytes, format: Format, headers: &HeaderMap) -> Response {
    let (stamp, body) = packed.split_at(8);
    let seconds = i64::from_be_bytes(stamp.try_into().unwrap_or_default());
    let modified = std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds.max(0) as u64);
    let last_modified = httpdate::fmt_http_date(modified);
    // Weak: the same feed is sent gzipped to some readers and plain to others.
    let etag = format!("W/\"{}\"", hex::encode(&Sha256::digest(body)[..16]));
    let header_text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    // If-None-Match decides when given; If-Modified-Since only without it (RFC 9110 13.2.2).
    let unchanged = match header_text(header::IF_NONE_MATCH) {
        // Weak comparison (RFC 9110 8.8.3.2): a tag matches with or without its `W/`.
        Some(tags) => tags
            .split(',')
            .map(str::trim)
            .any(|t| t == "*" || t.trim_start_matches("W/") == etag.trim_start_matches("W/")),
        None => header_text(header::IF_MODIFIED_SINCE)
            .and_then(|since| httpdate::parse_http_date(since).ok())
            .is_some_and(|since| modified <= since),
    };
    let common = [
        (header::ETAG, etag),
        (header::LAST_MODIFIED, last_modified),
        (header::CACHE_CONTROL, "public, max-age=60".to_owned()),
    ];
    if unchanged {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let body = bytes::Bytes::copy_from_slice(body);
    (
        common,
        [(header::CONTENT_TYPE, format.content_type())],
        body,
    )
        .into_response()
}
