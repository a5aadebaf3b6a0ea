//! The live stream's rules: its subjects as a URL names them (`home,tag:btc,feed:7`), read and
//! written the same by the app and the server, and which new items a reader's subjects match.

use serde::{Deserialize, Serialize};

use crate::message::Message;

/// At most this many subjects on one stream.
pub const STREAM_SUBJECTS_MAX: usize = 20;

pub const MSG_SUBJECT_UNKNOWN: Message = Message::new(
    "stream.unknownSubject",
    "Subjects are home, tag:<code>, token:<symbol>, channel:<code>, kol:<id>, topic:<id> or feed:<id>",
);
pub const MSG_SUBJECTS_COUNT: Message = Message::new(
    "stream.subjectsCount",
    "A stream follows between 1 and 20 subjects",
);

/// What a stream follows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", content = "of", rename_all = "lowercase")]
pub enum Subject {
    /// The reader's home feed, by their tab's rule.
    Home,
    /// Items of a tag, by its code (lower case).
    Tag(String),
    /// Items of a token, by its symbol (upper case).
    Token(String),
    /// Items of a channel, by its code.
    Channel(String),
    Kol(i64),
    Topic(i64),
    /// One item's thread: its counts and comments.
    Feed(i64),
}

impl Subject {
    /// One subject as written in a list (`tag:btc`); codes are folded as the catalogue keeps them.
    pub fn parse(text: &str) -> Result<Self, Message> {
        let text = text.trim();
        if text == "home" {
            return Ok(Self::Home);
        }
        let (kind, value) = text.split_once(':').ok_or(MSG_SUBJECT_UNKNOWN)?;
        let code = || {
            let ok = !value.is_empty()
                && value.len() <= 64
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
            if ok {
                Ok(value.to_owned())
            } else {
                Err(MSG_SUBJECT_UNKNOWN)
            }
        };
        let id = || match value.parse::<i64>() {
            Ok(id) if id > 0 && !value.starts_with('+') => Ok(id),
            _ => Err(MSG_SUBJECT_UNKNOWN),
        };
        match kind {
            "tag" => Ok(Self::Tag(code()?.to_ascii_lowercase())),
            "token" => Ok(Self::Token(code()?.to_ascii_uppercase())),
            "channel" => Ok(Self::Channel(code()?)),
            "kol" => Ok(Self::Kol(id()?)),
            "topic" => Ok(Self::Topic(id()?)),
            "feed" => Ok(Self::Feed(id()?)),
            _ => Err(MSG_SUBJECT_UNKNOWN),
        }
    }
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Home => f.write_str("home"),
            Self::Tag(code) => write!(f, "tag:{code}"),
            Self::Token(symbol) => write!(f, "token:{symbol}"),
            Self::Channel(code) => write!(f, "channel:{code}"),
            Self::Kol(id) => write!(f, "kol:{id}"),
            Self::Topic(id) => write!(f, "topic:{id}"),
            Self::Feed(id) => write!(f, "feed:{id}"),
        }
    }
}

/// A comma list of subjects: 1 to `STREAM_SUBJECTS_MAX`, each once (repeats are dropped).
pub fn parse_subjects(list: &str) -> Result<Vec<Subject>, Message> {
    let mut subjects: Vec<Subject> = Vec::new();
    for part in list.split(',').filter(|p| !p.trim().is_empty()) {
        let subject = Subject::parse(part)?;
        if !subjects.contains(&subject) {
            subjects.push(subject);
        }
        if subjects.len() > STREAM_SUBJECTS_MAX {
            return Err(MSG_SUBJECTS_COUNT);
        }
    }
    if subjects.is_empty() {
        return Err(MSG_SUBJECTS_COUNT);
    }
    Ok(subjects)
}

/// Subjects as a URL names them.
pub fn write_subjects(subjects: &[Subject]) -> String {
    subjects
        .iter()
        .map(Subject::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// What the subjects need to know of a new item.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemFacts {
    pub kind: String,
    pub important: bool,
    /// The language it was written in and those it was translated into.
    pub langs: Vec<String>,
    pub tags: Vec<String>,
    pub tokens: Vec<String>,
    pub topics: Vec<i64>,
    pub channel: Option<String>,
    pub kol: Option<i64>,
    /// The reader who wrote it (a post).
    pub author: Option<i64>,
}

/// What a reader follows, for a `home` subject on the `following` tab.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Follows {
    pub tags: Vec<String>,
    pub tokens: Vec<String>,
    pub topics: Vec<i64>,
    pub kols: Vec<i64>,
    pub users: Vec<i64>,
}

/// How a stream narrows what its subjects match, as the lists do.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamFilter {
    /// The kinds the reader's home tab lists (`None`: every kind).
    pub home_kinds: Option<Vec<String>>,
    /// The `following` tab: `home` keeps to what the reader follows.
    pub home_follows: Option<Follows>,
    pub only_important: bool,
    /// The reader's languages (`None`: every language).
    pub langs: Option<Vec<String>>,
}

/// Whether a new item belongs on a stream of `subjects` narrowed by `filter`. `feed:` subjects
/// follow one thread and match no new item.
pub fn item_matches(subjects: &[Subject], filter: &StreamFilter, item: &ItemFacts) -> bool {
    if filter.only_important && !item.important {
        return false;
    }
    if let Some(langs) = &filter.langs
        && !item.langs.iter().any(|l| langs.contains(l))
    {
        return false;
    }
    subjects.iter().any(|subject| match subject {
        Subject::Home => {
            let kind_ok = filter
                .home_kinds
                .as_ref()
                .is_none_or(|kinds| kinds.contains(&item.kind));
            let followed = filter.home_follows.as_ref().is_none_or(|f| {
                item.tags.iter().any(|t| f.tags.contains(t))
                    || item.tokens.iter().any(|t| f.tokens.contains(t))
                    || item.topics.iter().any(|t| f.topics.contains(t))
                    || item.kol.is_some_and(|k| f.kols.contains(&k))
                    || item.author.is_some_and(|u| f.users.contains(&u))
            });
            kind_ok && followed
        }
        Subject::Tag(code) => item.tags.contains(code),
        Subject::Token(symbol) => item.tokens.contains(symbol),
        Subject::Channel(code) => item.channel.as_ref() == Some(code),
        Subject::Kol(id) => item.kol == Some(*id),
        Subject::Topic(id) => item.topics.contains(id),
        Subject::Feed(_) => false,
    })
}

/// The threads (`feed:` subjects) a stream follows.
pub fn threads(subjects: &[Subject]) -> impl Iterator<Item = i64> + '_ {
    subjects.iter().filter_map(|s| match s {
        Subject::Feed(id) => Some(*id),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item() -> ItemFacts {
        ItemFacts {
            kind: "flash".into(),
            important: false,
            langs: vec!["en".into(), "ko".into()],
            tags: vec!["defi".into()],
            tokens: vec!["BTC".into()],
            topics: vec![3],
            channel: Some("markets".into()),
            kol: Some(9),
            author: None,
        }
    }

    #[test]
    fn subjects_read_back_as_written() {
        let list = "home, tag:DeFi,token:btc,channel:markets,kol:9,topic:3,feed:7,tag:defi";
        let subjects = parse_subjects(list).expect("valid");
        assert_eq!(subjects.len(), 7, "the repeated tag is dropped");
        assert_eq!(
            write_subjects(&subjects),
            "home,tag:defi,token:BTC,channel:markets,kol:9,topic:3,feed:7"
        );
        assert_eq!(parse_subjects(&write_subjects(&subjects)), Ok(subjects));
    }

    #[test]
    fn unknown_or_too_many_subjects_are_refused() {
        for bad in [
            "feed", "feed:", "feed:0", "feed:-3", "feed:+3", "kol:x", "user:1", "tag:a b",
        ] {
            assert_eq!(parse_subjects(bad), Err(MSG_SUBJECT_UNKNOWN), "{bad}");
        }
        assert_eq!(parse_subjects(" , "), Err(MSG_SUBJECTS_COUNT));
        let many: Vec<String> = (1..=21).map(|i| format!("feed:{i}")).collect();
        assert_eq!(parse_subjects(&many.join(",")), Err(MSG_SUBJECTS_COUNT));
        assert!(parse_subjects(&many[..20].join(",")).is_ok());
    }

    #[test]
    fn items_match_their_subjects_narrowed_as_the_lists_are() {
        let all = StreamFilter::default();
        let one = |s: &str| parse_subjects(s).expect("valid");
        for hit in [
            "home",
            "tag:defi",
            "token:BTC",
            "channel:markets",
            "kol:9",
            "topic:3",
        ] {
            assert!(item_matches(&one(hit), &all, &item()), "{hit}");
        }
        for miss in [
            "tag:nft",
            "token:ETH",
            "channel:other",
            "kol:8",
            "topic:4",
            "feed:1",
        ] {
            assert!(!item_matches(&one(miss), &all, &item()), "{miss}");
        }
        let important = StreamFilter {
            only_important: true,
            ..all.clone()
        };
        assert!(!item_matches(&one("home"), &important, &item()));
        let vietnamese = StreamFilter {
            langs: Some(vec!["vi".into()]),
            ..all.clone()
        };
        assert!(!item_matches(&one("home"), &vietnamese, &item()));
        let articles = StreamFilter {
            home_kinds: Some(vec!["article".into()]),
            ..all.clone()
        };
        assert!(!item_matches(&one("home"), &articles, &item()));
        assert!(item_matches(&one("home,tag:defi"), &articles, &item()));
        let following = |follows: Follows| StreamFilter {
            home_follows: Some(follows),
            ..all.clone()
        };
        assert!(!item_matches(
            &one("home"),
            &following(Follows::default()),
            &item()
        ));
        let kol = Follows {
            kols: vec![9],
            ..Follows::default()
        };
        assert!(item_matches(&one("home"), &following(kol), &item()));
    }
}
