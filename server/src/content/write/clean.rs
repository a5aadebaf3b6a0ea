//! Text from outside, cleaned and checked once: HTML through ammonia's allow list, titles and
//! summaries to plain text, URLs, codes, times and per-locale maps.

use std::collections::{BTreeMap, HashMap};

use client_core::link::is_absolute_http_url;
use client_core::locale::LOCALES;
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};

pub(super) const TITLE_MAX_CHARS: usize = 300;
pub(super) const SUMMARY_MAX_CHARS: usize = 2_000;
pub(super) const CONTENT_MAX_BYTES: usize = 512 * 1024;
pub(super) const URL_MAX_BYTES: usize = 1024;
pub(super) const LINKS_MAX: usize = 20;

/// A time given as Unix seconds or as an RFC 3339 string.
#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Timestamp {
    Unix(i64),
    Text(String),
}

impl Timestamp {
    pub(super) fn seconds(&self) -> AppResult<i64> {
        match self {
            Self::Unix(s) if *s >= 0 => Ok(*s),
            Self::Text(t) => chrono::DateTime::parse_from_rfc3339(t)
                .map(|d| d.timestamp())
                .map_err(|_| {
                    AppError::invalid("published_at must be Unix seconds or an RFC 3339 time")
                }),
            Self::Unix(_) => Err(AppError::invalid("published_at must not be negative")),
        }
    }
}

/// HTML an editor may use; scripts, event handlers, styles and `javascript:` links are removed.
/// Our own link kinds (`blockbrief://Screen`, `external:https://…`) are kept: the reader's app
/// maps them with client-core's link rule when it shows the article.
pub fn clean_html(html: &str) -> String {
    ammonia::Builder::default()
        .add_url_schemes(&["blockbrief", "external"])
        .link_rel(Some("noopener noreferrer nofollow"))
        .clean(html)
        .to_string()
}

/// Plain text: tags removed, entities decoded, whitespace collapsed.
pub fn plain_text(text: &str) -> String {
    let stripped = ammonia::Builder::empty().clean(text).to_string();
    let decoded = html_escape::decode_html_entities(&stripped);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn checked_text(
    field: &str,
    text: &str,
    max_chars: usize,
    required: bool,
) -> AppResult<String> {
    let text = plain_text(text);
    if required && text.is_empty() {
        return Err(AppError::invalid(format!("{field} must not be empty")));
    }
    if text.chars().count() > max_chars {
        return Err(AppError::invalid(format!(
            "{field} is longer than {max_chars} characters"
        )));
    }
    Ok(text)
}

pub(super) fn checked_content(text: &str) -> AppResult<String> {
    if text.len() > CONTENT_MAX_BYTES {
        return Err(AppError::invalid("content is larger than 512 KB"));
    }
    Ok(clean_html(text))
}

pub(super) fn checked_url(field: &str, url: &str) -> AppResult<String> {
    let url = url.trim();
    if url.len() > URL_MAX_BYTES || !is_absolute_http_url(url) {
        return Err(AppError::invalid(format!("{field} must be an http(s) URL")));
    }
    Ok(url.to_owned())
}

pub(super) fn checked_code(field: &str, code: &str) -> AppResult<String> {
    let code = code.trim();
    let ok = !code.is_empty()
        && code.len() <= 64
        && code
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !ok {
        return Err(AppError::invalid(format!(
            "{field} must be 1–64 letters, digits, _ - ."
        )));
    }
    Ok(code.to_owned())
}

/// Text keyed by locale, checked and stored as one JSON object.
pub(super) fn locale_map(
    field: &str,
    map: &HashMap<String, String>,
    required: bool,
) -> AppResult<String> {
    if required && !map.contains_key("en") {
        return Err(AppError::invalid(format!("{field} needs an en entry")));
    }
    let mut clean = BTreeMap::new();
    for (locale, text) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(AppError::invalid(format!(
                "{field} is keyed by {}",
                LOCALES.join(", ")
            )));
        }
        clean.insert(
            locale.clone(),
            checked_text(field, text, SUMMARY_MAX_CHARS, required)?,
        );
    }
    serde_json::to_string(&clean).map_err(AppError::internal)
}

/// Words a catalogue entry is said with, by locale (a token's aliases, a tag's or topic's
/// keywords), as stored: each locale one of ours, each word 2 to [`WORD_MAX_CHARS`] characters
/// (one letter would link every text that has it), at most [`WORDS_PER_LOCALE_MAX`] a locale.
pub(super) fn words_map(field: &str, map: &BTreeMap<String, Vec<String>>) -> AppResult<String> {
    let mut clean: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (locale, words) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(AppError::invalid(format!(
                "{field} are keyed by {}",
                LOCALES.join(", ")
            )));
        }
        if words.len() > WORDS_PER_LOCALE_MAX {
            return Err(AppError::invalid(format!(
                "{field}: at most {WORDS_PER_LOCALE_MAX} a language"
            )));
        }
        let mut kept = Vec::with_capacity(words.len());
        for word in words {
            let word = word.split_whitespace().collect::<Vec<_>>().join(" ");
            let chars = word.chars().count();
            if !(2..=WORD_MAX_CHARS).contains(&chars) {
                return Err(AppError::invalid(format!(
                    "{field}: \"{word}\" must have 2 to {WORD_MAX_CHARS} characters"
                )));
            }
            // A word of punctuation alone would link nearly every text; control and format
            // characters are never part of a name.
            if !word.chars().any(char::is_alphanumeric)
                || word.chars().any(|c| c.is_control() || is_format(c))
            {
                return Err(AppError::invalid(format!(
                    "{field}: \"{word}\" must have a letter or digit and no control characters"
                )));
            }
            if !kept.contains(&word) {
                kept.push(word);
            }
        }
        clean.insert(locale.clone(), kept);
    }
    serde_json::to_string(&clean).map_err(AppError::internal)
}

/// Zero-width and direction marks (Unicode's format characters in common use).
fn is_format(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

const WORD_MAX_CHARS: usize = 64;
const WORDS_PER_LOCALE_MAX: usize = 50;
