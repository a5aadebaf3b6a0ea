//! The platforms' published sending limits, kept in memory by the lease holder.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::super::Platform;
use crate::entity::bot_chat;

/// A platform's published limits, kept in memory by the lease holder.
pub struct Limits {
    all: DefaultDirectRateLimiter,
    /// Keyed by the platform's chat: a forum's topics are rows of their own but one chat to
    /// Telegram, and share its limits.
    per_chat: Option<DefaultKeyedRateLimiter<String>>,
    per_group: Option<DefaultKeyedRateLimiter<String>>,
}

fn per_second(n: u32) -> Quota {
    // Evenly spaced (no burst): a sliding one-second window never holds more than `n`.
    Quota::per_second(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)).allow_burst(NonZeroU32::MIN)
}

impl Limits {
    pub fn of(platform: Platform) -> Self {
        match platform {
            // 30 messages a second in all, 1 a second to one chat, 20 a minute to one group;
            // command replies keep 5 a second of the 30 (`TELEGRAM_REPLIES_PER_SECOND`).
            Platform::Telegram => Self {
                all: RateLimiter::direct(per_second(25)),
                per_chat: Some(RateLimiter::keyed(per_second(1))),
                per_group: Some(RateLimiter::keyed(
                    Quota::with_period(Duration::from_secs(3))
                        .unwrap_or_else(|| per_second(1))
                        .allow_burst(NonZeroU32::MIN),
                )),
            },
            // LINE publishes 2,000 requests a second for pushes; 100 keeps far below it.
            Platform::Line => Self {
                all: RateLimiter::direct(per_second(100)),
                per_chat: None,
                per_group: None,
            },
        }
    }

    /// Waits until the platform takes another message.
    pub(super) async fn turn(&self) {
        self.all.until_ready().await;
    }

    /// Whether `chat` may get a message now; counts it when it may.
    pub(super) fn allows(&self, chat: &bot_chat::Model) -> bool {
        let group = matches!(chat.kind.as_str(), "group" | "supergroup");
        self.per_chat
            .as_ref()
            .is_none_or(|l| l.check_key(&chat.chat_ref).is_ok())
            && (!group
                || self
                    .per_group
                    .as_ref()
                    .is_none_or(|l| l.check_key(&chat.chat_ref).is_ok()))
    }
}
