//! How a send ended, and what each of Telegram's documented errors means for the chat.

use super::super::telegram_api::ApiError;

/// How one send ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    /// Too many requests: try again after this many seconds, in the chat's place.
    RetryAfter(i64),
    /// The bot may no longer write there (blocked, kicked, chat not found).
    ChatGone(String),
    /// A group became a supergroup with this id.
    Moved(String),
    /// Worth trying again with backoff.
    Failed(String),
    /// Not worth trying again.
    Refused(String),
}

/// What a Telegram error means for the chat (the Bot API's documented answers).
pub fn telegram_outcome(error: ApiError) -> Outcome {
    match error {
        ApiError::Refused {
            migrate_to_chat_id: Some(id),
            ..
        } => Outcome::Moved(id.to_string()),
        ApiError::Refused {
            code: 429,
            retry_after,
            ..
        } => Outcome::RetryAfter(retry_after.unwrap_or(5).clamp(1, 3600) as i64),
        ApiError::Refused {
            code: 403,
            description,
            ..
        } => Outcome::ChatGone(description),
        ApiError::Refused {
            code: 400,
            description,
            ..
        } if description.to_lowercase().contains("chat not found") => {
            Outcome::ChatGone(description)
        }
        ApiError::Refused {
            code, description, ..
        } if (400..500).contains(&code) => Outcome::Refused(format!("{code} {description}")),
        other => Outcome::Failed(other.to_string()),
    }
}
