//! A local push service that speaks RFC 8030 as browsers' push services do: `POST /push/{id}`
//! with an encrypted body, answered 201 with a `Location`, or 404/410 for a browser that left,
//! or 429 with `Retry-After`. Each message is checked the way a real service and browser would:
//! the VAPID JWT verified against the `k` key (RFC 8292), the body decrypted with the browser's
//! keys (RFC 8291).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use web_push_native::jwt_simple::prelude::{
    ECDSAP256PublicKeyLike, ES256PublicKey, NoCustomClaims, VerificationOptions,
};
use web_push_native::{Auth, p256};

use super::serve_peer;

/// A browser: its keys, as `PushManager.subscribe` makes them.
pub struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
    pub endpoint: String,
}

impl Browser {
    /// The subscription JSON a browser hands the page.
    pub fn subscription(&self) -> Value {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let public = self.secret.public_key().to_encoded_point(false);
        serde_json::json!({
            "endpoint": self.endpoint,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
        })
    }
}

/// A message the service accepted, as the browser reads it.
#[derive(Debug, Clone)]
pub struct Delivered {
    pub browser: String,
    pub payload: Value,
    pub ttl: String,
    pub urgency: String,
    /// The JWT's `aud` and `sub`, and the `k` it was verified with.
    pub audience: String,
    pub subject: String,
    pub key: String,
}

#[derive(Default)]
struct Inner {
    browsers: HashMap<String, (p256::SecretKey, [u8; 16])>,
    delivered: Vec<Delivered>,
    /// What a browser's endpoint answers instead of 201: a status and a `Retry-After`.
    answers: HashMap<String, (u16, Option<u64>)>,
    /// Requests refused for a bad signature or body, with why.
    refused: Vec<String>,
}

#[derive(Clone)]
pub struct PushService {
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

impl PushService {
    pub async fn start() -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let router = Router::new()
            .route("/push/{id}", post(receive))
            .with_state(inner.clone());
        Self {
            base: serve_peer(router).await,
            inner,
        }
    }

    /// A new browser with its own keys and endpoint here.
    pub fn browser(&self, id: &str) -> Browser {
        let secret = p256::SecretKey::random(&mut rand::rngs::OsRng);
        let auth: [u8; 16] = rand::random();
        self.inner
            .lock()
            .expect("lock")
            .browsers
            .insert(id.to_owned(), (secret.clone(), auth));
        Browser {
            secret,
            auth,
            endpoint: format!("{}/push/{id}", self.base),
        }
    }

    /// Makes a browser's endpoint answer `status` (with `Retry-After`) from now on.
    pub fn answer(&self, id: &str, status: u16, retry_after: Option<u64>) {
        self.inner
            .lock()
            .expect("lock")
            .answers
            .insert(id.to_owned(), (status, retry_after));
    }

    pub fn delivered(&self) -> Vec<Delivered> {
        self.inner.lock().expect("lock").delivered.clone()
    }

    pub fn refused(&self) -> Vec<String> {
        self.inner.lock().expect("lock").refused.clone()
    }
}

/// Checks `Authorization: vapid t=<jwt>, k=<key>`: gives the JWT's audience and subject.
fn vapid(headers: &HeaderMap) -> Result<(String, String, String), String> {
    let value = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .ok_or("no Authorization")?;
    let rest = value.strip_prefix("vapid ").ok_or("not vapid")?;
    let mut token = None;
    let mut key = None;
    for part in rest.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => token = Some(t.to_owned()),
            Some(("k", k)) => key = Some(k.to_owned()),
            _ => {}
        }
    }
    let (token, key) = (token.ok_or("no t")?, key.ok_or("no k")?);
    let raw = URL_SAFE_NO_PAD.decode(&key).map_err(|e| e.to_string())?;
    let public = ES256PublicKey::from_bytes(&raw).map_err(|e| e.to_string())?;
    let claims = public
        .verify_token::<NoCustomClaims>(&token, Some(VerificationOptions::default()))
        .map_err(|e| format!("signature: {e}"))?;
    let audience = claims
        .audiences
        .map(|a| a.into_string().unwrap_or_default())
        .unwrap_or_default();
    Ok((audience, claims.subject.unwrap_or_default(), key))
}

async fn receive(
    State(inner): State<Arc<Mutex<Inner>>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut inner = inner.lock().expect("lock");
    if let Some((status, retry_after)) = inner.answers.get(&id).copied() {
        let mut answer = StatusCode::from_u16(status)
            .expect("status")
            .into_response();
        if let Some(seconds) = retry_after {
            answer
                .headers_mut()
                .insert("retry-after", seconds.to_string().parse().expect("header"));
        }
        return answer;
    }
    let checked = (|| {
        let (audience, subject, key) = vapid(&headers)?;
        if headers
            .get("content-encoding")
            .and_then(|v| v.to_str().ok())
            != Some("aes128gcm")
        {
            return Err("Content-Encoding is not aes128gcm".to_owned());
        }
        let (secret, auth) = inner.browsers.get(&id).ok_or("no such browser")?;
        let plain = web_push_native::decrypt(body.to_vec(), secret, &Auth::clone_from_slice(auth))
            .map_err(|e| format!("decrypt: {e}"))?;
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        };
        Ok(Delivered {
            browser: id.clone(),
            payload: serde_json::from_slice(&plain).map_err(|e| e.to_string())?,
            ttl: header("ttl"),
            urgency: header("urgency"),
            audience,
            subject,
            key,
        })
    })();
    match checked {
        Ok(delivered) => {
            inner.delivered.push(delivered);
            let mut created = StatusCode::CREATED.into_response();
            created.headers_mut().insert(
                "location",
                format!("/message/{id}").parse().expect("header"),
            );
            created
        }
        Err(why) => {
            inner.refused.push(why);
            StatusCode::FORBIDDEN.into_response()
        }
    }
}
