//! The web app manifest, one per language (`/manifest.webmanifest`, `/vi/manifest.webmanifest`):
//! what a phone or desktop shows when the reader installs Blockbrief, and where it opens.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use client_core::locale::{DEFAULT_LOCALE, locale_path, locale_segment};
use serde_json::json;

use crate::i18n::t;

/// `--bg` of the light theme in `web/src/styles.css`.
const LIGHT_PAGE: &str = "#f6f7f6";

fn manifest_in(locale: &str) -> Response {
    let icon = |src: &str, size: &str, purpose: &str| json!({ "src": src, "sizes": size, "type": "image/png", "purpose": purpose });
    let body = json!({
        "name": t(locale, "head.name", &[]),
        "short_name": t(locale, "head.name", &[]),
        "description": t(locale, "head.slogan", &[]),
        "lang": locale,
        "id": "/",
        "start_url": locale_path(locale, "/"),
        "scope": "/",
        "display": "standalone",
        // The light theme's page colour, the app's default; an open page sets its own theme's
        // (`meta theme-color`, written by the web app when the reader picks a theme).
        "background_color": LIGHT_PAGE,
        "theme_color": LIGHT_PAGE,
        "icons": [
            icon("/icon-192.png", "192x192", "any"),
            icon("/icon-512.png", "512x512", "any"),
            icon("/icon-maskable-512.png", "512x512", "maskable"),
        ],
    });
    (
        [
            (header::CONTENT_TYPE, "application/manifest+json"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body.to_string(),
    )
        .into_response()
}

pub async fn manifest() -> Response {
    manifest_in(DEFAULT_LOCALE)
}

pub async fn localized(Path(locale): Path<String>) -> Response {
    match locale_segment(&locale) {
        Some(locale) => manifest_in(locale),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
