//! Search across feeds, tags, tokens and KOLs in every language.
//!
//! Each searchable row has one document: its titles (the title or name in every language) and
//! its other text (summaries, bios). Chinese and Korean do not separate words with spaces, so
//! documents are matched by character trigrams, over lower-cased text. Terms shorter than
//! three characters (`OP`, `比特`) cannot use a trigram index and are checked row by row.
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

pub use documents::*;
pub use hits::*;
pub use query::*;

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

/// Lower case that keeps one character per character, so positions line up.
fn lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}
