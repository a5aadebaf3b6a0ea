//! Blockbrief's server: the API under `/api` and the built web client at `/`.

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use axum::response::Html;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

pub mod area;
pub mod auth;
pub mod captcha;
pub mod config;
pub mod content;
pub mod db;
pub mod entity;
pub mod error;
pub mod extract;
pub mod feedback;
pub mod i18n;
pub mod mail;
pub mod migration;
pub mod pagination;
pub mod platform;
pub mod points;
mod routes;
pub mod sms;
pub mod state;
pub mod time;
pub mod track;
#[cfg(test)]
mod typescript;
pub mod uploads;

pub use state::AppState;

/// Serves an uploaded image: only names this server gives out, with the type its bytes proved,
/// never sniffed by the browser, cached for a year (the name never changes hands).
async fn uploaded_file(
    axum::extract::State(state): axum::extract::State<AppState>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    let (stem, ext) = name.split_once('.').unwrap_or_default();
    let kind = uploads::sniff::ImageKind::from_extension(ext);
    let well_formed = stem.len() == 32 && stem.bytes().all(|b| b.is_ascii_hexdigit());
    let Some(kind) = kind.filter(|_| well_formed) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match state.store.get(&format!("feedback/{name}")).await {
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
        Err(e) => error::AppError::internal(e).into_response(),
    }
}

const PLACEHOLDER_SHELL: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Blockbrief</title></head><body><p>The Blockbrief API is running at <code>/api</code>. \
No web client is built into <code>WEB_DIR</code> yet.</p></body></html>";

/// The app shell for any page path, with the page's head (title, description, social card,
/// canonical, alternates) written in; 404 when the page names something that does not exist.
async fn page_shell(
    axum::extract::State((state, shell)): axum::extract::State<(AppState, Arc<String>)>,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    // As the app picks it: a page load carries no device header.
    let sources = client_core::locale::LocaleSources {
        cookie: extract::cookie(&headers, client_core::constants::LOCALE_COOKIE),
        accept_language: extract::header_text(&headers, header::ACCEPT_LANGUAGE.as_str()),
        ..Default::default()
    };
    match content::head::for_path(&state, uri.path(), sources).await {
        Ok(head) => {
            let mut html = content::head::render(&shell, &head, &state.config.public_url);
            if head.path == "/" {
                match routes::content::home_first_page(&state, head.locale).await {
                    Ok(page) => html = content::first_paint::render(&html, &page, head.locale),
                    // The app loads the feed itself.
                    Err(e) => tracing::warn!("first paint of the home page: {e:?}"),
                }
            }
            // The shell changes with every deploy; hashed assets are the ones cached for long.
            (
                head.status,
                [(header::CACHE_CONTROL, "no-cache")],
                Html(html),
            )
                .into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// The whole application; tests serve it on a loopback port.
pub fn app(state: AppState) -> Router {
    let api = routes::router().layer(middleware::from_fn_with_state(
        state.clone(),
        extract::resolve_session,
    ));
    // Files of the build as they are; every other path gets the app shell with its page head.
    let shell = std::fs::read_to_string(state.config.web_dir.join("index.html"))
        .unwrap_or_else(|_| PLACEHOLDER_SHELL.to_owned());
    let page = axum::handler::Handler::with_state(page_shell, (state.clone(), Arc::new(shell)));
    // Vite names built assets by their content hash: they never change, so they are cached for a year.
    let assets = Router::new()
        .nest_service(
            "/assets",
            ServeDir::new(state.config.web_dir.join("assets")),
        )
        .layer(SetResponseHeaderLayer::overriding(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));
    let web = Router::new()
        .merge(assets)
        .fallback_service(
            ServeDir::new(&state.config.web_dir)
                .append_index_html_on_directories(false)
                .fallback(page),
        )
        .layer(CompressionLayer::new());
    // Method, path, status and latency of each request; headers (tokens) are never logged.
    let trace = TraceLayer::new_for_http()
        .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    Router::new()
        .nest("/api", api)
        .route(
            "/uploads/feedback/{name}",
            axum::routing::get(uploaded_file),
        )
        .merge(web)
        .layer(trace)
        .with_state(state)
}
