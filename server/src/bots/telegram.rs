//! The Telegram bot: reading updates (from the webhook, or by long polling under a lease so one
//! server polls at a time), running commands, and registering itself at start-up.

use std::time::Duration;

use client_core::bot::{Command, parse_command};
use client_core::locale::normalize_locale;

use super::Platform;
use super::chats::{self, Place};
use super::commands::{self, Reply};
use super::telegram_api::{Button, CallbackQuery, ChatMemberUpdated, Message, Outgoing, Update};
use crate::bots::Bots;
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};
use crate::i18n::t;
use crate::lease;
use crate::limits::{self, Budget};

/// The polling lease: a server that dies stops renewing it and another takes over within
/// `POLL_LEASE_SECONDS` plus one look ([`POLL_RETRY`]), inside 30 s.
const POLL_LEASE: &str = "telegram_poll";
pub const POLL_LEASE_SECONDS: i64 = 25;
/// How long one `getUpdates` waits for news: below the lease, which is renewed between calls.
const POLL_TIMEOUT: u64 = 15;
const POLL_RETRY: Duration = Duration::from_secs(3);
/// Buttons per keyboard row.
const ROW: usize = 3;
/// The commands the menu lists, each described in the chat's language.
const MENU: [&str; 8] = [
    "start", "sub", "unsub", "list", "lang", "mute", "digest", "help",
];

/// The path updates arrive at when a webhook secret is set.
pub const WEBHOOK_PATH: &str = "/webhooks/telegram";

/// Handles one update; nothing in it can make this fail but the database.
pub async fn handle(ctx: &Ctx, bots: &Bots, update: Update) -> AppResult<()> {
    if let Some(change) = update.my_chat_member {
        return member_changed(ctx, change).await;
    }
    if let Some(query) = update.callback_query {
        return callback(ctx, bots, query).await;
    }
    if let Some(message) = update.message.or(update.channel_post) {
        let Some(text) = message.text.clone() else {
            return Ok(());
        };
        let username = bots.telegram_username().await?;
        return run(
            ctx,
            bots,
            &message,
            message.from.as_ref().map(|u| u.id),
            parse_command(&text, &username, true),
            message
                .from
                .as_ref()
                .and_then(|u| u.language_code.as_deref()),
        )
        .await;
    }
    Ok(())
}

fn place(message: &Message) -> Place {
    Place {
        platform: Platform::Telegram,
        chat_ref: message.chat.id.to_string(),
        // A command in a forum topic subscribes that topic.
        thread_id: if message.is_topic_message {
            message.message_thread_id.unwrap_or(0)
        } else {
            0
        },
        kind: message.chat.kind.clone(),
    }
}

async fn run(
    ctx: &Ctx,
    bots: &Bots,
    message: &Message,
    sender: Option<i64>,
    command: Result<Command, client_core::bot::CommandError>,
    language_code: Option<&str>,
) -> AppResult<()> {
    if let Err(
        client_core::bot::CommandError::NotACommand | client_core::bot::CommandError::ForAnotherBot,
    ) = &command
    {
        return Ok(()); // A group's talk is not for the bot, and nothing of it is kept.
    }
    let locale = normalize_locale(language_code.unwrap_or_default());
    let chat = chats::find_or_create(&ctx.db, &place(message), locale, ctx.now()).await?;
    let reply = match command {
        Err(e) => commands::refusal(&chat.locale, &e),
        Ok(command)
            if commands::changes_chat(&command) && !may_change(bots, message, sender).await =>
        {
            // A channel's readers are not told in the channel: that would post to everyone.
            (message.chat.kind != "channel").then(|| Reply {
                text: t(&chat.locale, "bot.adminsOnly", &[]),
                buttons: Vec::new(),
            })
        }
        Ok(command) => Some(commands::run(ctx, bots, &chat, command).await?),
    };
    if let Some(reply) = reply {
        say(ctx, bots, &chat.chat_ref, chat.thread_id, &reply).await;
    }
    Ok(())
}

/// In groups and channels only administrators change what the chat receives (an anonymous
/// administrator, or a channel's own post, writes as the chat itself); in a private chat its
/// person may.
async fn may_change(bots: &Bots, message: &Message, sender: Option<i64>) -> bool {
    // Only a private chat is its own person's to change. In a channel every reader sees the
    // bot's buttons and may press them, so a press counts only from its administrators.
    if !matches!(
        message.chat.kind.as_str(),
        "group" | "supergroup" | "channel"
    ) {
        return true;
    }
    if message
        .sender_chat
        .as_ref()
        .is_some_and(|c| c.id == message.chat.id)
    {
        return true;
    }
    let (Some(api), Some(user)) = (bots.telegram.as_ref(), sender) else {
        return false;
    };
    match api.member_status(message.chat.id, user).await {
        Ok(status) => matches!(status.as_str(), "creator" | "administrator"),
        Err(e) => {
            tracing::warn!("telegram getChatMember: {e}");
            false
        }
    }
}

async fn callback(ctx: &Ctx, bots: &Bots, query: CallbackQuery) -> AppResult<()> {
    if let Some(api) = bots.telegram.as_ref()
        && let Err(e) = api.answer_callback(&query.id).await
    {
        tracing::debug!("telegram answerCallbackQuery: {e}");
    }
    let (Some(message), Some(data)) = (query.message.as_ref(), query.data.as_deref()) else {
        return Ok(());
    };
    // Our buttons carry command words; anything else is not ours and does nothing.
    let username = bots.telegram_username().await?;
    let Ok(command) = parse_command(data, &username, false) else {
        return Ok(());
    };
    run(
        ctx,
        bots,
        message,
        Some(query.from.id),
        Ok(command),
        query.from.language_code.as_deref(),
    )
    .await
}

/// Removed or blocked: the chat (every topic) is paused; added again: resumed.
async fn member_changed(ctx: &Ctx, change: ChatMemberUpdated) -> AppResult<()> {
    let platform = Platform::Telegram.name();
    let chat_ref = change.chat.id.to_string();
    match change.new_chat_member.status.as_str() {
        "left" | "kicked" => {
            chats::pause_whole(
                &ctx.db,
                platform,
                &chat_ref,
                "the bot was removed or blocked",
            )
            .await
        }
        _ => chats::resume_whole(&ctx.db, platform, &chat_ref).await,
    }
}

/// Sends a command's answer right away (answers are not queued: the person is waiting), within
/// the replies' share of Telegram's limits, counted in the database so every server shares it: a
/// flood of commands loses its own answers, not everyone's news.
async fn say(ctx: &Ctx, bots: &Bots, chat_ref: &str, thread_id: i64, reply: &Reply) {
    let Some(api) = bots.telegram.as_ref() else {
        return;
    };
    let config = &bots.config;
    let per_chat = Budget {
        name: "botreplieschat",
        hits: config.telegram_replies_per_chat_minute,
        window: 60,
    };
    let all = Budget {
        name: "botreplies",
        hits: config.telegram_replies_per_second,
        window: 1,
    };
    for (budget, key) in [(per_chat, chat_ref), (all, "telegram")] {
        if let Err(e) = limits::spend(ctx, budget, key).await {
            tracing::debug!("telegram reply to {chat_ref} not sent: {e:?}");
            return;
        }
    }
    let keyboard: Vec<Vec<Button>> = reply
        .buttons
        .chunks(ROW)
        .map(|row| {
            row.iter()
                .map(|(label, data)| Button {
                    text: label.clone(),
                    callback_data: data.clone(),
                })
                .collect()
        })
        .collect();
    let out = Outgoing {
        chat_id: chat_ref,
        thread_id: (thread_id != 0).then_some(thread_id),
        text: &reply.text,
        html: false,
        keyboard: &keyboard,
    };
    if let Err(e) = api.send_message(&out).await {
        tracing::warn!("telegram reply to {chat_ref}: {e}");
    }
}

/// One long poll, if this server holds the polling lease: fetches updates from the stored
/// offset, handles them, and moves the offset past them. Returns how many were handled, or
/// `None` when another server polls.
pub async fn poll_once(ctx: &Ctx, bots: &Bots, timeout: u64) -> AppResult<Option<usize>> {
    let Some(api) = bots.telegram.as_ref() else {
        return Ok(None);
    };
    let holder = &bots.holder;
    if !lease::hold(&ctx.db, POLL_LEASE, holder, ctx.now(), POLL_LEASE_SECONDS).await? {
        return Ok(None);
    }
    let offset = lease::cursor(&ctx.db, POLL_LEASE).await?;
    let updates = api
        .get_updates(offset, timeout)
        .await
        .map_err(|e| AppError::internal(format!("getUpdates: {e}")))?;
    let count = updates.len();
    let mut next = offset;
    for update in updates {
        next = next.max(update.update_id + 1);
        let id = update.update_id;
        if let Err(e) = handle(ctx, bots, update).await {
            tracing::warn!("telegram update {id}: {e:?}");
        }
    }
    if next != offset {
        lease::set_cursor(&ctx.db, POLL_LEASE, holder, next).await?;
    }
    Ok(Some(count))
}

/// At start-up: learns the bot's username, sets its command menu in each language, then either
/// registers the webhook or starts polling.
pub fn spawn(ctx: Ctx, bots: Bots) {
    tokio::spawn(async move {
        let Some(api) = bots.telegram.clone() else {
            return;
        };
        while let Err(e) = bots.telegram_username().await {
            tracing::error!("telegram getMe: {e:?}; trying again in 30 s");
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
        set_menus(&bots).await;
        match &bots.config.telegram_webhook_secret {
            Some(secret) => {
                let url = format!(
                    "{}{WEBHOOK_PATH}",
                    bots.config.public_url.trim_end_matches('/')
                );
                if let Err(e) = api.set_webhook(&url, secret).await {
                    tracing::error!("telegram setWebhook {url}: {e}");
                }
            }
            None => {
                if let Err(e) = api.delete_webhook().await {
                    tracing::warn!("telegram deleteWebhook: {e}");
                }
                loop {
                    match poll_once(&ctx, &bots, POLL_TIMEOUT).await {
                        Ok(Some(_)) => {}
                        Ok(None) => tokio::time::sleep(POLL_RETRY).await,
                        Err(e) => {
                            tracing::warn!("telegram polling: {e:?}");
                            tokio::time::sleep(POLL_RETRY).await;
                        }
                    }
                }
            }
        }
    });
}

/// `setMyCommands` for each language Telegram can name, and the default list in English.
async fn set_menus(bots: &Bots) {
    let Some(api) = bots.telegram.as_ref() else {
        return;
    };
    // Telegram names languages by two letters: Chinese gets the Simplified list.
    let lists = [
        (None, "en"),
        (Some("zh"), "zh-Hans"),
        (Some("vi"), "vi"),
        (Some("ko"), "ko"),
    ];
    for (code, locale) in lists {
        let commands: Vec<(String, String)> = MENU
            .iter()
            .map(|c| ((*c).to_owned(), t(locale, &format!("bot.menu.{c}"), &[])))
            .collect();
        if let Err(e) = api.set_my_commands(&commands, code).await {
            tracing::warn!("telegram setMyCommands {code:?}: {e}");
        }
    }
}
