//! Search across feeds, tags, tokens and KOLs in every language.
//!
//! Each searchable row has one document: its titles (the title or name in every language) and
//! its other text (summaries, bios). Chinese and Korean do not separate words with spaces, so
//! documents are matched by character trigrams, over lower-cased text. Terms shorter than
//! three characters (`OP`, `比特`) are found through each feed's one- and two-character pieces,
//! padded to trigrams (`short_grams`), so no query reads documents one by one.
//!
//! Results come in tiers: catalogue entries (tags, tokens, KOLs), then feeds with every term in
//! a title, then feeds that match elsewhere, newest first. Every search reads a SQLite search
//! index: a small table of the catalogue checked row by row (`search_catalogue`), and the feeds
//! in FTS5 with the `trigram` tokenizer (`search_docs`, and titles again in `search_titles`).
//! A SQLite deployment keeps that index in its own database; a PostgreSQL database keeps only
//! the documents (`search_docs`), and each server searches its copy of them (`search_copy`).
//! Each document carries its titles by language, so a page of hits needs no other query.
//! Ordering by document id inside a tier lets the index stop after one page instead of ranking
//! every match (a common term matches thousands of feeds), and makes the cursor a keyset step
//! that neither repeats nor skips a result when documents arrive between pages.

mod documents;
mod hits;
mod query;
mod sorted;

pub use documents::*;
pub use hits::*;
pub use query::*;
pub use sorted::*;

/// Results per page.
pub const SEARCH_PAGE: u64 = 20;
const MAX_TERMS: usize = 8;
/// Characters of context each side of the first match in a snippet.
const SNIPPET_CONTEXT: usize = 40;
/// The shortest term a trigram index can find.
const TRIGRAM: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    Feed,
    Tag,
    Token,
    Kol,
}

impl DocKind {
    pub const ALL: [Self; 4] = [Self::Feed, Self::Tag, Self::Token, Self::Kol];

    pub fn name(self) -> &'static str {
        match self {
            Self::Feed => "feed",
            Self::Tag => "tag",
            Self::Token => "token",
            Self::Kol => "kol",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A feed's document id is its id negated, so the newest feed comes first in ascending
    /// order (the direction both indexes walk fastest); catalogue entries take the positive
    /// ids, one per (kind, row), oldest first.
    fn doc_id(self, ref_id: i64) -> i64 {
        match self {
            Self::Feed => -ref_id,
            Self::Tag => ref_id * 3,
            Self::Token => ref_id * 3 + 1,
            Self::Kol => ref_id * 3 + 2,
        }
    }
}

/// Pads a piece of one or two characters to a trigram.
const GRAM_PAD: char = '#';

/// The distinct one- and two-character pieces of the words (runs of letters and digits) of
/// lower-cased `text`, each padded to a trigram (`op#`, `b##`) and written end to end, in order.
/// A trigram index over them finds a short term as its padded form: only a padded piece puts
/// the pad right after a letter or digit, so no trigram that straddles two pieces is one.
fn short_grams(text: &str) -> String {
    let mut grams = std::collections::BTreeSet::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = word.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            grams.insert(padded_gram(&[c]));
            if let Some(&next) = chars.get(i + 1) {
                grams.insert(padded_gram(&[c, next]));
            }
        }
    }
    grams.into_iter().collect()
}

/// A term of one or two characters as `short_grams` writes it.
fn padded_gram(chars: &[char]) -> String {
    let mut gram: String = chars.iter().collect();
    gram.extend(std::iter::repeat_n(GRAM_PAD, TRIGRAM - chars.len()));
    gram
}

/// A feed's language as its `grams` carry it: no padded piece holds `@`, so it matches only
/// itself (a search's language filter).
fn lang_marker(lang: &str) -> String {
    format!("@{lang}@")
}

/// Lower case that keeps one character per character, so positions line up.
fn lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_grams_pad_each_piece_of_each_word_once() {
        assert_eq!(short_grams("op op, 比特"), "o##op#p##比##比特#特##");
        assert_eq!(short_grams("a-b"), "a##b##");
        assert_eq!(short_grams(""), "");
        let text = short_grams("xo qz");
        for found in ["xo#", "qz#", "x##", "z##"] {
            assert!(text.contains(found), "{found} in {text}");
        }
        // Pieces of different words never join.
        assert!(!text.contains("oq#"));
    }
}
