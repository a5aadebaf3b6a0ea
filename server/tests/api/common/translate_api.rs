//! A local translation service shaped as LibreTranslate's: `POST /translate {q, source, target,
//! format, api_key}` → `{translatedText}` (an array for an array `q`). It "translates" by
//! adding `· <target> rendering` (or, for a text it was taught, with the taught translation), and
//! can answer as a failing service does: 500, 429, too slow, or a
//! refusal (400); HTML comes back with a script added, which the server must clean away.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::serve_peer;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    Fine,
    Down,
    RateLimited,
    /// Answers after 6 s (the server gives up after 5).
    Slow,
    /// 400: "target language not supported".
    Refusing,
}

#[derive(Default)]
struct Inner {
    mode: Option<Mode>,
    /// Each call's body.
    calls: Vec<Value>,
    /// Taught translations: (text, target) → translation.
    known: Vec<((String, String), String)>,
}

#[derive(Clone)]
pub struct TranslateApi {
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

impl TranslateApi {
    pub async fn start() -> Self {
        let inner: Arc<Mutex<Inner>> = Arc::default();
        let router = Router::new()
            .route("/translate", post(translate))
            .with_state(inner.clone());
        Self {
            base: serve_peer(router).await,
            inner,
        }
    }

    pub fn mode(&self, mode: Mode) {
        self.inner.lock().expect("lock").mode = Some(mode);
    }

    /// Translates `text` into `target` as `translation` from now on.
    pub fn teach(&self, text: &str, target: &str, translation: &str) {
        let key = (text.to_owned(), target.to_owned());
        let mut inner = self.inner.lock().expect("lock");
        inner.known.push((key, translation.to_owned()));
    }

    pub fn calls(&self) -> Vec<Value> {
        self.inner.lock().expect("lock").calls.clone()
    }
}

async fn translate(State(inner): State<Arc<Mutex<Inner>>>, Json(body): Json<Value>) -> Response {
    let (mode, known) = {
        let mut inner = inner.lock().expect("lock");
        inner.calls.push(body.clone());
        (inner.mode.unwrap_or(Mode::Fine), inner.known.clone())
    };
    match mode {
        Mode::Fine => {}
        Mode::Down => return (StatusCode::INTERNAL_SERVER_ERROR, "down").into_response(),
        Mode::RateLimited => {
            return (
                StatusCode::TOO_MANY_REQUESTS,
                Json(json!({ "error": "Slowdown: 30 per 1 minute" })),
            )
                .into_response();
        }
        Mode::Slow => tokio::time::sleep(Duration::from_secs(6)).await,
        Mode::Refusing => {
            return (
                StatusCode::BAD_REQUEST,
                Json(json!({ "error": "target language not supported" })),
            )
                .into_response();
        }
    }
    if body["api_key"] != "translate-key" {
        return (
            StatusCode::FORBIDDEN,
            Json(json!({ "error": "Invalid API key" })),
        )
            .into_response();
    }
    let target = body["target"].as_str().unwrap_or_default().to_owned();
    let html = body["format"] == "html";
    let one = |q: &str| {
        let taught = known
            .iter()
            .find(|((text, to), _)| text == q && *to == target);
        if let Some((_, translation)) = taught {
            translation.clone()
        } else if html {
            format!("{q}<script>alert(1)</script><p>{target} rendering</p>")
        } else {
            format!("{q} · {target} rendering")
        }
    };
    let translated = match &body["q"] {
        Value::Array(list) => json!(
            list.iter()
                .map(|q| one(q.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
        ),
        q => json!(one(q.as_str().unwrap_or_default())),
    };
    Json(json!({ "translatedText": translated })).into_response()
}
