//! A local OAuth 2 / OpenID Connect provider speaking the real protocol: `/authorize` redirects
//! back with a code, `/token` checks client authentication, the redirect URI, single use and the
//! PKCE S256 verifier, and signs ID tokens (RS256) whose keys `/jwks` serves; `/users/me` answers
//! as X/Twitter's API does for the bearer token it issued.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::{START, serve_peer};

pub const CLIENT_ID: &str = "blockbrief-client";
pub const CLIENT_SECRET: &str = "blockbrief-secret";
pub const KID: &str = "test-key-1";

/// An RSA key made with openssl: its PEM for signing, its modulus (base64url) for the JWK.
pub fn rsa_key(dir: &std::path::Path, name: &str) -> (Vec<u8>, String) {
    let path = dir.join(name);
    let made = std::process::Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
        ])
        .arg(&path)
        .output()
        .expect("openssl runs");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let modulus = std::process::Command::new("openssl")
        .args(["rsa", "-noout", "-modulus", "-in"])
        .arg(&path)
        .output()
        .expect("openssl");
    let text = String::from_utf8(modulus.stdout).expect("utf-8");
    let hex_n = text.trim().strip_prefix("Modulus=").expect("modulus");
    (
        std::fs::read(&path).expect("pem"),
        URL_SAFE_NO_PAD.encode(hex::decode(hex_n).expect("hex")),
    )
}

/// A JWKS with one RSA key.
pub fn jwks(n: &str) -> serde_json::Value {
    json!({ "keys": [{ "kty": "RSA", "kid": KID, "use": "sig", "alg": "RS256", "n": n, "e": "AQAB" }] })
}

pub fn sign(pem: &[u8], claims: &serde_json::Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(KID.to_owned());
    encode(
        &header,
        claims,
        &EncodingKey::from_rsa_pem(pem).expect("key"),
    )
    .expect("token")
}

struct Grant {
    challenge: String,
    nonce: Option<String>,
    redirect_uri: String,
}

pub struct Provider {
    pub base: String,
    /// Sign ID tokens with a nonce other than the one asked for.
    pub wrong_nonce: AtomicBool,
    pub issuer: String,
    _keys: tempfile::TempDir,
}

struct Shared {
    grants: Mutex<HashMap<String, Grant>>,
    pem: Vec<u8>,
    n: String,
    issuer: Mutex<String>,
    provider: Mutex<Option<Arc<Provider>>>,
}

async fn authorize(
    State(s): State<Arc<Shared>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let field = |k: &str| q.get(k).cloned().unwrap_or_default();
    if field("client_id") != CLIENT_ID
        || field("code_challenge_method") != "S256"
        || field("response_type") != "code"
    {
        return (StatusCode::BAD_REQUEST, "bad authorization request").into_response();
    }
    let code = format!("code-{}", s.grants.lock().expect("lock").len() + 1);
    let grant = Grant {
        challenge: field("code_challenge"),
        nonce: q.get("nonce").cloned(),
        redirect_uri: field("redirect_uri"),
    };
    s.grants.lock().expect("lock").insert(code.clone(), grant);
    Redirect::to(&format!(
        "{}?code={code}&state={}",
        field("redirect_uri"),
        field("state")
    ))
    .into_response()
}

async fn token(
    State(s): State<Arc<Shared>>,
    headers: HeaderMap,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let field = |k: &str| f.get(k).cloned().unwrap_or_default();
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    let by_header = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        == Some(basic.as_str());
    if !(by_header || field("client_secret") == CLIENT_SECRET) || field("client_id") != CLIENT_ID {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "error": "invalid_client" })),
        )
            .into_response();
    }
    let Some(grant) = s.grants.lock().expect("lock").remove(&field("code")) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response();
    };
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(field("code_verifier").as_bytes()));
    if challenge != grant.challenge
        || field("redirect_uri") != grant.redirect_uri
        || field("grant_type") != "authorization_code"
    {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response();
    }
    let provider = s.provider.lock().expect("lock").clone().expect("provider");
    let mut answer =
        json!({ "access_token": "at-reader", "token_type": "Bearer", "expires_in": 3600 });
    if let Some(nonce) = grant.nonce {
        let nonce = if provider.wrong_nonce.load(Ordering::SeqCst) {
            "not-your-nonce".to_owned()
        } else {
            nonce
        };
        let issuer = s.issuer.lock().expect("lock").clone();
        let claims = json!({ "iss": issuer, "aud": CLIENT_ID, "sub": "10769150350006150715113082367", "iat": START,
                             "exp": START + 3600, "nonce": nonce, "email": "reader@gmail.example", "name": "Reader" });
        answer["id_token"] = json!(sign(&s.pem, &claims));
    }
    Json(answer).into_response()
}

async fn users_me(headers: HeaderMap) -> Response {
    if headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        != Some("Bearer at-reader")
    {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    Json(json!({ "data": { "id": "2244994945", "name": "Reader", "username": "reader_bb" } }))
        .into_response()
}

impl Provider {
    pub async fn start() -> Arc<Self> {
        let keys = tempfile::tempdir().expect("dir");
        let (pem, n) = rsa_key(keys.path(), "provider.pem");
        let shared = Arc::new(Shared {
            grants: Mutex::default(),
            pem,
            n,
            issuer: Mutex::default(),
            provider: Mutex::default(),
        });
        let jwks_shared = shared.clone();
        let router = Router::new()
            .route("/authorize", get(authorize))
            .route("/token", post(token))
            .route(
                "/jwks",
                get(move || async move { Json(jwks(&jwks_shared.n)) }),
            )
            .route("/users/me", get(users_me))
            .with_state(shared.clone());
        let base = serve_peer(router).await;
        let provider = Arc::new(Self {
            issuer: base.clone(),
            base,
            wrong_nonce: AtomicBool::new(false),
            _keys: keys,
        });
        *shared.issuer.lock().expect("lock") = provider.issuer.clone();
        *shared.provider.lock().expect("lock") = Some(provider.clone());
        provider
    }
}
