//! What is served outside `/api`: the app shell with each page's head written in, and the
//! uploaded images.

use std::sync::Arc;

use axum::response::Html;

use crate::state::AppState;
use crate::uploads::Uploads;

/// Serves an uploaded image: only names this server gives out, with the type its bytes proved,
/// never sniffed by the browser, cached for a year (the name never changes hands).
pub async fn uploaded_file(
    axum::extract::State(uploads): axum::extract::State<Uploads>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    let (stem, ext) = name.split_once('.').unwrap_or_default();
    let kind = crate::uploads::sniff::ImageKind::from_extension(ext);
    let well_formed = stem.len() == 32 && stem.bytes().all(|b| b.is_ascii_hexdigit());
    let Some(kind) = kind.filter(|_| well_formed) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match uploads.store().get(&format!("feedback/{name}")).await {
        Ok(Some(bytes)) => (
            [
                (header::CONTENT_TYPE, kind.content_type()),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
                (header::CONTENT_SECURITY_POLICY, "default-src 'none'"),
            ],
            bytes,
        )
            .into_response(),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => crate::error::AppError::internal(e).into_response(),
    }
}

/// The home page and a feed's page are painted from the server's HTML before any script runs
/// (a shared link on a slow phone shows its news at once); elsewhere, and when anything fails,
/// the app loads what it needs itself.
async fn first_paint(state: &AppState, head: crate::content::head::Head, html: String) -> String {
    use crate::content::first_paint::{render, render_explore, render_feed};
    let now = state.now();
    let painted = match (head.path.as_str(), head.feed) {
        ("/", _) => super::feeds::home_first_page(state, head.locale)
            .await
            .map(|page| render(&html, &page, head.locale, now)),
        ("/explore", _) => super::catalogue::explore_first_page(state, head.locale)
            .await
            .map(|page| render_explore(&html, &page, head.locale)),
        (_, Some(detail)) => serde_json::to_vec(&super::ok(detail).0)
            .map_err(crate::error::AppError::internal)
            .map(|answer| render_feed(&html, &answer, head.locale, now)),
        _ => return html,
    };
    painted.unwrap_or_else(|e| {
        tracing::warn!("first paint of {}: {e:?}", head.path);
        html
    })
}

pub const PLACEHOLDER_SHELL: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Blockbrief</title></head><body><p>The Blockbrief API is running at <code>/api</code>. \
No web client is built into <code>WEB_DIR</code> yet.</p></body></html>";

/// The app shell for any page path, with the page's head (title, description, social card,
/// canonical, alternates) written in; 404 when the page names something that does not exist.
pub async fn page_shell(
    axum::extract::State((state, shell)): axum::extract::State<(AppState, Arc<String>)>,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    // As the app picks it: a page load carries no device header.
    let sources = client_core::locale::LocaleSources {
        cookie: crate::extract::cookie(&headers, client_core::constants::LOCALE_COOKIE),
        accept_language: crate::extract::header_text(&headers, header::ACCEPT_LANGUAGE.as_str()),
        ..Default::default()
    };
    match crate::content::head::for_path(&state, uri.path(), sources).await {
        Ok(head) => {
            let config = &state.config;
            let html = crate::content::head::render(&shell, &head, &config.public_url);
            let site = crate::content::head::SiteMeta {
                app_store: config.app_store_url.as_deref(),
                play_store: config.play_store_url.as_deref(),
                test_build: config.test_build,
            };
            let mut html = crate::content::head::with_site_meta(&html, &site);
            let status = head.status;
            html = first_paint(&state, head, html).await;
            // The shell changes with every deploy; hashed assets are the ones cached for long.
            (status, [(header::CACHE_CONTROL, "no-cache")], Html(html)).into_response()
        }
        Err(e) => e.into_response(),
    }
}
