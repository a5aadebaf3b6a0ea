//! Google, Line and X/Twitter sign-in against the local provider, on SQLite and PostgreSQL:
//! state, browser binding, PKCE and nonce each fail closed.

use std::sync::atomic::Ordering;

use crate::common::provider::{CLIENT_ID, CLIENT_SECRET, Provider};
use crate::common::{Backend, TestApp, assert_error};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn app_with(backend: Backend, provider: &Provider) -> TestApp {
    let base = provider.base.clone();
    TestApp::start_with(backend, move |c| {
        c.google_client_id = Some(CLIENT_ID.to_owned());
        c.google_client_secret = CLIENT_SECRET.to_owned();
        c.google_auth_url = format!("{base}/authorize");
        c.google_token_url = format!("{base}/token");
        c.google_jwks_url = format!("{base}/jwks");
        c.google_issuer = base.clone();
        c.twitter_client_id = Some(CLIENT_ID.to_owned());
        c.twitter_client_secret = CLIENT_SECRET.to_owned();
        c.twitter_auth_url = format!("{base}/authorize");
        c.twitter_token_url = format!("{base}/token");
        c.twitter_userinfo_url = format!("{base}/users/me");
    })
    .await
}

/// Starts an authorization; returns the authorize URL, the state and the browser cookie.
async fn start(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (String, String, String) {
    let mut req = app.http.post(app.url(path)).json(&json!({}));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.expect("start");
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
        .unwrap_or_default();
    let body: Value = res.json().await.expect("envelope");
    let data = &body["data"];
    (
        data["auth_url"]
            .as_str()
            .unwrap_or_else(|| panic!("{body}"))
            .to_owned(),
        data["state"].as_str().expect("state").to_owned(),
        cookie,
    )
}

/// The person consents at the provider: follows the authorize URL, returns the code it sends back.
async fn consent(auth_url: &str) -> String {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let res = client.get(auth_url).send().await.expect("authorize");
    assert_eq!(
        res.status(),
        StatusCode::SEE_OTHER,
        "{:?}",
        res.text().await
    );
    let location = res.headers()["location"]
        .to_str()
        .expect("location")
        .to_owned();
    assert!(
        location.starts_with("http://127.0.0.1:8080/oauth/by/web?"),
        "{location}"
    );
    let query = location.split_once('?').expect("query").1;
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix("code="))
        .expect("code")
        .to_owned()
}

async fn complete(
    app: &TestApp,
    path: &str,
    body: Value,
    cookie: &str,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let mut headers = vec![("Cookie", cookie)];
    if let Some(t) = token {
        headers.push(("X-TOKEN", t));
    }
    app.post_with(path, body, &headers).await
}

/// Completing is refused with the catalogue `code`.
async fn refused(
    app: &TestApp,
    path: &str,
    body: Value,
    cookie: &str,
    token: Option<&str>,
    code: i64,
) {
    assert_error(&complete(app, path, body, cookie, token).await, 200, code);
}

async fn google_signs_in_with_pkce_state_and_nonce(backend: Backend) {
    let provider = Provider::start().await;
    let app = app_with(backend, &provider).await;
    let (auth_url, state, cookie) = start(&app, "/user/login/oauth/google", &[]).await;
    for part in [
        "response_type=code",
        "code_challenge_method=S256",
        "code_challenge=",
        "nonce=",
        "scope=openid%20email%20profile",
    ] {
        assert!(auth_url.contains(part), "{part} in {auth_url}");
    }
    assert!(state.len() >= 22, "at least 128 bits");
    assert!(cookie.starts_with("bb_oauth="), "{cookie}");
    let code = consent(&auth_url).await;
    let path = "/user/login/oauth/google/complete";
    // Another browser (no cookie, or someone else's) cannot finish it.
    refused(
        &app,
        path,
        json!({ "code": code, "state": state }),
        "bb_oauth=0000000000000000000000000000000000000000",
        None,
        4407,
    )
    .await;
    let (_, session) = complete(
        &app,
        path,
        json!({ "code": code, "state": state }),
        &cookie,
        None,
    )
    .await;
    assert_eq!(session["data"]["type"], 1, "{session}");
    let token = session["data"]["token"].as_str().expect("token");
    let (_, accounts) = app
        .post_with("/user/account/list", json!({}), &[("X-TOKEN", token)])
        .await;
    assert_eq!(accounts["data"]["list"][0]["type"], "google");
    assert_eq!(accounts["data"]["list"][0]["name"], "reader@gmail.example");
    // The state is single use.
    refused(
        &app,
        path,
        json!({ "code": code, "state": state }),
        &cookie,
        None,
        4407,
    )
    .await;
}

async fn every_mistake_fails_closed(backend: Backend) {
    let provider = Provider::start().await;
    let app = app_with(backend, &provider).await;
    let path = "/user/login/oauth/google/complete";
    // A code the provider never issued: it refuses the exchange.
    let (_, state, cookie) = start(&app, "/user/login/oauth/google", &[]).await;
    refused(
        &app,
        path,
        json!({ "code": "forged", "state": state }),
        &cookie,
        None,
        4407,
    )
    .await;
    // A state we never issued.
    refused(
        &app,
        path,
        json!({ "code": "x", "state": "made-up" }),
        &cookie,
        None,
        4407,
    )
    .await;
    // An ID token that does not carry our nonce.
    provider.wrong_nonce.store(true, Ordering::SeqCst);
    let (auth_url, state, cookie) = start(&app, "/user/login/oauth/google", &[]).await;
    let code = consent(&auth_url).await;
    refused(
        &app,
        path,
        json!({ "code": code, "state": state }),
        &cookie,
        None,
        4407,
    )
    .await;
    provider.wrong_nonce.store(false, Ordering::SeqCst);
    // The person said no.
    let (_, state, cookie) = start(&app, "/user/login/oauth/google", &[]).await;
    refused(
        &app,
        path,
        json!({ "error": "access_denied", "state": state }),
        &cookie,
        None,
        4408,
    )
    .await;
    // Too late: states live 15 minutes.
    let (auth_url, state, cookie) = start(&app, "/user/login/oauth/google", &[]).await;
    let code = consent(&auth_url).await;
    app.clock.advance(900);
    refused(
        &app,
        path,
        json!({ "code": code, "state": state }),
        &cookie,
        None,
        4407,
    )
    .await;
    // A state started for Google cannot finish a Twitter sign-in.
    let (auth_url, state, cookie) = start(&app, "/user/login/oauth/google", &[]).await;
    let code = consent(&auth_url).await;
    refused(
        &app,
        "/user/login/oauth/twitter/complete",
        json!({ "code": code, "state": state }),
        &cookie,
        None,
        4407,
    )
    .await;
    // Unknown and unconfigured providers.
    assert_error(
        &app.post("/user/login/oauth/myspace", json!({})).await,
        404,
        4040,
    );
    assert_error(
        &app.post("/user/login/oauth/line", json!({})).await,
        200,
        4406,
    );
}

async fn twitter_signs_in_and_binds(backend: Backend) {
    let provider = Provider::start().await;
    let app = app_with(backend, &provider).await;
    // Binding to a signed-in user completes bind_twitter.
    let me = app.sign_in("tw@example.org").await;
    let token = me["token"].as_str().expect("token");
    let (auth_url, state, cookie) = start(
        &app,
        "/user/account/bind/twitter/oauth",
        &[("X-TOKEN", token)],
    )
    .await;
    assert!(!auth_url.contains("nonce="), "no OIDC nonce for Twitter");
    let code = consent(&auth_url).await;
    let bind = "/user/account/bind/twitter/oauth/complete";
    let (_, bound) = complete(
        &app,
        bind,
        json!({ "code": code, "state": state }),
        &cookie,
        Some(token),
    )
    .await;
    assert_eq!(
        (
            bound["data"]["type"].as_str(),
            bound["data"]["name"].as_str()
        ),
        (Some("twitter"), Some("@reader_bb")),
        "{bound}"
    );
    let (_, tasks) = app
        .post_with(
            "/point/task/list",
            json!({ "group": "novice" }),
            &[("X-TOKEN", token)],
        )
        .await;
    let task = tasks["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["event_type"] == "bind_twitter")
        .cloned();
    assert_eq!(task.expect("task")["status"], "to_receive");
    // Signing in with Twitter now reaches the same user.
    let (auth_url, state, cookie) = start(&app, "/user/login/oauth/twitter", &[]).await;
    let code = consent(&auth_url).await;
    let (_, session) = complete(
        &app,
        "/user/login/oauth/twitter/complete",
        json!({ "code": code, "state": state }),
        &cookie,
        None,
    )
    .await;
    assert_eq!(session["data"]["id"], me["id"], "{session}");
    // Another user cannot bind the same X account; a denied binding says so.
    app.clock.advance(61);
    let other = app.sign_in("other@example.org").await;
    let other_token = other["token"].as_str().expect("token");
    let (auth_url, state, cookie) = start(
        &app,
        "/user/account/bind/twitter/oauth",
        &[("X-TOKEN", other_token)],
    )
    .await;
    let code = consent(&auth_url).await;
    refused(
        &app,
        bind,
        json!({ "code": code, "state": state }),
        &cookie,
        Some(other_token),
        4404,
    )
    .await;
    let (_, state, cookie) = start(
        &app,
        "/user/account/bind/twitter/oauth",
        &[("X-TOKEN", other_token)],
    )
    .await;
    refused(
        &app,
        bind,
        json!({ "error": "access_denied", "state": state }),
        &cookie,
        Some(other_token),
        4408,
    )
    .await;
}

on_both_databases!(
    google_signs_in_with_pkce_state_and_nonce,
    every_mistake_fails_closed,
    twitter_signs_in_and_binds
);
