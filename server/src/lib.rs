//! Blockbrief's server: the API under `/api` and the built web client at `/`.

use axum::Router;
use axum::middleware;
use axum::response::Html;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

pub mod area;
pub mod auth;
pub mod captcha;
pub mod config;
pub mod db;
pub mod entity;
pub mod error;
pub mod extract;
pub mod feedback;
pub mod i18n;
pub mod mail;
pub mod migration;
pub mod platform;
pub mod points;
mod routes;
pub mod sms;
pub mod state;
pub mod time;
pub mod track;
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

/// The whole application; tests serve it on a loopback port.
pub fn app(state: AppState) -> Router {
    let api = routes::router().layer(middleware::from_fn_with_state(
        state.clone(),
        extract::resolve_session,
    ));
    let index = state.config.web_dir.join("index.html");
    let web = if index.exists() {
        // Unknown paths get the app shell: the client router decides what they show.
        Router::new()
            .fallback_service(ServeDir::new(&state.config.web_dir).fallback(ServeFile::new(index)))
    } else {
        Router::new().fallback(|| async {
            Html(
                "<!doctype html><title>Blockbrief</title><p>The Blockbrief API is running at \
                 <code>/api</code>. No web client is built into <code>WEB_DIR</code> yet.</p>",
            )
        })
    };
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
