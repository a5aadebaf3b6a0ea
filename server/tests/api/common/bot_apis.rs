//! Local stand-ins for the Telegram Bot API and the LINE Messaging API that speak their
//! protocols: Telegram's `/bot{token}/{method}` calls with `{ok, result}` or `{ok: false,
//! error_code, description, parameters}` answers and its published limits (about 30 messages a
//! second in all, one a second to a chat, 20 a minute to a group) enforced with 429; LINE's
//! reply, push (Bearer token, `X-Line-Retry-Key`, 409 for a key already used) and profile calls.

use std::collections::{HashMap, HashSet, VecDeque};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use super::serve_peer;

pub const BOT_TOKEN: &str = "123456:TEST-token";
pub const BOT_USERNAME: &str = "BlockbriefTestBot";

/// A message the bot sent.
#[derive(Debug, Clone)]
pub struct Sent {
    pub chat_id: String,
    pub text: String,
    pub thread_id: Option<i64>,
    pub html: bool,
    pub buttons: Vec<String>,
    pub at: Instant,
}

/// What a chat answers instead of accepting messages.
#[derive(Debug, Clone)]
pub enum ChatAnswer {
    /// 403: the bot was blocked.
    Blocked,
    /// 400 with `migrate_to_chat_id`.
    Migrated(i64),
    /// 429 with `retry_after`, this many times.
    TooMany { retry_after: u64, times: u32 },
    /// 500, this many times.
    Broken(u32),
}

#[derive(Default)]
struct TelegramState {
    sent: Vec<Sent>,
    /// Every call by method name, with its body.
    calls: Vec<(String, Value)>,
    updates: VecDeque<Value>,
    admins: HashSet<(i64, i64)>,
    answers: HashMap<String, ChatAnswer>,
    too_many: usize,
}

pub struct FakeTelegram {
    pub url: String,
    state: Arc<Mutex<TelegramState>>,
}

struct Limits {
    all: DefaultDirectRateLimiter,
    chat: DefaultKeyedRateLimiter<String>,
    group: DefaultKeyedRateLimiter<String>,
}

type Shared = (Arc<Mutex<TelegramState>>, Arc<Limits>);

fn refused(code: u16, description: &str, parameters: Value) -> Response {
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST);
    let mut body = json!({ "ok": false, "error_code": code, "description": description });
    if !parameters.is_null() {
        body["parameters"] = parameters;
    }
    (status, Json(body)).into_response()
}

fn answer(result: Value) -> Response {
    Json(json!({ "ok": true, "result": result })).into_response()
}

async fn telegram_call(
    State((state, limits)): State<Shared>,
    Path((bot, method)): Path<(String, String)>,
    body: axum::body::Bytes,
) -> Response {
    if bot != format!("bot{BOT_TOKEN}") {
        return refused(401, "Unauthorized", Value::Null);
    }
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return refused(400, "Bad Request: invalid JSON", Value::Null);
    };
    state
        .lock()
        .expect("lock")
        .calls
        .push((method.clone(), body.clone()));
    match method.as_str() {
        "getMe" => answer(
            json!({ "id": 123456, "is_bot": true, "first_name": "Blockbrief", "username": BOT_USERNAME }),
        ),
        "setWebhook" | "deleteWebhook" | "setMyCommands" | "answerCallbackQuery" => {
            answer(json!(true))
        }
        "getUpdates" => {
            let offset = body["offset"].as_i64().unwrap_or(0);
            let mut s = state.lock().expect("lock");
            // Confirmed updates (below the offset) are forgotten, as Telegram does.
            s.updates
                .retain(|u| u["update_id"].as_i64().unwrap_or(0) >= offset);
            answer(Value::Array(s.updates.iter().cloned().collect()))
        }
        "getChatMember" => {
            let chat = body["chat_id"].as_i64().unwrap_or(0);
            let user = body["user_id"].as_i64().unwrap_or(0);
            let admin = state.lock().expect("lock").admins.contains(&(chat, user));
            let status = if admin { "administrator" } else { "member" };
            answer(
                json!({ "status": status, "user": { "id": user, "is_bot": false, "first_name": "x" } }),
            )
        }
        "sendMessage" => send_message(&state, &limits, body),
        _ => refused(404, "Not Found: method not found", Value::Null),
    }
}

fn send_message(state: &Mutex<TelegramState>, limits: &Limits, body: Value) -> Response {
    let chat_id = match &body["chat_id"] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return refused(400, "Bad Request: chat_id is empty", Value::Null),
    };
    let Some(text) = body["text"].as_str() else {
        return refused(400, "Bad Request: message text is empty", Value::Null);
    };
    if text.chars().count() > 4096 {
        return refused(400, "Bad Request: message is too long", Value::Null);
    }
    let mut s = state.lock().expect("lock");
    if let Some(answer) = s.answers.get_mut(&chat_id) {
        match answer {
            ChatAnswer::Blocked => {
                return refused(403, "Forbidden: bot was blocked by the user", Value::Null);
            }
            ChatAnswer::Migrated(to) => {
                let to = *to;
                return refused(
                    400,
                    "Bad Request: group chat was upgraded to a supergroup chat",
                    json!({ "migrate_to_chat_id": to }),
                );
            }
            ChatAnswer::TooMany { retry_after, times } if *times > 0 => {
                *times -= 1;
                let retry_after = *retry_after;
                return refused(
                    429,
                    &format!("Too Many Requests: retry after {retry_after}"),
                    json!({ "retry_after": retry_after }),
                );
            }
            ChatAnswer::Broken(times) if *times > 0 => {
                *times -= 1;
                return refused(500, "Internal Server Error", Value::Null);
            }
            _ => {}
        }
    }
    let group = chat_id.starts_with('-');
    let limited = limits.all.check().is_err()
        || limits.chat.check_key(&chat_id).is_err()
        || (group && limits.group.check_key(&chat_id).is_err());
    if limited {
        s.too_many += 1;
        return refused(
            429,
            "Too Many Requests: retry after 1",
            json!({ "retry_after": 1 }),
        );
    }
    let buttons = body["reply_markup"]["inline_keyboard"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row.as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["callback_data"].as_str().map(str::to_owned))
        .collect();
    s.sent.push(Sent {
        chat_id: chat_id.clone(),
        text: text.to_owned(),
        thread_id: body["message_thread_id"].as_i64(),
        html: body["parse_mode"] == "HTML",
        buttons,
        at: Instant::now(),
    });
    let id = s.sent.len();
    answer(
        json!({ "message_id": id, "date": 0, "chat": { "id": chat_id, "type": "private" }, "text": text }),
    )
}

impl FakeTelegram {
    pub async fn start() -> Self {
        let state = Arc::new(Mutex::new(TelegramState::default()));
        let n = |v: u32| NonZeroU32::new(v).expect("non-zero");
        let limits = Arc::new(Limits {
            all: RateLimiter::direct(Quota::per_second(n(30))),
            // Telegram lets a chat have a short burst (a few answers to quick commands);
            // steady sending is one a second.
            chat: RateLimiter::keyed(Quota::per_second(n(1)).allow_burst(n(5))),
            group: RateLimiter::keyed(Quota::per_minute(n(20))),
        });
        let router = Router::new()
            .route("/{bot}/{method}", post(telegram_call))
            .with_state((state.clone(), limits));
        Self {
            url: serve_peer(router).await,
            state,
        }
    }

    pub fn sent(&self) -> Vec<Sent> {
        self.state.lock().expect("lock").sent.clone()
    }

    pub fn sent_to(&self, chat_id: &str) -> Vec<Sent> {
        self.sent()
            .into_iter()
            .filter(|s| s.chat_id == chat_id)
            .collect()
    }

    pub fn calls(&self, method: &str) -> Vec<Value> {
        self.state
            .lock()
            .expect("lock")
            .calls
            .iter()
            .filter(|(m, _)| m == method)
            .map(|(_, b)| b.clone())
            .collect()
    }

    /// Answers that Telegram refused for the limits.
    pub fn too_many(&self) -> usize {
        self.state.lock().expect("lock").too_many
    }

    pub fn push_update(&self, update: Value) {
        self.state.lock().expect("lock").updates.push_back(update);
    }

    pub fn make_admin(&self, chat: i64, user: i64) {
        self.state.lock().expect("lock").admins.insert((chat, user));
    }

    pub fn answer_chat(&self, chat_id: &str, answer: ChatAnswer) {
        self.state
            .lock()
            .expect("lock")
            .answers
            .insert(chat_id.to_owned(), answer);
    }

    pub fn clear(&self) {
        let mut s = self.state.lock().expect("lock");
        s.sent.clear();
        s.calls.clear();
    }

    /// Waits until `n` messages were sent to `chat_id` (or fails after `wait`).
    pub async fn wait_for(&self, chat_id: &str, n: usize, wait: Duration) -> Vec<Sent> {
        let until = Instant::now() + wait;
        loop {
            let got = self.sent_to(chat_id);
            if got.len() >= n || Instant::now() > until {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A private message update from user `user` (also the chat's id).
pub fn private_text(update_id: i64, user: i64, language: &str, text: &str) -> Value {
    json!({
        "update_id": update_id,
        "message": {
            "message_id": update_id, "date": 0, "text": text,
            "chat": { "id": user, "type": "private", "first_name": "Reader" },
            "from": { "id": user, "is_bot": false, "first_name": "Reader", "language_code": language }
        }
    })
}

/// A message in group `chat` from `user`, optionally in forum topic `thread`.
pub fn group_text(update_id: i64, chat: i64, user: i64, thread: Option<i64>, text: &str) -> Value {
    let mut message = json!({
        "message_id": update_id, "date": 0, "text": text,
        "chat": { "id": chat, "type": "supergroup", "title": "Group" },
        "from": { "id": user, "is_bot": false, "first_name": "Member", "language_code": "en" }
    });
    if let Some(thread) = thread {
        message["message_thread_id"] = json!(thread);
        message["is_topic_message"] = json!(true);
    }
    json!({ "update_id": update_id, "message": message })
}

// LINE

#[derive(Default)]
struct LineState {
    replies: Vec<Value>,
    /// (to, text, retry key)
    pushes: Vec<(String, String, String)>,
    keys: HashSet<String>,
    languages: HashMap<String, String>,
    /// Pushes answered 500 before one is accepted.
    failing: u32,
}

pub struct FakeLine {
    pub url: String,
    state: Arc<Mutex<LineState>>,
}

pub const LINE_SECRET: &str = "line-channel-secret";
pub const LINE_TOKEN: &str = "line-access-token";

fn bearer_ok(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok())
        == Some(&format!("Bearer {LINE_TOKEN}"))
}

fn line_error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "message": message }))).into_response()
}

async fn line_reply(
    State(state): State<Arc<Mutex<LineState>>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !bearer_ok(&headers) {
        return line_error(StatusCode::UNAUTHORIZED, "Authentication failed");
    }
    if body["replyToken"].as_str().is_none_or(str::is_empty) {
        return line_error(StatusCode::BAD_REQUEST, "Invalid reply token");
    }
    state.lock().expect("lock").replies.push(body);
    Json(json!({})).into_response()
}

async fn line_push(
    State(state): State<Arc<Mutex<LineState>>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !bearer_ok(&headers) {
        return line_error(StatusCode::UNAUTHORIZED, "Authentication failed");
    }
    let key = headers
        .get("x-line-retry-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = body["messages"][0]["text"].as_str().unwrap_or_default();
    if text.chars().count() > 5000 {
        return line_error(StatusCode::BAD_REQUEST, "The request body has 1 error(s)");
    }
    let mut s = state.lock().expect("lock");
    if s.keys.contains(&key) {
        return line_error(StatusCode::CONFLICT, "The retry key is already accepted");
    }
    s.keys.insert(key.clone());
    s.pushes.push((
        body["to"].as_str().unwrap_or_default().to_owned(),
        text.to_owned(),
        key,
    ));
    if s.failing > 0 {
        s.failing -= 1;
        // Accepted but answered 500: a retry with the same key must not show it twice.
        return line_error(StatusCode::INTERNAL_SERVER_ERROR, "Internal error");
    }
    Json(json!({ "sentMessages": [{ "id": "1" }] })).into_response()
}

async fn line_profile(
    State(state): State<Arc<Mutex<LineState>>>,
    headers: HeaderMap,
    Path(user): Path<String>,
) -> Response {
    if !bearer_ok(&headers) {
        return line_error(StatusCode::UNAUTHORIZED, "Authentication failed");
    }
    let s = state.lock().expect("lock");
    let mut profile = json!({ "userId": user, "displayName": "Reader" });
    if let Some(lang) = s.languages.get(&user) {
        profile["language"] = json!(lang);
    }
    Json(profile).into_response()
}

impl FakeLine {
    pub async fn start() -> Self {
        let state = Arc::new(Mutex::new(LineState::default()));
        let router = Router::new()
            .route("/v2/bot/message/reply", post(line_reply))
            .route("/v2/bot/message/push", post(line_push))
            .route("/v2/bot/profile/{user}", get(line_profile))
            .with_state(state.clone());
        Self {
            url: serve_peer(router).await,
            state,
        }
    }

    pub fn replies(&self) -> Vec<Value> {
        self.state.lock().expect("lock").replies.clone()
    }

    pub fn pushes(&self) -> Vec<(String, String, String)> {
        self.state.lock().expect("lock").pushes.clone()
    }

    pub fn set_language(&self, user: &str, language: &str) {
        self.state
            .lock()
            .expect("lock")
            .languages
            .insert(user.to_owned(), language.to_owned());
    }

    pub fn fail_pushes(&self, n: u32) {
        self.state.lock().expect("lock").failing = n;
    }
}

/// `X-Line-Signature` for `body`.
pub fn line_signature(body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(LINE_SECRET.as_bytes()).expect("key");
    mac.update(body);
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}
