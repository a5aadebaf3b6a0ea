//! A thin client of the LINE Messaging API (reply, push, profile) and the webhook signature
//! check. The official SDKs are not published for Rust; these are three plain JSON calls.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::Sha256;

/// The longest text message LINE shows.
pub const MAX_TEXT_CHARS: usize = 5000;

#[derive(Clone)]
pub struct LineApi {
    base: String,
    token: String,
    http: reqwest::Client,
}

/// How a push ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pushed {
    Delivered,
    /// 429 or 5xx: send again later with the same retry key.
    Retry(String),
    /// Any other refusal (an unknown or blocked recipient): not worth trying again.
    Refused(String),
}

/// A quick-reply button: a label and the postback data it sends back.
#[derive(Debug, Clone)]
pub struct QuickReply {
    pub label: String,
    pub data: String,
}

/// Whether `signature` (the `X-Line-Signature` header) is the channel's HMAC of `body`, compared
/// in constant time.
pub fn signed(secret: &str, body: &[u8], signature: &str) -> bool {
    let Ok(given) = STANDARD.decode(signature.trim()) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&given).is_ok()
}

#[derive(Deserialize)]
struct Profile {
    language: Option<String>,
}

impl LineApi {
    pub fn new(api_url: &str, token: &str, http: reqwest::Client) -> Self {
        Self {
            base: api_url.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            http,
        }
    }

    /// The user's language as LINE knows it (`ja`, `zh-TW`, …), if they shared it.
    pub async fn language(&self, user_id: &str) -> Option<String> {
        let response = self
            .http
            .get(format!("{}/v2/bot/profile/{user_id}", self.base))
            .bearer_auth(&self.token)
            .send()
            .await
            .ok()?;
        if !response.status().is_success() {
            return None;
        }
        response.json::<Profile>().await.ok()?.language
    }

    pub async fn reply(
        &self,
        reply_token: &str,
        text: &str,
        quick: &[QuickReply],
    ) -> Result<(), String> {
        let body = json!({ "replyToken": reply_token, "messages": [message(text, quick)] });
        let response = self
            .http
            .post(format!("{}/v2/bot/message/reply", self.base))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .map_err(|e| e.without_url().to_string())?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(format!("reply: {}", response.status()))
        }
    }

    /// Pushes `text` to `to`; `retry_key` makes a retried push show once (409: already done).
    pub async fn push(&self, to: &str, text: &str, retry_key: &str) -> Pushed {
        let body = json!({ "to": to, "messages": [message(text, &[])] });
        let response = self
            .http
            .post(format!("{}/v2/bot/message/push", self.base))
            .bearer_auth(&self.token)
            .header("X-Line-Retry-Key", retry_key)
            .json(&body)
            .send()
            .await;
        match response {
            Err(e) => Pushed::Retry(e.without_url().to_string()),
            Ok(r) if r.status().is_success() || r.status().as_u16() == 409 => Pushed::Delivered,
            Ok(r) if r.status().as_u16() == 429 || r.status().is_server_error() => {
                Pushed::Retry(format!("push: {}", r.status()))
            }
            Ok(r) => Pushed::Refused(format!("push: {}", r.status())),
        }
    }
}

fn message(text: &str, quick: &[QuickReply]) -> Value {
    let text: String = text.chars().take(MAX_TEXT_CHARS).collect();
    let mut message = json!({ "type": "text", "text": text });
    if !quick.is_empty() {
        let items: Vec<Value> = quick
            .iter()
            .map(|q| {
                json!({ "type": "action", "action": {
                    "type": "postback", "label": q.label, "data": q.data, "displayText": q.label
                }})
            })
            .collect();
        message["quickReply"] = json!({ "items": items });
    }
    message
}
