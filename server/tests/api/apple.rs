//! Sign in with Apple against a local JWKS endpoint, with RSA keys the test makes (openssl) and
//! identity tokens it signs: forged, expired, wrong-audience, wrong-issuer and replayed tokens fail.

use crate::common::provider::{KID, jwks, rsa_key, sign};
use crate::common::{Backend, START, TestApp, assert_error, serve_peer};
use axum::routing::get;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

const CLIENT_ID: &str = "zone.blockbrief.web";
const ISSUER: &str = "https://appleid.apple.com";

fn claims(nonce: &str) -> Value {
    json!({ "iss": ISSUER, "aud": CLIENT_ID, "sub": "001234.abcdef", "iat": START, "exp": START + 600,
            "nonce": nonce, "email": "reader@privaterelay.appleid.com" })
}

async fn nonce(app: &TestApp) -> String {
    let (_, got) = app.post("/user/login/apple/start", json!({})).await;
    got["data"]["nonce"]
        .as_str()
        .unwrap_or_else(|| panic!("a nonce: {got}"))
        .to_owned()
}

async fn login(app: &TestApp, token: &str) -> (reqwest::StatusCode, Value) {
    app.post(
        "/user/login/apple",
        json!({ "identity_token": token, "full_name": "Ada" }),
    )
    .await
}

async fn apple_tokens_are_verified_and_used_once(backend: Backend) {
    let keys = tempfile::tempdir().expect("dir");
    let (apple_pem, n) = rsa_key(keys.path(), "apple.pem");
    let (forger_pem, _) = rsa_key(keys.path(), "forger.pem");
    let n_for_hmac = n.clone();
    let jwks = jwks(&n);
    let jwks_url = serve_peer(
        axum::Router::new().route("/auth/keys", get(move || async move { axum::Json(jwks) })),
    )
    .await;
    let app = TestApp::start_with(backend, |c| {
        c.apple_client_id = Some(CLIENT_ID.to_owned());
        c.apple_jwks_url = format!("{jwks_url}/auth/keys");
    })
    .await;

    // The web's popup learns where Apple is and what to ask for from the start.
    let (_, start) = app.post("/user/login/apple/start", json!({})).await;
    assert_eq!(start["data"]["client_id"], CLIENT_ID, "{start}");
    assert_eq!(
        start["data"]["script_url"],
        "https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js"
    );
    assert_eq!(
        start["data"]["redirect_uri"],
        app.state.config.public_url.as_str()
    );

    // The genuine token signs in, once.
    let good = sign(&apple_pem, &claims(&nonce(&app).await));
    let (_, session) = login(&app, &good).await;
    assert_eq!(session["data"]["type"], 1, "{session}");
    let auth = [("X-TOKEN", session["data"]["token"].as_str().expect("token"))];
    let (_, accounts) = app.post_with("/user/account/list", json!({}), &auth).await;
    assert_eq!(
        accounts["data"]["list"][0],
        json!({ "type": "apple", "name": "reader@privaterelay.appleid.com", "id": accounts["data"]["list"][0]["id"] })
    );
    assert_error(&login(&app, &good).await, 200, 4407);

    // Each forgery or mistake fails closed.
    let with = |patch: Value, nonce: &str| {
        let mut c = claims(nonce);
        for (k, v) in patch.as_object().expect("patch") {
            c[k] = v.clone();
        }
        c
    };
    let cases = [
        ("forged", sign(&forger_pem, &claims(&nonce(&app).await))),
        (
            "expired",
            sign(
                &apple_pem,
                &with(json!({ "exp": START - 61 }), &nonce(&app).await),
            ),
        ),
        (
            "other audience",
            sign(
                &apple_pem,
                &with(json!({ "aud": "com.evil.app" }), &nonce(&app).await),
            ),
        ),
        (
            "other issuer",
            sign(
                &apple_pem,
                &with(json!({ "iss": "https://evil.example" }), &nonce(&app).await),
            ),
        ),
        (
            "nonce never issued",
            sign(&apple_pem, &claims("NotOneOfOurs")),
        ),
        (
            "no nonce",
            sign(&apple_pem, &with(json!({ "nonce": null }), "")),
        ),
        ("not a token", "abc.def.ghi".to_owned()),
        ("HMAC keyed with the public modulus", {
            let mut header = Header::new(Algorithm::HS256);
            header.kid = Some(KID.to_owned());
            let secret = EncodingKey::from_secret(n_for_hmac.as_bytes());
            encode(&header, &claims(&nonce(&app).await), &secret).expect("token")
        }),
    ];
    for (what, bad) in cases {
        let got = login(&app, &bad).await;
        assert_eq!(got.1["code"], 4407, "{what}: {}", got.1);
    }
    // A nonce expires after ten minutes.
    let late = nonce(&app).await;
    app.clock.advance(600);
    let stale = sign(&apple_pem, &with(json!({ "exp": START + 1200 }), &late));
    assert_error(&login(&app, &stale).await, 200, 4407);
}

async fn apple_is_off_without_a_client_id(backend: Backend) {
    let app = TestApp::start(backend).await;
    assert_error(
        &app.post("/user/login/apple/start", json!({})).await,
        200,
        4406,
    );
    assert_error(&login(&app, "abc.def.ghi").await, 200, 4406);
}

on_both_databases!(
    apple_tokens_are_verified_and_used_once,
    apple_is_off_without_a_client_id
);
