//! A thin typed client of the Telegram Bot API: only the methods and fields the bot uses, and
//! the error answers it must act on (`retry_after`, `migrate_to_chat_id`). Written here rather
//! than taken from teloxide: the bot needs eight methods and control over every error answer
//! (the delivery outbox decides what a 429 or 403 means), where teloxide brings its own
//! dispatcher, throttle and update loop that would sit beside ours.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Clone)]
pub struct TelegramApi {
    /// `{TELEGRAM_API_URL}/bot{token}`.
    base: String,
    http: reqwest::Client,
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// Telegram answered `ok: false`.
    Refused {
        code: u16,
        description: String,
        retry_after: Option<u64>,
        migrate_to_chat_id: Option<i64>,
    },
    /// No answer, or one that is not the Bot API's.
    Unreachable(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused {
                code, description, ..
            } => write!(f, "{code} {description}"),
            Self::Unreachable(e) => write!(f, "unreachable: {e}"),
        }
    }
}

#[derive(Deserialize)]
struct Answer<T> {
    ok: bool,
    result: Option<T>,
    error_code: Option<u16>,
    description: Option<String>,
    parameters: Option<Parameters>,
}

#[derive(Deserialize)]
struct Parameters {
    retry_after: Option<u64>,
    migrate_to_chat_id: Option<i64>,
}

// Updates as the bot reads them. Every field it may lack is optional, so an update of a kind
// the bot does not handle is read and skipped rather than refused.

#[derive(Debug, Deserialize)]
pub struct Update {
    pub update_id: i64,
    pub message: Option<Message>,
    pub channel_post: Option<Message>,
    pub callback_query: Option<CallbackQuery>,
    pub my_chat_member: Option<ChatMemberUpdated>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Message {
    pub chat: Chat,
    pub from: Option<User>,
    /// Set when an anonymous administrator writes as the group itself.
    pub sender_chat: Option<Chat>,
    pub text: Option<String>,
    pub message_thread_id: Option<i64>,
    #[serde(default)]
    pub is_topic_message: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Chat {
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct User {
    pub id: i64,
    pub language_code: Option<String>,
    pub username: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    pub id: String,
    pub from: User,
    pub message: Option<Message>,
    pub data: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct ChatMemberUpdated {
    pub chat: Chat,
    pub new_chat_member: ChatMember,
}

#[derive(Debug, Deserialize)]
pub struct ChatMember {
    pub status: String,
}

/// An inline keyboard button: its label and its callback data (at most 64 bytes).
#[derive(Debug, Clone, Serialize)]
pub struct Button {
    pub text: String,
    pub callback_data: String,
}

/// A text to send; `html`: the text is Telegram's HTML (`parse_mode`), else plain.
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    pub chat_id: &'a str,
    pub thread_id: Option<i64>,
    pub text: &'a str,
    pub html: bool,
    pub keyboard: &'a [Vec<Button>],
}

impl TelegramApi {
    pub fn new(api_url: &str, token: &str, http: reqwest::Client) -> Self {
        Self {
            base: format!("{}/bot{token}", api_url.trim_end_matches('/')),
            http,
        }
    }

    async fn call<T: DeserializeOwned>(&self, method: &str, body: Value) -> Result<T, ApiError> {
        let response = self
            .http
            .post(format!("{}/{method}", self.base))
            .json(&body)
            .send()
            .await
            .map_err(|e| ApiError::Unreachable(e.without_url().to_string()))?;
        let status = response.status().as_u16();
        let answer: Answer<T> = response
            .json()
            .await
            .map_err(|e| ApiError::Unreachable(format!("{status}: {}", e.without_url())))?;
        match answer {
            Answer {
                ok: true,
                result: Some(result),
                ..
            } => Ok(result),
            other => Err(ApiError::Refused {
                code: other.error_code.unwrap_or(status),
                description: other.description.unwrap_or_default(),
                retry_after: other.parameters.as_ref().and_then(|p| p.retry_after),
                migrate_to_chat_id: other.parameters.and_then(|p| p.migrate_to_chat_id),
            }),
        }
    }

    /// The bot's own `username`.
    pub async fn get_me(&self) -> Result<String, ApiError> {
        let me: User = self.call("getMe", json!({})).await?;
        me.username
            .ok_or_else(|| ApiError::Unreachable("getMe gave no username".to_owned()))
    }

    pub async fn set_webhook(&self, url: &str, secret: &str) -> Result<bool, ApiError> {
        self.call(
            "setWebhook",
            json!({ "url": url, "secret_token": secret, "allowed_updates": ALLOWED_UPDATES }),
        )
        .await
    }

    /// Polling and a webhook exclude each other: a server that polls removes any webhook first.
    pub async fn delete_webhook(&self) -> Result<bool, ApiError> {
        self.call("deleteWebhook", json!({})).await
    }

    pub async fn get_updates(&self, offset: i64, timeout: u64) -> Result<Vec<Update>, ApiError> {
        // Read as raw values first: one malformed update must not hide the others.
        let raw: Vec<Value> = self
            .call(
                "getUpdates",
                json!({ "offset": offset, "timeout": timeout, "allowed_updates": ALLOWED_UPDATES }),
            )
            .await?;
        Ok(raw
            .into_iter()
            .filter_map(|u| match serde_json::from_value::<Update>(u.clone()) {
                Ok(update) => Some(update),
                Err(e) => {
                    tracing::warn!("telegram: unreadable update skipped: {e}");
                    // Its id still moves the offset on, so it is not fetched again.
                    u.get("update_id").and_then(Value::as_i64).map(|id| Update {
                        update_id: id,
                        message: None,
                        channel_post: None,
                        callback_query: None,
                        my_chat_member: None,
                    })
                }
            })
            .collect())
    }

    pub async fn send_message(&self, out: &Outgoing<'_>) -> Result<Value, ApiError> {
        let mut body = json!({
            "chat_id": out.chat_id,
            "text": out.text,
            "link_preview_options": { "is_disabled": true },
        });
        if out.html {
            body["parse_mode"] = json!("HTML");
        }
        if let Some(thread) = out.thread_id {
            body["message_thread_id"] = json!(thread);
        }
        if !out.keyboard.is_empty() {
            body["reply_markup"] = json!({ "inline_keyboard": out.keyboard });
        }
        self.call("sendMessage", body).await
    }

    /// `creator`, `administrator`, `member`, …
    pub async fn member_status(&self, chat_id: i64, user_id: i64) -> Result<String, ApiError> {
        let member: ChatMember = self
            .call(
                "getChatMember",
                json!({ "chat_id": chat_id, "user_id": user_id }),
            )
            .await?;
        Ok(member.status)
    }

    pub async fn answer_callback(&self, id: &str) -> Result<bool, ApiError> {
        self.call("answerCallbackQuery", json!({ "callback_query_id": id }))
            .await
    }

    /// `language_code`: None for the default list.
    pub async fn set_my_commands(
        &self,
        commands: &[(String, String)],
        language_code: Option<&str>,
    ) -> Result<bool, ApiError> {
        let commands: Vec<Value> = commands
            .iter()
            .map(|(command, description)| json!({ "command": command, "description": description }))
            .collect();
        let mut body = json!({ "commands": commands });
        if let Some(code) = language_code {
            body["language_code"] = json!(code);
        }
        self.call("setMyCommands", body).await
    }
}

const ALLOWED_UPDATES: [&str; 4] = [
    "message",
    "channel_post",
    "callback_query",
    "my_chat_member",
];
