//! A local price API shaped as CoinGecko's: `GET /simple/price?ids=…&vs_currencies=usd&…` and
//! `GET /coins/{id}/market_chart?vs_currency=usd&days=N`, answering from the prices a test sets,
//! or as a provider does when it fails: 500, 429 with `Retry-After`, too slow, or nonsense.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::serve_peer;

/// How the API answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Fine,
    Error,
    RateLimited,
    /// Answers after 6 s (the server gives up after 5).
    Slow,
    /// Prices that are no prices.
    Nonsense,
}

#[derive(Default)]
struct Inner {
    /// id → (usd, 24 h change %, market cap, volume).
    prices: HashMap<String, (f64, f64, f64, f64)>,
    mode: Option<Mode>,
    /// Each call's path and its ids (for `/simple/price`).
    calls: Vec<(String, Vec<String>)>,
    keys: Vec<Option<String>>,
}

#[derive(Clone)]
pub struct PriceApi {
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

impl PriceApi {
    pub async fn start() -> Self {
        let inner: Arc<Mutex<Inner>> = Arc::default();
        let router = Router::new()
            .route("/simple/price", get(simple_price))
            .route("/coins/{id}/market_chart", get(market_chart))
            .with_state(inner.clone());
        Self {
            base: serve_peer(router).await,
            inner,
        }
    }

    pub fn set(&self, id: &str, usd: f64, change: f64) {
        let cap = usd * 1_000_000.0;
        self.inner
            .lock()
            .expect("lock")
            .prices
            .insert(id.to_owned(), (usd, change, cap, cap / 10.0));
    }

    pub fn mode(&self, mode: Mode) {
        self.inner.lock().expect("lock").mode = Some(mode);
    }

    /// The calls so far: path and ids.
    pub fn calls(&self) -> Vec<(String, Vec<String>)> {
        self.inner.lock().expect("lock").calls.clone()
    }

    /// The API key each call carried (`x-cg-demo-api-key`).
    pub fn keys(&self) -> Vec<Option<String>> {
        self.inner.lock().expect("lock").keys.clone()
    }
}

/// Logs the call and answers with a fault if one is set; `None` to go on.
async fn fault(
    inner: &Arc<Mutex<Inner>>,
    headers: &HeaderMap,
    path: String,
    ids: Vec<String>,
) -> Option<Response> {
    let mode = {
        let mut inner = inner.lock().expect("lock");
        inner.calls.push((path, ids));
        let key = headers
            .get("x-cg-demo-api-key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        inner.keys.push(key);
        inner.mode.unwrap_or(Mode::Fine)
    };
    match mode {
        Mode::Fine | Mode::Nonsense => None,
        Mode::Error => Some((StatusCode::INTERNAL_SERVER_ERROR, "upstream down").into_response()),
        Mode::RateLimited => Some(
            (
                StatusCode::TOO_MANY_REQUESTS,
                [("retry-after", "60")],
                Json(json!({ "status": { "error_code": 429, "error_message": "You've exceeded the Rate Limit." } })),
            )
                .into_response(),
        ),
        Mode::Slow => {
            tokio::time::sleep(Duration::from_secs(6)).await;
            None
        }
    }
}

async fn simple_price(
    State(inner): State<Arc<Mutex<Inner>>>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let ids: Vec<String> = query
        .get("ids")
        .map(|ids| ids.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    let complete = query.get("vs_currencies").map(String::as_str) == Some("usd")
        && [
            "include_24hr_change",
            "include_market_cap",
            "include_24hr_vol",
        ]
        .iter()
        .all(|flag| query.get(*flag).map(String::as_str) == Some("true"));
    if !complete || ids.len() > 250 {
        return (StatusCode::BAD_REQUEST, "bad query").into_response();
    }
    if let Some(answer) = fault(&inner, &headers, "/simple/price".to_owned(), ids.clone()).await {
        return answer;
    }
    let inner = inner.lock().expect("lock");
    let nonsense = inner.mode == Some(Mode::Nonsense);
    let mut body = serde_json::Map::new();
    for id in ids {
        let Some(&(usd, change, cap, volume)) = inner.prices.get(&id) else {
            continue;
        };
        let figures = if nonsense {
            json!({ "usd": if usd > 1.0 { json!("a lot") } else { json!(-usd) }, "usd_24h_change": change })
        } else {
            json!({ "usd": usd, "usd_24h_change": change, "usd_market_cap": cap, "usd_24h_vol": volume })
        };
        body.insert(id, figures);
    }
    Json(Value::Object(body)).into_response()
}

async fn market_chart(
    State(inner): State<Arc<Mutex<Inner>>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let days: i64 = query.get("days").and_then(|d| d.parse().ok()).unwrap_or(0);
    if query.get("vs_currency").map(String::as_str) != Some("usd") || days < 1 {
        return (StatusCode::BAD_REQUEST, "bad query").into_response();
    }
    if let Some(answer) = fault(
        &inner,
        &headers,
        format!("/coins/{id}/market_chart"),
        vec![id.clone()],
    )
    .await
    {
        return answer;
    }
    let inner = inner.lock().expect("lock");
    let Some(&(usd, ..)) = inner.prices.get(&id) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({ "error": "coin not found" })),
        )
            .into_response();
    };
    // One point an hour, in milliseconds, rising to today's price.
    let now_ms = 1_795_305_600_000_i64;
    let points: Vec<Value> = (0..days * 24)
        .map(|h| {
            let at = now_ms - (days * 24 - 1 - h) * 3_600_000;
            json!([at, usd * (0.9 + 0.1 * (h + 1) as f64 / (days * 24) as f64)])
        })
        .collect();
    Json(json!({ "prices": points, "market_caps": [], "total_volumes": [] })).into_response()
}
