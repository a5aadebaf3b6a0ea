//! What a bot answers to a command, the same on Telegram and LINE: client-core parses the text,
//! this runs it against the chat and words the answer in the chat's language.

use client_core::bot::{Command, CommandError, Digest, Selection, Target};
use client_core::locale::LOCALES;
use sea_orm::{ActiveModelTrait, IntoActiveModel, Set};

use super::chats::{self, Subscription};
use super::link;
use crate::bots::Bots;
use crate::content::search::{self, Cursor, DocKind};
use crate::ctx::Ctx;
use crate::entity::{bot_chat, tag, token};
use crate::error::AppResult;
use crate::i18n::{language_name, t};
use sea_orm::EntityTrait;

/// An answer: text, and buttons that send a command back (label, command text of at most 64
/// bytes, which is also Telegram's limit on callback data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub buttons: Vec<(String, String)>,
}

impl Reply {
    pub fn text(text: String) -> Self {
        Self {
            text,
            buttons: Vec::new(),
        }
    }
}

/// The welcome, with buttons for the usual targets and the languages.
pub fn welcome(locale: &str) -> Reply {
    let mut buttons: Vec<(String, String)> = ["important", "news", "articles", "community"]
        .into_iter()
        .map(|target| {
            (
                t(locale, &format!("bot.targets.{target}"), &[]),
                format!("sub {target}"),
            )
        })
        .collect();
    buttons.extend(
        LOCALES
            .into_iter()
            .map(|l| (language_name(l, l), format!("lang {l}"))),
    );
    Reply {
        text: format!(
            "{}\n\n{}",
            t(locale, "bot.welcome", &[]),
            t(locale, "bot.help", &[])
        ),
        buttons,
    }
}

/// The answer to a text that is not a command this bot runs; `None` where the bot stays quiet
/// (ordinary talk, a command for another bot).
pub fn refusal(locale: &str, error: &CommandError) -> Option<Reply> {
    let text = match error {
        CommandError::NotACommand | CommandError::ForAnotherBot => return None,
        CommandError::TooLong => t(locale, "bot.tooLong", &[]),
        CommandError::Unknown(name) => t(locale, "bot.unknownCommand", &[("command", name)]),
        CommandError::Missing(command) => t(locale, "bot.missing", &[("command", command)]),
        CommandError::Bad { command, argument } => t(
            locale,
            "bot.bad",
            &[("command", command), ("argument", argument)],
        ),
        CommandError::TooMany(command) => t(
            locale,
            "bot.tooMany",
            &[
                ("command", command),
                ("max", &client_core::bot::MAX_ARGUMENTS.to_string()),
            ],
        ),
    };
    Some(Reply::text(text))
}

/// Whether running `command` changes the chat (in groups, only administrators may).
pub fn changes_chat(command: &Command) -> bool {
    !matches!(command, Command::List | Command::Help)
}

/// Runs `command` for `chat`; the caller has checked the sender may change the chat.
pub async fn run(
    ctx: &Ctx,
    bots: &Bots,
    chat: &bot_chat::Model,
    command: Command,
) -> AppResult<Reply> {
    let locale = chat.locale.as_str();
    let now = ctx.now();
    Ok(match command {
        Command::Start(None) => {
            chats::resume(&ctx.db, chat.id).await?;
            welcome(locale)
        }
        Command::Start(Some(code)) => {
            chats::resume(&ctx.db, chat.id).await?;
            match link::account_of(ctx, &code).await? {
                Some(nickname) => Reply {
                    text: t(locale, "bot.linkConfirm", &[("nickname", &nickname)]),
                    buttons: vec![
                        (
                            t(locale, "bot.linkYes", &[("nickname", &nickname)]),
                            format!("link {code}"),
                        ),
                        (t(locale, "bot.linkNo", &[]), "help".to_owned()),
                    ],
                },
                None => Reply::text(t(locale, "bot.linkInvalid", &[])),
            }
        }
        Command::Link(code) => {
            let key = if link::redeem(ctx, &code, chat).await? {
                "bot.linked"
            } else {
                "bot.linkInvalid"
            };
            Reply::text(t(locale, key, &[]))
        }
        Command::Help => Reply::text(t(locale, "bot.help", &[])),
        Command::Sub(targets) => {
            let mut found = Vec::new();
            for target in &targets {
                match resolve(ctx, chat, target).await? {
                    Resolved::Found(s) => found.push(s),
                    Resolved::NeedsLink => return Ok(Reply::text(t(locale, "bot.notLinked", &[]))),
                    Resolved::Unknown(name) => return unknown(ctx, bots, locale, &name).await,
                }
            }
            for s in &found {
                chats::subscribe(&ctx.db, chat.id, s, now).await?;
            }
            Reply::text(t(locale, "bot.subscribed", &[("targets", &labels(&found))]))
        }
        Command::Unsub(Selection::All) => {
            chats::unsubscribe(&ctx.db, chat.id, None).await?;
            Reply::text(t(locale, "bot.unsubscribedAll", &[]))
        }
        Command::Unsub(Selection::These(targets)) => {
            let mut gone = Vec::new();
            for target in &targets {
                match resolve(ctx, chat, target).await? {
                    Resolved::Found(s) => gone.push(s),
                    Resolved::NeedsLink => gone.push(Subscription::general("following")),
                    Resolved::Unknown(name) => return unknown(ctx, bots, locale, &name).await,
                }
            }
            for s in &gone {
                chats::unsubscribe(&ctx.db, chat.id, Some(s)).await?;
            }
            Reply::text(t(
                locale,
                "bot.unsubscribed",
                &[("targets", &labels(&gone))],
            ))
        }
        Command::List => list(ctx, chat).await?,
        Command::Lang(new) => {
            let mut row = chat.clone().into_active_model();
            row.locale = Set(new.to_owned());
            row.update(&ctx.db).await?;
            Reply::text(t(
                new,
                "bot.language",
                &[("language", &language_name(new, new))],
            ))
        }
        Command::Mute(words) => {
            let mut muted = chats::muted_words(chat);
            for w in words {
                if !muted.contains(&w) && muted.len() < MAX_MUTED {
                    muted.push(w);
                }
            }
            save_muted(ctx, chat, &muted).await?;
            Reply::text(t(locale, "bot.muted", &[("words", &muted.join(", "))]))
        }
        Command::Unmute(selection) => {
            let mut muted = chats::muted_words(chat);
            match selection {
                Selection::All => muted.clear(),
                Selection::These(words) => muted.retain(|w| !words.contains(w)),
            }
            save_muted(ctx, chat, &muted).await?;
            if muted.is_empty() {
                Reply::text(t(locale, "bot.mutedNone", &[]))
            } else {
                Reply::text(t(locale, "bot.muted", &[("words", &muted.join(", "))]))
            }
        }
        Command::Digest(digest) => {
            let name = match digest {
                Digest::Off => "off",
                Digest::Hourly => "hourly",
                Digest::Daily => "daily",
            };
            let mut row = chat.clone().into_active_model();
            row.digest = Set(name.to_owned());
            row.digest_at = Set(now);
            row.update(&ctx.db).await?;
            Reply::text(t(locale, &format!("bot.digest.{name}"), &[]))
        }
        Command::Unlink => {
            link::unlink_chat(ctx, chat.id).await?;
            Reply::text(t(locale, "bot.unlinked", &[]))
        }
    })
}

/// Words one chat may mute.
const MAX_MUTED: usize = 50;

async fn save_muted(ctx: &Ctx, chat: &bot_chat::Model, muted: &[String]) -> AppResult<()> {
    let mut row = chat.clone().into_active_model();
    row.muted = Set(serde_json::to_string(muted).unwrap_or_else(|_| "[]".to_owned()));
    row.update(&ctx.db).await?;
    Ok(())
}

async fn list(ctx: &Ctx, chat: &bot_chat::Model) -> AppResult<Reply> {
    let locale = chat.locale.as_str();
    let subs = chats::subscriptions(&ctx.db, chat.id).await?;
    let mut text = if subs.is_empty() {
        t(locale, "bot.listEmpty", &[])
    } else {
        t(locale, "bot.list", &[("targets", &labels(&subs))])
    };
    let muted = chats::muted_words(chat);
    if !muted.is_empty() {
        text.push('\n');
        text.push_str(&t(locale, "bot.muted", &[("words", &muted.join(", "))]));
    }
    if chat.digest != "off" {
        text.push('\n');
        text.push_str(&t(locale, &format!("bot.digest.{}", chat.digest), &[]));
    }
    Ok(Reply::text(text))
}

fn labels(subs: &[Subscription]) -> String {
    subs.iter()
        .map(|s| s.label.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

enum Resolved {
    Found(Subscription),
    /// `following` in a chat not linked to an account.
    NeedsLink,
    Unknown(String),
}

async fn resolve(ctx: &Ctx, chat: &bot_chat::Model, target: &Target) -> AppResult<Resolved> {
    Ok(match target {
        Target::Important => Resolved::Found(Subscription::general("important")),
        Target::News => Resolved::Found(Subscription::general("news")),
        Target::Articles => Resolved::Found(Subscription::general("articles")),
        Target::Community => Resolved::Found(Subscription::general("community")),
        Target::Following if chat.user_id.is_some() => {
            Resolved::Found(Subscription::general("following"))
        }
        Target::Following => Resolved::NeedsLink,
        Target::Named(name) => match chats::named(&ctx.db, name, false).await? {
            Some(s) => Resolved::Found(s),
            None => Resolved::Unknown(name.clone()),
        },
        Target::Symbol(symbol) => match chats::named(&ctx.db, symbol, true).await? {
            Some(s) => Resolved::Found(s),
            None => Resolved::Unknown(format!("${symbol}")),
        },
    })
}

/// "I do not know X", with the closest tags and tokens search finds for it; nothing subscribed.
async fn unknown(ctx: &Ctx, bots: &Bots, locale: &str, name: &str) -> AppResult<Reply> {
    let mut text = t(locale, "bot.unknownTarget", &[("target", name)]);
    let close = closest(ctx, bots, name.trim_start_matches('$')).await?;
    if !close.is_empty() {
        text.push(' ');
        text.push_str(&t(locale, "bot.suggest", &[("names", &close.join(", "))]));
    }
    Ok(Reply::text(text))
}

/// Names an unknown target's answer suggests at most.
const SUGGESTIONS: usize = 3;

/// The tag codes and token symbols search finds for `name`.
async fn closest(ctx: &Ctx, bots: &Bots, name: &str) -> AppResult<Vec<String>> {
    let Ok(terms) = search::terms(name) else {
        return Ok(Vec::new());
    };
    // Search may be getting ready (PostgreSQL start-up): the reply then names nothing.
    let Ok(index) = bots.content.search_index(ctx).await else {
        return Ok(Vec::new());
    };
    let mut names = Vec::new();
    for kind in [DocKind::Tag, DocKind::Token] {
        let (docs, _) = search::find(index, &terms, Some(kind), None, Cursor::START).await?;
        for doc in docs.into_iter().take(SUGGESTIONS) {
            let name = match kind {
                DocKind::Tag => tag::Entity::find_by_id(doc.ref_id)
                    .one(&ctx.db)
                    .await?
                    .map(|t| t.code),
                _ => token::Entity::find_by_id(doc.ref_id)
                    .one(&ctx.db)
                    .await?
                    .map(|t| format!("${}", t.symbol)),
            };
            names.extend(name);
        }
    }
    names.truncate(SUGGESTIONS);
    Ok(names)
}
