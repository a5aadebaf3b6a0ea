//! Blockbrief's server: the API under `/api` and the built web client at `/`.

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

pub mod alerts;
pub mod area;
pub mod auth;
pub mod bots;
pub mod cleanup;
pub mod client_addr;
pub mod community;
pub mod config;
pub mod content;
pub mod ctx;
pub mod db;
pub mod entity;
pub mod error;
pub mod events;
pub mod extract;
pub mod feedback;
pub mod i18n;
pub mod lease;
pub mod limits;
pub mod linking;
pub mod mail;
pub mod markets;
pub mod migration;
pub mod openapi;
pub mod outbox;
pub mod pagination;
pub mod platform;
pub mod points;
mod routes;
pub mod sms;
pub mod social;
pub mod state;
pub mod stream;
pub mod time;
pub mod track;
#[cfg(test)]
mod typescript;
pub mod uploads;
pub mod validation;

pub use state::AppState;

/// Connects, brings the schema up to date, seeds the task catalogue (the tasks this
/// configuration offers) and writes the search documents an empty index lacks: the database as
/// every server starts on it.
pub async fn open_database(
    config: &config::Config,
) -> Result<sea_orm::DatabaseConnection, sea_orm::DbErr> {
    let db = db::connect(&config.database_url()).await?;
    points::catalogue::seed(&db, &points::catalogue::Targets::from_config(config)).await?;
    let indexed = content::search::reindex_if_empty(&db).await?;
    if indexed > 0 {
        tracing::info!("wrote {indexed} search documents");
    }
    Ok(db)
}

/// What runs beside the requests for as long as the server does: feed imports, the cleanup job,
/// the mail outbox, the bots, alerts, prices, translation and, on PostgreSQL, opening the search
/// copy, the sign-outs and the events other servers announce.
pub fn spawn_background(state: &AppState) {
    let opening = state.clone();
    tokio::spawn(async move {
        // Tried again until it opens: the database may not be reachable yet.
        while let Err(e) = opening.open_search_copy().await {
            tracing::error!("search index: {e:?}; trying again in 10 s");
            tokio::time::sleep(std::time::Duration::from_secs(10)).await;
        }
    });
    let config = &state.config;
    content::ingest::spawn_schedule(
        &state.ctx,
        &state.content,
        &state.linking,
        &state.http,
        &config.rss_sources,
        config.rss_interval_seconds,
    );
    cleanup::spawn(
        state.ctx.clone(),
        state.content.clone(),
        state.uploads.clone(),
        config.track_retention_days,
    );
    outbox::spawn(state.ctx.clone(), state.mailer.clone());
    bots::spawn(&state.ctx, &state.bots);
    alerts::deliver::spawn(
        state.ctx.clone(),
        state.alerts.clone(),
        state.mailer.clone(),
        state.bots.holder.clone(),
    );
    markets::poll::spawn(
        state.ctx.clone(),
        state.markets.clone(),
        state.bots.holder.clone(),
    );
    match content::translate::Translator::new(&config.translate) {
        Ok(Some(translator)) => {
            content::translate::spawn(state.ctx.clone(), translator, state.bots.holder.clone());
        }
        Ok(None) => {}
        Err(e) => tracing::error!("translation: {e}"),
    }
    content::relink::spawn(state.ctx.clone(), state.bots.holder.clone());
    stream::spawn(&state.ctx, &state.stream);
    state.ctx.events.listen();
}

/// The whole application; tests serve it on a loopback port.
pub fn app(state: AppState) -> Router {
    let api = routes::router().layer(middleware::from_fn_with_state(
        state.clone(),
        extract::resolve_session,
    ));
    // Files of the build as they are; every other path gets the app shell with its page head.
    let shell = std::fs::read_to_string(state.config.web_dir.join("index.html"))
        .unwrap_or_else(|_| routes::web::PLACEHOLDER_SHELL.to_owned());
    let shell = Arc::new(shell);
    let page =
        axum::handler::Handler::with_state(routes::web::page_shell, (state.clone(), shell.clone()));
    // Vite names built assets by their content hash: they never change, so they are cached for a year.
    // The build writes each beside its brotli and gzip copies (web/vite.config.ts), sent as they are.
    let assets = Router::new()
        .nest_service(
            "/assets",
            ServeDir::new(state.config.web_dir.join("assets"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .layer(SetResponseHeaderLayer::overriding(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("public, max-age=31536000, immutable"),
        ))
        // A shared cache keeps one copy per encoding.
        .layer(SetResponseHeaderLayer::appending(
            axum::http::header::VARY,
            axum::http::HeaderValue::from_static("accept-encoding"),
        ));
    // Pages are compressed as they are sent; the assets are compressed already, or are fonts and
    // images that gzip would only grow.
    let web = Router::new()
        .fallback_service(
            ServeDir::new(&state.config.web_dir)
                .append_index_html_on_directories(false)
                .fallback(page),
        )
        .layer(CompressionLayer::new())
        .merge(assets);
    // Method, path, status and latency of each request; headers (tokens) are never logged.
    let trace = TraceLayer::new_for_http()
        .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    let site = Router::new()
        .nest("/api", api)
        .nest(
            "/rss",
            routes::syndication::router().layer(CompressionLayer::new()),
        )
        .route(
            "/uploads/feedback/{name}",
            axum::routing::get(routes::web::uploaded_file),
        )
        .route(
            bots::telegram::WEBHOOK_PATH,
            axum::routing::post(routes::bots::telegram_webhook),
        )
        .route(
            bots::line::WEBHOOK_PATH,
            axum::routing::post(routes::bots::line_webhook),
        )
        .route(
            "/manifest.webmanifest",
            axum::routing::get(routes::manifest::manifest),
        )
        .route(
            "/{locale}/manifest.webmanifest",
            axum::routing::get(routes::manifest::localized),
        )
        .route(
            "/unsubscribe/alerts",
            axum::routing::get(routes::unsubscribe::show).post(routes::unsubscribe::confirm),
        )
        .route("/guides/{name}", axum::routing::get(routes::bots::guide))
        .route(
            "/{locale}/guides/{name}",
            axum::routing::get(routes::bots::localized_guide),
        )
        .merge(web);
    routes::security_headers::apply(site, &state.config, &shell)
        .layer(trace)
        .with_state(state)
}
