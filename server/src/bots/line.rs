//! The LINE bot: webhook events (follow, unfollow, join, leave, text, postback) and answers
//! through the reply API. LINE has no administrators' API for groups, so a group's steward is
//! the member who first changed what it receives, and only they may change it after.

use client_core::bot::{CommandError, parse_command};
use client_core::locale::normalize_locale;
use serde::Deserialize;
use serde_json::Value;

use super::Platform;
use super::chats::{self, Place};
use super::commands::{self, Reply};
use super::line_api::QuickReply;
use crate::bots::Bots;
use crate::ctx::Ctx;
use crate::error::AppResult;
use crate::i18n::t;

pub const WEBHOOK_PATH: &str = "/webhooks/line";

#[derive(Debug, Deserialize)]
pub struct Body {
    #[serde(default)]
    pub events: Vec<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    source: Source,
    reply_token: Option<String>,
    message: Option<TextMessage>,
    postback: Option<Postback>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Source {
    #[serde(rename = "type")]
    kind: String,
    user_id: Option<String>,
    group_id: Option<String>,
    room_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct TextMessage {
    text: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Postback {
    data: String,
}

impl Source {
    fn place(&self) -> Option<Place> {
        let chat_ref = match self.kind.as_str() {
            "group" => self.group_id.clone(),
            "room" => self.room_id.clone(),
            _ => self.user_id.clone(),
        }?;
        Some(Place {
            platform: Platform::Line,
            chat_ref,
            thread_id: 0,
            kind: self.kind.clone(),
        })
    }
}

/// Handles each event of a webhook body; an event it cannot read is logged and skipped.
pub async fn handle(ctx: &Ctx, bots: &Bots, body: Body) -> AppResult<()> {
    for raw in body.events {
        match serde_json::from_value::<Event>(raw) {
            Ok(event) => handle_event(ctx, bots, event).await?,
            Err(e) => tracing::warn!("line: unreadable event skipped: {e}"),
        }
    }
    Ok(())
}

async fn handle_event(ctx: &Ctx, bots: &Bots, event: Event) -> AppResult<()> {
    let Some(place) = event.source.place() else {
        return Ok(());
    };
    let now = ctx.now();
    let reply = match event.kind.as_str() {
        "follow" | "join" => {
            let language = match (&event.source.user_id, bots.line.as_ref()) {
                (Some(user), Some(api)) if event.kind == "follow" => api.language(user).await,
                _ => None,
            };
            let chat = chats::find_or_create(
                &ctx.db,
                &place,
                normalize_locale(language.as_deref().unwrap_or_default()),
                now,
            )
            .await?;
            chats::resume(&ctx.db, chat.id).await?;
            Some(commands::welcome(&chat.locale))
        }
        "unfollow" | "leave" => {
            if let Some(chat) = chats::find(&ctx.db, &place).await? {
                chats::pause(&ctx.db, chat.id, "the bot was unfollowed or left").await?;
            }
            None
        }
        "message" | "postback" => {
            let text = match (&event.message, &event.postback) {
                (_, Some(postback)) => Some(postback.data.clone()),
                (Some(message), None) => message.text.clone(),
                _ => None,
            };
            match text {
                Some(text) => {
                    let sender = event.source.user_id.as_deref();
                    command(ctx, bots, &place, sender, &text).await?
                }
                None => None,
            }
        }
        _ => None,
    };
    if let (Some(reply), Some(token), Some(api)) = (reply, event.reply_token, bots.line.as_ref()) {
        let quick: Vec<QuickReply> = reply
            .buttons
            .iter()
            .map(|(label, data)| QuickReply {
                label: label.chars().take(20).collect(),
                data: data.clone(),
            })
            .collect();
        if let Err(e) = api.reply(&token, &reply.text, &quick).await {
            tracing::warn!("line reply: {e}");
        }
    }
    Ok(())
}

/// A text as a command, with or without the slash. In a group, words that are not a command
/// are the members' talk and get no answer; in a one-to-one chat they get the help.
async fn command(
    ctx: &Ctx,
    bots: &Bots,
    place: &Place,
    sender: Option<&str>,
    text: &str,
) -> AppResult<Option<Reply>> {
    let parsed = parse_command(text, "", false);
    let one_to_one = place.kind == "user";
    if let Err(CommandError::Unknown(_) | CommandError::NotACommand) = &parsed
        && !one_to_one
    {
        return Ok(None);
    }
    let chat = chats::find_or_create(&ctx.db, place, "en", ctx.now()).await?;
    Ok(match parsed {
        Err(e) => commands::refusal(&chat.locale, &e),
        Ok(command)
            if !one_to_one
                && commands::changes_chat(&command)
                && !chats::steers(&ctx.db, &chat, sender).await? =>
        {
            Some(Reply::text(t(&chat.locale, "bot.stewardOnly", &[])))
        }
        Ok(command) => Some(commands::run(ctx, bots, &chat, command).await?),
    })
}
