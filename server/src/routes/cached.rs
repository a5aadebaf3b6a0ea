//! Answers served from the content caches: the envelope's JSON bytes built once and shared by
//! every reader asking the same thing within the cache's life.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::ok;
use crate::content::ContentCache;
use crate::error::{AppError, AppResult};
use crate::state::AppState;

pub(super) async fn cached_ok<T: Serialize>(
    state: &AppState,
    key: Option<String>,
    build: impl Future<Output = AppResult<T>>,
) -> AppResult<Response> {
    Ok(json_bytes(
        cached_envelope(&state.content.cache, key, build).await?,
    ))
}

/// A successful envelope as JSON, from `cache` under `key` when there is one, else built by
/// `build` (and cached under `key`).
pub(crate) async fn cached_envelope<T: Serialize>(
    cache: &ContentCache,
    key: Option<String>,
    build: impl Future<Output = AppResult<T>>,
) -> AppResult<bytes::Bytes> {
    let Some(key) = key else {
        return envelope_bytes(build.await?);
    };
    cached_bytes(cache, key, async { envelope_bytes(build.await?) }).await
}

/// Bytes from `cache` under `key`, else built by `build` and cached (a failed build is not).
pub(crate) async fn cached_bytes(
    cache: &ContentCache,
    key: String,
    build: impl Future<Output = AppResult<bytes::Bytes>>,
) -> AppResult<bytes::Bytes> {
    if let Some(body) = cache.get(&key).await {
        return Ok(body);
    }
    match build.await {
        Ok(body) => {
            cache.put(key, body.clone());
            Ok(body)
        }
        Err(e) => {
            cache.abandon(&key);
            Err(e)
        }
    }
}

pub(super) fn envelope_bytes<T: Serialize>(data: T) -> AppResult<bytes::Bytes> {
    Ok(serde_json::to_vec(&ok(data).0)
        .map_err(AppError::internal)?
        .into())
}

pub(super) fn json_bytes(body: bytes::Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}
