//! Comments as both sides read them: the length rule (also the form's counter), who a comment
//! mentions, the word being typed after `@` (for suggestions), how long the author may edit,
//! and how the text shows: plain text with links and mentions picked out, never HTML.

use serde::{Deserialize, Serialize};

use crate::message::Message;

/// The longest comment, counted in code points after trimming.
pub const COMMENT_MAX_CHARS: usize = 1000;
/// How long after posting the author may edit a comment.
pub const COMMENT_EDIT_SECONDS: i64 = 15 * 60;
/// The longest name read after `@`.
pub const MENTION_MAX_CHARS: usize = 24;
/// Mentions one comment may notify.
pub const MAX_MENTIONS: usize = 10;
/// Replies shown under each top-level comment before "more replies".
pub const REPLIES_SHOWN: usize = 3;

pub const MSG_COMMENT_EMPTY: Message = Message::new("comment.empty", "Write something first");
pub const MSG_COMMENT_TOO_LONG: Message = Message::new(
    "comment.tooLong",
    "A comment can be at most 1,000 characters",
);

/// The state of a comment form: its counter, and the message when it cannot be sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CommentCheck {
    pub ok: bool,
    /// Code points after trimming.
    pub count: usize,
    pub max: usize,
    pub error: Option<Message>,
}

pub fn check_comment(content: &str) -> CommentCheck {
    let count = content.trim().chars().count();
    let error = if count == 0 {
        Some(MSG_COMMENT_EMPTY)
    } else if count > COMMENT_MAX_CHARS {
        Some(MSG_COMMENT_TOO_LONG)
    } else {
        None
    };
    CommentCheck {
        ok: error.is_none(),
        count,
        max: COMMENT_MAX_CHARS,
        error,
    }
}

/// Punctuation that ends a name written after `@` ("@alice, thanks").
fn ends_name(c: char) -> bool {
    c.is_whitespace() || c == '@' || ",.!?:;()[]{}\"'，。！？：；（）、「」".contains(c)
}

/// The name after an `@` that starts a word, if it is one.
fn name_at(rest: &str) -> Option<&str> {
    let end = rest.find(ends_name).unwrap_or(rest.len());
    let name = &rest[..end];
    let chars = name.chars().count();
    (1..=MENTION_MAX_CHARS).contains(&chars).then_some(name)
}

/// The names a comment mentions (`@name` at the start of a word), in order, each once (without
/// regard to case), at most [`MAX_MENTIONS`].
pub fn mentions(content: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut previous: Option<char> = None;
    for (at, c) in content.char_indices() {
        let starts_word = previous.is_none_or(char::is_whitespace);
        previous = Some(c);
        if c != '@' || !starts_word {
            continue;
        }
        if let Some(name) = name_at(&content[at + 1..])
            && !names
                .iter()
                .any(|n| n.to_lowercase() == name.to_lowercase())
        {
            names.push(name.to_owned());
            if names.len() == MAX_MENTIONS {
                break;
            }
        }
    }
    names
}

/// The name being typed when the text before the caret ends in `@name` (possibly empty, just
/// after the `@`), for the suggestions list; `None` otherwise.
pub fn mention_query(before_caret: &str) -> Option<String> {
    let at = before_caret.rfind('@')?;
    let starts_word = before_caret[..at]
        .chars()
        .next_back()
        .is_none_or(char::is_whitespace);
    let typed = &before_caret[at + 1..];
    (starts_word && !typed.contains(ends_name) && typed.chars().count() <= MENTION_MAX_CHARS)
        .then(|| typed.to_owned())
}

/// Whether a comment posted at `created_at` may still be edited at `now`.
pub fn can_edit_comment(created_at: i64, now: i64) -> bool {
    now >= created_at && now - created_at <= COMMENT_EDIT_SECONDS
}

/// A run of a comment's text as it shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Segment {
    Text {
        text: String,
    },
    /// An `http` or `https` address, shown as a link to itself.
    Link {
        text: String,
    },
    /// `@name`; `name` without the `@`.
    Mention {
        text: String,
        name: String,
    },
}

/// Trailing characters that end a sentence, not a link ("see https://x.io.").
fn link_end(url: &str) -> usize {
    url.trim_end_matches(|c: char| ".,!?:;)]}'\"。，！？".contains(c))
        .len()
}

/// Splits a comment into text, links and mentions, in order; concatenated, the segments' texts
/// are the comment.
pub fn comment_segments(content: &str) -> Vec<Segment> {
    let mut segments = Vec::new();
    let mut plain = String::new();
    let mut rest = content;
    let mut previous: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        let starts_word = previous.is_none_or(|p| p.is_whitespace() || "(（".contains(p));
        let taken = if !starts_word {
            None
        } else if rest.starts_with("https://") || rest.starts_with("http://") {
            let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let end = link_end(&rest[..word]);
            let scheme = if rest.starts_with("https://") { 8 } else { 7 };
            (end > scheme).then(|| {
                (
                    Segment::Link {
                        text: rest[..end].to_owned(),
                    },
                    end,
                )
            })
        } else if c == '@' {
            name_at(&rest[1..]).map(|name| {
                (
                    Segment::Mention {
                        text: format!("@{name}"),
                        name: name.to_owned(),
                    },
                    name.len() + 1,
                )
            })
        } else {
            None
        };
        match taken {
            Some((segment, len)) => {
                if !plain.is_empty() {
                    segments.push(Segment::Text {
                        text: std::mem::take(&mut plain),
                    });
                }
                segments.push(segment);
                previous = rest[..len].chars().next_back();
                rest = &rest[len..];
            }
            None => {
                plain.push(c);
                previous = Some(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !plain.is_empty() {
        segments.push(Segment::Text { text: plain });
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_put_back_together_are_the_comment() {
        for text in [
            "see https://x.io/a?b=1. and @bob, ok",
            "@@a @ b https:// http://x",
            "（https://例子.com）",
            "",
        ] {
            let joined: String = comment_segments(text)
                .into_iter()
                .map(|s| match s {
                    Segment::Text { text } | Segment::Link { text } => text,
                    Segment::Mention { text, .. } => text,
                })
                .collect();
            assert_eq!(joined, text);
        }
    }
}
