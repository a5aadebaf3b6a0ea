//! Alert rules: what a reader wants to hear about, said once and matched everywhere (the
//! server's fan-out, the bots' filters, the editor's live count in the browser).
//!
//! A rule matches an item when any of its keywords, tokens, tags, channels, KOLs or topics does
//! (a rule naming none of them but `only_important` matches every important item; one naming
//! only a price, see `price_alert`, matches none), no excluded
//! keyword (`-scam`) appears, the item is important when the rule asks for that, and it is in
//! one of the rule's languages when it names some. Keywords are case-insensitive, `"a phrase"`
//! matches the words in that order; Latin and Vietnamese keywords match whole words, Chinese and
//! Korean ones anywhere in the text. The text is the item's title, summary and body and those of
//! its translations.
//!
//! [`AlertIndex`] finds the rules an item matches without trying every rule: it looks rules up
//! by the item's words, characters, tokens, tags, channel, KOL and topics, then checks only
//! those.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::message::Message;
use crate::price_alert::{PriceRule, check_price_rule};
use crate::script::{is_cjk, is_word_char};

pub const KEYWORDS_MAX: usize = 30;
pub const KEYWORD_MAX_CHARS: usize = 60;
/// Tokens, tags, channels, KOLs or topics one rule names, each.
pub const TARGETS_MAX: usize = 50;

pub const MSG_EMPTY: Message = Message::new(
    "alert.empty",
    "Say what to alert you about: a keyword, token, tag, channel, KOL or topic, important news, or a price",
);
pub const MSG_TOO_MANY_KEYWORDS: Message =
    Message::new("alert.tooManyKeywords", "An alert has at most 30 keywords");
pub const MSG_KEYWORD_TOO_LONG: Message =
    Message::new("alert.keywordTooLong", "A keyword has 1 to 60 characters");
pub const MSG_TOO_MANY_TARGETS: Message = Message::new(
    "alert.tooManyTargets",
    "An alert names at most 50 tokens, tags, channels, KOLs or topics of each kind",
);

/// What a reader wants to hear about.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct AlertRule {
    /// Any of these (`"a phrase"`); `-word` excludes.
    pub keywords: Vec<String>,
    /// Token symbols (`BTC`).
    pub tokens: Vec<String>,
    /// Tag codes.
    pub tags: Vec<String>,
    /// Channel codes.
    pub channels: Vec<String>,
    pub kols: Vec<i64>,
    pub topics: Vec<i64>,
    pub only_important: bool,
    /// The languages an item is in or translated into (empty: any).
    pub langs: Vec<String>,
    /// A token's price to watch (`price_alert`): a rule naming only this matches no item.
    pub price: Option<PriceRule>,
}

/// An item as rules see it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct AlertItem {
    pub important: bool,
    /// Its language and those it was translated into.
    pub langs: Vec<String>,
    pub tokens: Vec<String>,
    pub tags: Vec<String>,
    pub channel: Option<String>,
    pub kol: Option<i64>,
    pub topics: Vec<i64>,
    /// Titles, summaries and bodies as plain text, its own and its translations'.
    pub texts: Vec<String>,
}

/// One keyword as written: its words, lower-case, and whether it excludes.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Keyword {
    words: Vec<String>,
    exclude: bool,
}

impl Keyword {
    fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        let (exclude, rest) = match raw.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, raw),
        };
        let rest = rest.trim().trim_matches('"');
        let words: Vec<String> = rest.split_whitespace().map(str::to_lowercase).collect();
        (!words.is_empty()).then_some(Self { words, exclude })
    }

    /// The phrase as searched in a text whose words are joined by single spaces.
    fn phrase(&self) -> String {
        self.words.join(" ")
    }
}

/// Why a rule cannot be kept, or `None`.
pub fn check_rule(rule: &AlertRule) -> Option<Message> {
    if rule.keywords.len() > KEYWORDS_MAX {
        return Some(MSG_TOO_MANY_KEYWORDS);
    }
    let too_long = |k: &String| {
        let n = k.trim().chars().count();
        n > KEYWORD_MAX_CHARS || Keyword::parse(k).is_none()
    };
    if rule.keywords.iter().any(too_long) {
        return Some(MSG_KEYWORD_TOO_LONG);
    }
    let targets = [
        rule.tokens.len(),
        rule.tags.len(),
        rule.channels.len(),
        rule.kols.len(),
        rule.topics.len(),
    ];
    if targets.iter().any(|n| *n > TARGETS_MAX) {
        return Some(MSG_TOO_MANY_TARGETS);
    }
    let included = rule
        .keywords
        .iter()
        .filter_map(|k| Keyword::parse(k))
        .any(|k| !k.exclude);
    if !included && targets.iter().all(|n| *n == 0) && !rule.only_important && rule.price.is_none()
    {
        return Some(MSG_EMPTY);
    }
    rule.price.as_ref().and_then(check_price_rule)
}

/// A rule made ready to match: keywords parsed, targets normalised.
#[derive(Debug, Clone)]
pub struct Prepared {
    included: Vec<Keyword>,
    excluded: Vec<Keyword>,
    rule: AlertRule,
}

impl Prepared {
    pub fn new(rule: &AlertRule) -> Self {
        let (excluded, included) = rule
            .keywords
            .iter()
            .filter_map(|k| Keyword::parse(k))
            .partition(|k| k.exclude);
        let mut rule = rule.clone();
        for symbol in &mut rule.tokens {
            *symbol = symbol.trim().to_uppercase();
        }
        for code in rule.tags.iter_mut().chain(&mut rule.channels) {
            *code = code.trim().to_lowercase();
        }
        Self {
            included,
            excluded,
            rule,
        }
    }

    /// Whether it names anything to look for (else it matches every important item).
    fn names_something(&self) -> bool {
        let r = &self.rule;
        !self.included.is_empty()
            || !r.tokens.is_empty()
            || !r.tags.is_empty()
            || !r.channels.is_empty()
            || !r.kols.is_empty()
            || !r.topics.is_empty()
    }

    pub fn matches(&self, item: &ItemText) -> bool {
        let r = &self.rule;
        if r.only_important && !item.important {
            return false;
        }
        if !r.langs.is_empty() && !item.langs.iter().any(|l| r.langs.contains(l)) {
            return false;
        }
        if self.excluded.iter().any(|k| item.has(k)) {
            return false;
        }
        if !self.names_something() {
            // Only important news, or (a price alert) no item at all.
            return r.only_important;
        }
        self.included.iter().any(|k| item.has(k))
            || r.tokens.iter().any(|t| item.tokens.contains(t))
            || r.tags.iter().any(|t| item.tags.contains(t))
            || r.channels.iter().any(|c| item.channel.as_ref() == Some(c))
            || item.kol.is_some_and(|k| r.kols.contains(&k))
            || r.topics.iter().any(|t| item.topics.contains(t))
    }
}

/// An item's text made ready for many rules: lower-case, words joined by single spaces, and
/// its whole words as a set.
#[derive(Debug, Clone)]
pub struct ItemText {
    important: bool,
    langs: Vec<String>,
    tokens: HashSet<String>,
    tags: HashSet<String>,
    channel: Option<String>,
    kol: Option<i64>,
    topics: HashSet<i64>,
    /// Each text lower-case, runs of whitespace as one space.
    texts: Vec<String>,
    words: HashSet<String>,
    cjk: HashSet<char>,
}

impl ItemText {
    pub fn new(item: &AlertItem) -> Self {
        let texts: Vec<String> = item
            .texts
            .iter()
            .map(|t| {
                t.to_lowercase()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let words = texts
            .iter()
            .flat_map(|t| t.split(|c: char| !is_word_char(c)))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        let cjk = texts
            .iter()
            .flat_map(|t| t.chars())
            .filter(|c| is_cjk(*c))
            .collect();
        Self {
            important: item.important,
            langs: item.langs.clone(),
            tokens: item.tokens.iter().map(|t| t.to_uppercase()).collect(),
            tags: item.tags.iter().map(|t| t.to_lowercase()).collect(),
            channel: item.channel.as_ref().map(|c| c.to_lowercase()),
            kol: item.kol,
            topics: item.topics.iter().copied().collect(),
            texts,
            words,
            cjk,
        }
    }

    fn has(&self, keyword: &Keyword) -> bool {
        if let [word] = keyword.words.as_slice()
            && word.chars().all(is_word_char)
        {
            return self.words.contains(word);
        }
        let phrase = keyword.phrase();
        self.texts.iter().any(|t| contains_bounded(t, &phrase))
    }
}

/// Whether `needle` is in `text` where its Latin ends meet no letter or digit of the same kind.
fn contains_bounded(text: &str, needle: &str) -> bool {
    let (Some(first), Some(last)) = (needle.chars().next(), needle.chars().last()) else {
        return false;
    };
    text.match_indices(needle).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + needle.len()..].chars().next();
        let open = !is_word_char(first) || before.is_none_or(|c| !is_word_char(c));
        let close = !is_word_char(last) || after.is_none_or(|c| !is_word_char(c));
        open && close
    })
}

/// Whether any of `words` appears in `texts` the way an alert's keywords match (whole words in
/// Latin and Vietnamese, anywhere in Chinese and Korean, `"a phrase"`): the bots' muted words.
pub fn mentions_any(words: &[String], texts: &[String]) -> bool {
    let item = ItemText::new(&AlertItem {
        texts: texts.to_vec(),
        ..AlertItem::default()
    });
    words
        .iter()
        .filter_map(|w| Keyword::parse(w.trim_start_matches('-')))
        .any(|k| item.has(&k))
}

/// Whether `rule` matches `item`.
pub fn rule_matches(rule: &AlertRule, item: &AlertItem) -> bool {
    Prepared::new(rule).matches(&ItemText::new(item))
}

/// How many of `items` `rule` matches (the editor's live count over a sample).
pub fn count_matches(rule: &AlertRule, items: &[AlertItem]) -> usize {
    let prepared = Prepared::new(rule);
    items
        .iter()
        .filter(|item| prepared.matches(&ItemText::new(item)))
        .count()
}

/// Many rules, each under a key of the caller's (a reader's alert), found by what an item has.
#[derive(Debug, Default)]
pub struct AlertIndex<K> {
    rules: Vec<(K, Prepared)>,
    by_word: HashMap<String, Vec<usize>>,
    by_char: HashMap<char, Vec<usize>>,
    by_token: HashMap<String, Vec<usize>>,
    by_tag: HashMap<String, Vec<usize>>,
    by_channel: HashMap<String, Vec<usize>>,
    by_kol: HashMap<i64, Vec<usize>>,
    by_topic: HashMap<i64, Vec<usize>>,
    /// Rules that name nothing but important news.
    every_important: Vec<usize>,
}

impl<K: Clone> AlertIndex<K> {
    pub fn new() -> Self {
        Self {
            rules: Vec::new(),
            by_word: HashMap::new(),
            by_char: HashMap::new(),
            by_token: HashMap::new(),
            by_tag: HashMap::new(),
            by_channel: HashMap::new(),
            by_kol: HashMap::new(),
            by_topic: HashMap::new(),
            every_important: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    pub fn insert(&mut self, key: K, rule: &AlertRule) {
        let at = self.rules.len();
        let prepared = Prepared::new(rule);
        for keyword in &prepared.included {
            // A keyword is found by its first word, or for Chinese and Korean by its first
            // character: whatever else it needs is checked after.
            let first = &keyword.words[0];
            match first.chars().next() {
                Some(c) if is_cjk(c) => self.by_char.entry(c).or_default().push(at),
                _ => match first
                    .split(|c: char| !is_word_char(c))
                    .find(|w| !w.is_empty())
                {
                    Some(word) => self.by_word.entry(word.to_owned()).or_default().push(at),
                    None => self.every_important.push(at),
                },
            }
        }
        let r = &prepared.rule;
        for t in &r.tokens {
            self.by_token.entry(t.clone()).or_default().push(at);
        }
        for t in &r.tags {
            self.by_tag.entry(t.clone()).or_default().push(at);
        }
        for c in &r.channels {
            self.by_channel.entry(c.clone()).or_default().push(at);
        }
        for k in &r.kols {
            self.by_kol.entry(*k).or_default().push(at);
        }
        for t in &r.topics {
            self.by_topic.entry(*t).or_default().push(at);
        }
        if !prepared.names_something() && prepared.rule.only_important {
            self.every_important.push(at);
        }
        self.rules.push((key, prepared));
    }

    /// The keys of the rules `item` matches, each once, in the order they were inserted.
    pub fn matching(&self, item: &AlertItem) -> Vec<K> {
        let text = ItemText::new(item);
        let mut candidates: HashSet<usize> = self.every_important.iter().copied().collect();
        let mut add = |list: Option<&Vec<usize>>| candidates.extend(list.into_iter().flatten());
        for word in &text.words {
            add(self.by_word.get(word));
        }
        for c in &text.cjk {
            add(self.by_char.get(c));
        }
        for t in &text.tokens {
            add(self.by_token.get(t));
        }
        for t in &text.tags {
            add(self.by_tag.get(t));
        }
        if let Some(c) = &text.channel {
            add(self.by_channel.get(c));
        }
        if let Some(k) = text.kol {
            add(self.by_kol.get(&k));
        }
        for t in &text.topics {
            add(self.by_topic.get(t));
        }
        let mut found: Vec<usize> = candidates
            .into_iter()
            .filter(|at| self.rules[*at].1.matches(&text))
            .collect();
        found.sort_unstable();
        found
            .into_iter()
            .map(|at| self.rules[at].0.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn muted_words_match_as_keywords_do() {
        let texts = [
            "Ethereum scam warning".to_owned(),
            "스캠 SCAM 경보".to_owned(),
        ];
        let muted = |w: &str| mentions_any(&[w.to_owned()], &texts);
        assert!(muted("Scam") && muted("스캠") && muted("\"scam warning\""));
        assert!(!muted("eth") && !muted("warn") && !muted(""));
    }
}
