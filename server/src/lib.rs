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
pub mod i18n;
pub mod mail;
pub mod migration;
pub mod platform;
mod routes;
pub mod sms;
pub mod state;

pub use state::AppState;

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
                "<!doctype html><title>Blockbrief</title><p>The API is running at /api. \
                  The web client is not built yet: <code>make run</code> builds it.</p>",
            )
        })
    };
    // Method, path, status and latency of each request; headers (tokens) are never logged.
    let trace = TraceLayer::new_for_http()
        .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    Router::new()
        .nest("/api", api)
        .merge(web)
        .layer(trace)
        .with_state(state)
}
