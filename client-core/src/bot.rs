//! Bot commands as chats send them: `/sub bitcoin $BTC` on Telegram (also `/sub@BlockbriefBot …`
//! in groups), and the same with or without the slash on LINE (`sub bitcoin`). Parsing only:
//! which tag, token or channel a name is, and who may change a chat, the server decides.

use crate::locale::LOCALES;

/// The longest text read as a command (Telegram's own message limit).
pub const MAX_COMMAND_CHARS: usize = 4096;
/// Targets or words one command may name.
pub const MAX_ARGUMENTS: usize = 20;
/// The longest target, word or link code.
pub const MAX_ARGUMENT_CHARS: usize = 64;

/// What a chat can subscribe to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A tag code, a token symbol or a channel code, lower-cased: the server finds which.
    Named(String),
    /// `$BTC`: a token symbol and nothing else, upper-cased.
    Symbol(String),
    /// Every important item.
    Important,
    /// Every flash item.
    News,
    /// Every article.
    Articles,
    /// The linked account's followed tags and KOLs.
    Following,
    /// Readers' own posts (no other subscription brings them).
    Community,
}

/// `all`, or some of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection<T> {
    All,
    These(Vec<T>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digest {
    Off,
    Hourly,
    Daily,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `/start`, with the account-link code when the chat came from the account page: the bot
    /// asks the chat to confirm, since anyone can hand out such a link.
    Start(Option<String>),
    /// The chat confirms linking to the account of this code (the confirmation's button).
    Link(String),
    Sub(Vec<Target>),
    Unsub(Selection<Target>),
    List,
    /// One of [`LOCALES`].
    Lang(&'static str),
    /// Lower-cased words.
    Mute(Vec<String>),
    Unmute(Selection<String>),
    Digest(Digest),
    Help,
    Unlink,
}

/// Why a text is not a command this bot runs; the bot answers each but the first two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    /// Plain text in a Telegram chat: not for the bot.
    NotACommand,
    /// `/cmd@OtherBot`: for another bot in the group.
    ForAnotherBot,
    TooLong,
    Unknown(String),
    /// The command needs an argument (`/sub` alone).
    Missing(&'static str),
    /// An argument the command cannot take.
    Bad {
        command: &'static str,
        argument: String,
    },
    TooMany(&'static str),
}

/// Reads `text` as a command for the bot `bot_username`. `slash_required`: Telegram's rule (a
/// command starts with `/`); LINE takes the words alone too.
pub fn parse_command(
    text: &str,
    bot_username: &str,
    slash_required: bool,
) -> Result<Command, CommandError> {
    let text = text.trim();
    if text.chars().count() > MAX_COMMAND_CHARS {
        return Err(CommandError::TooLong);
    }
    let text = match text.strip_prefix('/') {
        Some(rest) => rest,
        None if slash_required => return Err(CommandError::NotACommand),
        None => text,
    };
    let mut words = text.split_whitespace();
    let first = words.next().ok_or(CommandError::NotACommand)?;
    let (name, addressee) = first.split_once('@').unwrap_or((first, bot_username));
    if !addressee.eq_ignore_ascii_case(bot_username) {
        return Err(CommandError::ForAnotherBot);
    }
    let args: Vec<&str> = words.collect();
    let name = name.to_lowercase();
    let command = match name.as_str() {
        "start" => "start",
        "sub" => "sub",
        "unsub" => "unsub",
        "list" => "list",
        "lang" => "lang",
        "mute" => "mute",
        "unmute" => "unmute",
        "digest" => "digest",
        "help" => "help",
        "unlink" => "unlink",
        "link" => "link",
        _ => return Err(CommandError::Unknown(name)),
    };
    if args.len() > MAX_ARGUMENTS {
        return Err(CommandError::TooMany(command));
    }
    let bad = |argument: &str| CommandError::Bad {
        command,
        argument: argument.to_owned(),
    };
    let one = || match args.as_slice() {
        [] => Err(CommandError::Missing(command)),
        [only] => Ok(*only),
        [_, extra, ..] => Err(bad(extra)),
    };
    let targets = || {
        if args.is_empty() {
            return Err(CommandError::Missing(command));
        }
        args.iter()
            .map(|a| target(a).ok_or_else(|| bad(a)))
            .collect::<Result<Vec<_>, _>>()
    };
    let words = || {
        if args.is_empty() {
            return Err(CommandError::Missing(command));
        }
        args.iter()
            .map(|a| {
                (a.chars().count() <= MAX_ARGUMENT_CHARS)
                    .then(|| a.to_lowercase())
                    .ok_or_else(|| bad(a))
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let all = || matches!(args.as_slice(), [only] if only.eq_ignore_ascii_case("all"));
    Ok(match command {
        "start" => match args.as_slice() {
            [] => Command::Start(None),
            [code] if is_code(code) => Command::Start(Some((*code).to_owned())),
            [code, ..] => return Err(bad(code)),
        },
        "link" => match one()? {
            code if is_code(code) => Command::Link(code.to_owned()),
            code => return Err(bad(code)),
        },
        "sub" => Command::Sub(targets()?),
        "unsub" if all() => Command::Unsub(Selection::All),
        "unsub" => Command::Unsub(Selection::These(targets()?)),
        "lang" => {
            let asked = one()?;
            let locale = LOCALES
                .into_iter()
                .find(|l| l.eq_ignore_ascii_case(asked))
                .ok_or_else(|| bad(asked))?;
            Command::Lang(locale)
        }
        "mute" => Command::Mute(words()?),
        "unmute" if all() => Command::Unmute(Selection::All),
        "unmute" => Command::Unmute(Selection::These(words()?)),
        "digest" => Command::Digest(match one()?.to_ascii_lowercase().as_str() {
            "off" => Digest::Off,
            "hourly" => Digest::Hourly,
            "daily" => Digest::Daily,
            _ => return Err(bad(one()?)),
        }),
        _ if !args.is_empty() => return Err(bad(args[0])),
        "list" => Command::List,
        "help" => Command::Help,
        _ => Command::Unlink,
    })
}

/// Letters, digits, `-` and `_`, up to [`MAX_ARGUMENT_CHARS`].
fn is_code(s: &str) -> bool {
    !s.is_empty()
        && s.chars().count() <= MAX_ARGUMENT_CHARS
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn target(arg: &str) -> Option<Target> {
    if let Some(symbol) = arg.strip_prefix('$') {
        return is_code(symbol).then(|| Target::Symbol(symbol.to_ascii_uppercase()));
    }
    if !is_code(arg) {
        return None;
    }
    let name = arg.to_ascii_lowercase();
    Some(match name.as_str() {
        "important" => Target::Important,
        "news" => Target::News,
        "articles" => Target::Articles,
        "following" => Target::Following,
        "community" => Target::Community,
        _ => Target::Named(name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: &str = "BlockbriefBot";

    fn telegram(text: &str) -> Result<Command, CommandError> {
        parse_command(text, BOT, true)
    }

    #[test]
    fn subscriptions_name_targets_in_any_case() {
        assert_eq!(
            telegram("/sub bitcoin $btc Important news ARTICLES following Community"),
            Ok(Command::Sub(vec![
                Target::Named("bitcoin".into()),
                Target::Symbol("BTC".into()),
                Target::Important,
                Target::News,
                Target::Articles,
                Target::Following,
                Target::Community,
            ]))
        );
        assert_eq!(telegram("/unsub all"), Ok(Command::Unsub(Selection::All)));
        assert_eq!(
            telegram("/unsub btc"),
            Ok(Command::Unsub(Selection::These(vec![Target::Named(
                "btc".into()
            )])))
        );
        assert_eq!(telegram("/sub"), Err(CommandError::Missing("sub")));
        assert_eq!(
            telegram("/sub bit<coin"),
            Err(CommandError::Bad {
                command: "sub",
                argument: "bit<coin".into()
            })
        );
        assert_eq!(
            telegram("/sub $"),
            Err(CommandError::Bad {
                command: "sub",
                argument: "$".into()
            })
        );
        let many = format!("/sub {}", vec!["btc"; MAX_ARGUMENTS + 1].join(" "));
        assert_eq!(telegram(&many), Err(CommandError::TooMany("sub")));
    }

    #[test]
    fn groups_address_a_bot_by_name_and_line_needs_no_slash() {
        assert_eq!(telegram("/list@blockbriefbot"), Ok(Command::List));
        assert_eq!(telegram("/list@OtherBot"), Err(CommandError::ForAnotherBot));
        assert_eq!(telegram("sub bitcoin"), Err(CommandError::NotACommand));
        assert_eq!(telegram("/"), Err(CommandError::NotACommand));
        assert_eq!(
            parse_command("  sub bitcoin ", BOT, false),
            Ok(Command::Sub(vec![Target::Named("bitcoin".into())]))
        );
        assert_eq!(
            telegram("/frobnicate"),
            Err(CommandError::Unknown("frobnicate".into()))
        );
        let long = format!("/sub {}", "a".repeat(MAX_COMMAND_CHARS));
        assert_eq!(telegram(&long), Err(CommandError::TooLong));
    }

    #[test]
    fn settings_take_exactly_their_values() {
        assert_eq!(telegram("/lang zh-hant"), Ok(Command::Lang("zh-Hant")));
        assert_eq!(
            telegram("/lang fr"),
            Err(CommandError::Bad {
                command: "lang",
                argument: "fr".into()
            })
        );
        assert_eq!(telegram("/lang"), Err(CommandError::Missing("lang")));
        assert_eq!(
            telegram("/lang en ko"),
            Err(CommandError::Bad {
                command: "lang",
                argument: "ko".into()
            })
        );
        assert_eq!(
            telegram("/digest Daily"),
            Ok(Command::Digest(Digest::Daily))
        );
        assert_eq!(
            telegram("/digest weekly"),
            Err(CommandError::Bad {
                command: "digest",
                argument: "weekly".into()
            })
        );
        assert_eq!(
            telegram("/mute Scam 空投"),
            Ok(Command::Mute(vec!["scam".into(), "空投".into()]))
        );
        assert_eq!(telegram("/unmute ALL"), Ok(Command::Unmute(Selection::All)));
        assert_eq!(telegram("/help"), Ok(Command::Help));
        assert_eq!(
            telegram("/help me"),
            Err(CommandError::Bad {
                command: "help",
                argument: "me".into()
            })
        );
        assert_eq!(telegram("/unlink"), Ok(Command::Unlink));
    }

    #[test]
    fn start_carries_an_optional_link_code() {
        assert_eq!(telegram("/start"), Ok(Command::Start(None)));
        assert_eq!(
            telegram("/start AbC123_-x"),
            Ok(Command::Start(Some("AbC123_-x".into())))
        );
        assert_eq!(
            telegram("/start <script>"),
            Err(CommandError::Bad {
                command: "start",
                argument: "<script>".into()
            })
        );
        // The confirmation's button.
        assert_eq!(telegram("/link AbC123"), Ok(Command::Link("AbC123".into())));
        assert_eq!(telegram("/link"), Err(CommandError::Missing("link")));
        assert!(matches!(
            telegram("/link a b"),
            Err(CommandError::Bad { .. })
        ));
        assert!(matches!(
            telegram("/link <b>"),
            Err(CommandError::Bad { .. })
        ));
    }
}
