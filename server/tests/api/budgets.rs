//! Per-client budgets on everything anyone may ask without signing in, and guest tokens that
//! expire when unused.

use std::str::FromStr;

use sea_orm::{EntityTrait, PaginatorTrait, QueryOrder};
use serde_json::{Value, json};
use server::auth::tokens::GUEST_TOKEN_TTL_SECONDS;
use server::client_addr::TrustedProxies;
use server::entity::session;

use crate::common::{Backend, TestApp, assert_error};

const CLIENT_A: &str = "198.51.100.1";
const CLIENT_B: &str = "198.51.100.2";

/// A server behind a proxy on loopback, so each test request may say which client it is.
async fn behind_proxy(backend: Backend) -> TestApp {
    TestApp::start_with(backend, |c| {
        c.trust_proxy = TrustedProxies::from_str("127.0.0.1").expect("setting");
        c.apple_client_id = Some("news.blockbrief.web".to_owned());
    })
    .await
}

async fn post_as(
    app: &TestApp,
    client: &str,
    path: &str,
    body: Value,
) -> (reqwest::StatusCode, Value) {
    app.post_with(path, body, &[("x-forwarded-for", client)])
        .await
}

/// Spends `n` successful calls, then expects the next one refused with a wait.
async fn spend_then_refused(app: &TestApp, path: &str, body: &Value, n: usize) {
    for i in 0..n {
        let got = post_as(app, CLIENT_A, path, body.clone()).await;
        assert_eq!(got.1["code"], 2000, "{path} call {i}: {}", got.1);
    }
    let refused = post_as(app, CLIENT_A, path, body.clone()).await;
    assert_error(&refused, 429, 4290);
    assert!(
        refused.1["data"]["retry_after"]
            .as_i64()
            .unwrap_or_default()
            > 0
    );
    let other = post_as(app, CLIENT_B, path, body.clone()).await;
    assert_eq!(other.1["code"], 2000, "another client has its own budget");
}

async fn guest_tokens_are_capped_per_client(backend: Backend) {
    let app = behind_proxy(backend).await;
    spend_then_refused(&app, "/user/gtoken", &json!({}), 30).await;
    let stored = session::Entity::find()
        .count(&app.state.db)
        .await
        .expect("count");
    assert_eq!(stored, 31, "a refused request stores nothing");
    app.clock.advance(3600);
    assert_eq!(
        post_as(&app, CLIENT_A, "/user/gtoken", json!({})).await.1["code"],
        2000
    );
}

async fn anonymous_writes_have_budgets(backend: Backend) {
    let app = behind_proxy(backend).await;
    let address = json!({ "address": "0x52908400098527886E0F7030069857D2E4169EE7" });
    spend_then_refused(&app, "/user/sig/msg", &address, 30).await;
    spend_then_refused(&app, "/user/login/apple/start", &json!({}), 30).await;
    let batch = json!({ "track_logs": [] });
    spend_then_refused(&app, "/log/track", &batch, 120).await;
    app.clock.advance(60);
    assert_eq!(
        post_as(&app, CLIENT_A, "/log/track", batch).await.1["code"],
        2000
    );
}

async fn search_is_limited_per_client(backend: Backend) {
    let app = behind_proxy(backend).await;
    let searches: Vec<Value> = (0..20).map(|i| json!({ "q": format!("q{i}") })).collect();
    for search in &searches {
        let got = post_as(&app, CLIENT_A, "/search", search.clone()).await;
        assert_eq!(got.1["code"], 2000, "a burst of 20 is allowed: {search}");
    }
    let refused = post_as(&app, CLIENT_A, "/search", json!({ "q": "more" })).await;
    assert_error(&refused, 429, 4290);
    assert_eq!(refused.1["data"]["retry_after"], 4);
    let other = post_as(&app, CLIENT_B, "/search", json!({ "q": "bitcoin" })).await;
    assert_eq!(other.1["code"], 2000, "another client has its own budget");
    app.clock.advance(4);
    let again = post_as(&app, CLIENT_A, "/search", json!({ "q": "again" })).await;
    assert_eq!(again.1["code"], 2000, "the next window");
}

/// Two servers on one PostgreSQL share a client's search budget: together they allow what one
/// does, not twice as much.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_search_budgets_hold_across_servers() {
    let app = behind_proxy(Backend::Postgres).await;
    let beside = app.start_beside().await;
    let mut allowed = 0;
    for i in 0..60 {
        let server = if i % 2 == 0 { &app } else { &beside };
        let got = post_as(server, CLIENT_A, "/search", json!({ "q": format!("q{i}") })).await;
        match got.1["code"].as_i64() {
            Some(2000) => allowed += 1,
            _ => assert_error(&got, 429, 4290),
        }
    }
    assert_eq!(allowed, 20, "the two servers together allowed one budget");
}

async fn unused_guest_tokens_expire_and_used_ones_live_on(backend: Backend) {
    let app = TestApp::start(backend).await;
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let got = app.post("/user/gtoken", json!({})).await;
        tokens.push(got.1["data"]["token"].as_str().expect("token").to_owned());
    }
    let kept = tokens[0].as_str();
    // Used every 20 days, a guest token lives on; left alone for 30 days, it is gone.
    for _ in 0..3 {
        app.clock.advance(20 * 24 * 3600);
        let read = app
            .post_with("/feed/list", json!({}), &[("X-GTOKEN", kept)])
            .await;
        assert_eq!(read.1["code"], 2000);
    }
    let now = app.state.now();
    let rows = session::Entity::find()
        .order_by_asc(session::Column::Id)
        .all(&app.state.db)
        .await
        .expect("rows");
    let expiries: Vec<i64> = rows.iter().map(|s| s.expires_at - now).collect();
    assert_eq!(
        expiries,
        [
            GUEST_TOKEN_TTL_SECONDS,
            GUEST_TOKEN_TTL_SECONDS - 60 * 24 * 3600
        ],
        "the used token was renewed at its last use, the other expired"
    );
}

on_both_databases!(
    guest_tokens_are_capped_per_client,
    anonymous_writes_have_budgets,
    search_is_limited_per_client,
    unused_guest_tokens_expire_and_used_ones_live_on,
);
