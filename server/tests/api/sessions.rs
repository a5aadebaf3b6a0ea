//! Signing out: one session or all of a user's, on every server sharing the database.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{Backend, TestApp, assert_error};

async fn info_code(app: &TestApp, token: &str) -> i64 {
    let got = app
        .post_with("/user/info", json!({}), &[("X-TOKEN", token)])
        .await;
    got.1["code"].as_i64().unwrap_or_default()
}

async fn signing_out_everywhere_ends_every_session_of_the_user(backend: Backend) {
    let app = TestApp::start(backend).await;
    let phone = app.sign_in("everywhere@example.org").await;
    app.clock.advance(60);
    let laptop = app.sign_in("everywhere@example.org").await;
    app.clock.advance(60);
    let someone_else = app.sign_in("other@example.org").await;
    let tokens = [&phone, &laptop, &someone_else].map(|s| s["token"].as_str().expect("token"));
    for token in tokens {
        assert_eq!(info_code(&app, token).await, 2000, "cached before");
    }
    let done = app
        .post_with("/user/logout/all", json!({}), &[("X-TOKEN", tokens[1])])
        .await;
    assert_eq!(done.1["data"]["revoked"], 2, "{}", done.1);
    assert_eq!(info_code(&app, tokens[0]).await, 401);
    assert_eq!(info_code(&app, tokens[1]).await, 401);
    assert_eq!(
        info_code(&app, tokens[2]).await,
        2000,
        "another user is untouched"
    );
    assert_error(&app.post("/user/logout/all", json!({})).await, 401, 4010);
}

/// Another server's cache learns of a sign-out within a second, not after its 30 s.
async fn a_sign_out_reaches_every_server_within_a_second(backend: Backend) {
    let first = TestApp::start(backend).await;
    let second = first.start_beside().await;
    let one = first.sign_in("multi@example.org").await;
    first.clock.advance(60);
    let two = first.sign_in("multi@example.org").await;
    let (one, two) = (
        one["token"].as_str().expect("t"),
        two["token"].as_str().expect("t"),
    );
    assert_eq!(
        info_code(&second, one).await,
        2000,
        "now cached on the second server"
    );
    assert_eq!(info_code(&second, two).await, 2000);
    let out = first
        .post_with("/user/logout", json!({}), &[("X-TOKEN", one)])
        .await;
    assert_eq!(out.1["code"], 2000);
    gone_within_a_second(&second, one).await;
    let all = first
        .post_with("/user/logout/all", json!({}), &[("X-TOKEN", two)])
        .await;
    assert_eq!(all.1["code"], 2000);
    gone_within_a_second(&second, two).await;
}

/// The manual clock stands still, so only the announcement can empty the cache.
async fn gone_within_a_second(app: &TestApp, token: &str) {
    let started = Instant::now();
    while info_code(app, token).await != 401 {
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "sign-out not seen within 1 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

on_both_databases!(signing_out_everywhere_ends_every_session_of_the_user);

mod across_servers {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn postgres() {
        super::a_sign_out_reaches_every_server_within_a_second(crate::common::Backend::Postgres)
            .await;
    }
}
