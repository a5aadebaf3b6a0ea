//! `make bench-markets`, part one: one price poll updating 1,000 tokens (four `/simple/price`
//! calls of 250 ids to a local CoinGecko-shaped API on loopback, then the writes), ten polls on
//! the embedded SQLite and, when `DATABASE_URL` names one, on PostgreSQL: p50 and max. Prints one
//! JSON line per database.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::Query;
use axum::routing::get;
use serde_json::{Value, json};
use server::config::Config;
use server::platform::{ManualClock, OsRandom};
use server::state::AppState;

const TOKENS: usize = 1_000;
const POLLS: usize = 10;

#[tokio::main]
async fn main() {
    // Every id the API is asked for has a price that moves a little from poll to poll.
    let router = Router::new().route(
        "/simple/price",
        get(|Query(query): Query<HashMap<String, String>>| async move {
            let moved = rand::random::<f64>() * 0.02;
            let body: serde_json::Map<String, Value> = query
                .get("ids")
                .map(|ids| ids.split(',').collect::<Vec<_>>())
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(n, id)| {
                    let usd = (n + 1) as f64 * (1.0 + moved);
                    let figures = json!({ "usd": usd, "usd_24h_change": moved * 100.0,
                        "usd_market_cap": usd * 1e6, "usd_24h_vol": usd * 1e5 });
                    (id.to_owned(), figures)
                })
                .collect();
            axum::Json(Value::Object(body))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let api = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mut databases = vec![("sqlite", None)];
    if let Ok(url) = std::env::var("DATABASE_URL")
        && !url.is_empty()
    {
        databases.push(("postgres", Some(url)));
    }
    for (name, url) in databases {
        let figures = polls(&api, url).await;
        println!(
            "{}",
            json!({ "database": name, "tokens": TOKENS, "polls": POLLS, "ms": figures })
        );
    }
}

async fn polls(api: &str, url: Option<String>) -> Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::embedded(dir.path().join("data"));
    config.database_url = url;
    config.markets.price_api_url = Some(api.to_owned());
    config.admin_token = None;
    std::fs::create_dir_all(&config.data_dir).expect("data dir");
    let db = server::open_database(&config).await.expect("database");
    let clock = Arc::new(ManualClock::new(1_795_305_600));
    let state = AppState::new(config, db, clock.clone(), Arc::new(OsRandom)).expect("state");
    let tokens: Vec<Value> = (0..TOKENS)
        .map(|n| {
            json!({ "symbol": format!("BENCH{n}"), "name": format!("Bench {n}"),
            "price_id": format!("bench-{n}") })
        })
        .collect();
    let catalogue: server::content::write::CatalogueInput =
        serde_json::from_value(json!({ "tokens": tokens })).expect("catalogue");
    server::content::write::upsert_catalogue(&state.ctx, &catalogue)
        .await
        .expect("catalogue");
    let mut times = Vec::with_capacity(POLLS);
    for _ in 0..POLLS {
        let started = Instant::now();
        let written = server::markets::poll::poll_if_due(&state.ctx, &state.markets, "bench")
            .await
            .expect("poll");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(written, Some(TOKENS), "every token priced");
        clock.advance(60);
    }
    times.sort_by(f64::total_cmp);
    json!({ "p50": times[POLLS / 2], "max": times[POLLS - 1] })
}
