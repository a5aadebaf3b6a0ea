//! Search across feeds, tags, tokens and KOLs in every language.
//!
//! Each searchable row has one document holding its text in all languages. Chinese and Korean
//! do not separate words with spaces, so both databases match character trigrams: SQLite's FTS5
//! `trigram` tokenizer (ranked by bm25, titles weighted ×5) and PostgreSQL's `pg_trgm` index
//! under `ILIKE` (ranked by title match, then newest first). Terms shorter than three
//! characters (`比特`, `OP`) cannot use a trigram index and fall back to a scan.

use client_core::envelope::ErrorKind;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, EntityTrait, FromQueryResult, QueryFilter,
    Statement, Value,
};
use serde::Serialize;

use super::localized;
use crate::entity::{feed_translation, tag};
use crate::error::{AppError, AppResult};

/// Longest query accepted, in characters.
pub const QUERY_MAX_CHARS: usize = 100;
/// Results per page, and how deep pages may go.
pub const SEARCH_PAGE: u64 = 20;
const SEARCH_MAX_OFFSET: u64 = 1_000;
const MAX_TERMS: usize = 8;
/// Characters of context each side of the first match in a snippet.
const SNIPPET_CONTEXT: usize = 40;

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

    /// One document id per (kind, row): the row id times four plus the kind.
    fn doc_id(self, ref_id: i64) -> i64 {
        ref_id * 4
            + match self {
                Self::Feed => 0,
                Self::Tag => 1,
                Self::Token => 2,
                Self::Kol => 3,
            }
    }
}

/// Writes (or rewrites) the document of one row.
pub async fn index(
    db: &impl ConnectionTrait,
    kind: DocKind,
    ref_id: i64,
    title: &str,
    lines: &[String],
) -> AppResult<()> {
    let backend = db.get_database_backend();
    let body = lines
        .iter()
        .filter(|l| !l.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    let doc_id = kind.doc_id(ref_id);
    let values = vec![
        doc_id.into(),
        kind.name().into(),
        ref_id.into(),
        title.into(),
        body.into(),
    ];
    if backend == DatabaseBackend::Sqlite {
        db.execute(Statement::from_sql_and_values(
            backend,
            "DELETE FROM search_docs WHERE rowid = ?",
            [doc_id.into()],
        ))
        .await?;
        db.execute(Statement::from_sql_and_values(
            backend,
            "INSERT INTO search_docs (rowid, kind, ref_id, title, body) VALUES (?, ?, ?, ?, ?)",
            values,
        ))
        .await?;
    } else {
        db.execute(Statement::from_sql_and_values(
            backend,
            "INSERT INTO search_docs (id, kind, ref_id, title, body) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body",
            values,
        ))
        .await?;
    }
    Ok(())
}

/// The words of a query: runs of letters and digits in any script, lower-cased.
pub fn terms(query: &str) -> AppResult<Vec<String>> {
    let invalid = |m: &str| AppError::new(ErrorKind::InvalidParam).with_message(m.to_owned());
    if query.chars().count() > QUERY_MAX_CHARS {
        return Err(invalid("Search at most 100 characters"));
    }
    let terms: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .take(MAX_TERMS)
        .map(lower)
        .collect();
    let letters: usize = terms.iter().map(|t| t.chars().count()).sum();
    if letters < 2 {
        return Err(invalid("Search needs at least 2 letters or digits"));
    }
    Ok(terms)
}

/// Lower case that keeps one character per character, so positions line up.
fn lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

#[derive(Debug, FromQueryResult)]
pub struct Doc {
    pub kind: String,
    pub ref_id: i64,
    pub title: String,
    pub body: String,
}

/// One page of matching documents, best first.
pub async fn find(
    db: &impl ConnectionTrait,
    terms: &[String],
    kind: Option<DocKind>,
    offset: u64,
) -> AppResult<(Vec<Doc>, Option<u64>)> {
    if offset > SEARCH_MAX_OFFSET {
        return Err(AppError::new(ErrorKind::InvalidParam).with_message("Malformed cursor"));
    }
    let backend = db.get_database_backend();
    let mut values: Vec<Value> = Vec::new();
    let mut placeholder = |v: Value| {
        values.push(v);
        match backend {
            DatabaseBackend::Postgres => format!("${}", values.len()),
            _ => "?".to_owned(),
        }
    };
    let sql = if backend == DatabaseBackend::Sqlite {
        let trigram_able = terms.iter().all(|t| t.chars().count() >= 3);
        let (filter, order) = if trigram_able {
            // Quoted phrases: the terms hold only letters and digits, so no quote can break out.
            let phrase = terms
                .iter()
                .map(|t| format!("\"{t}\""))
                .collect::<Vec<_>>()
                .join(" ");
            (
                format!("search_docs MATCH {}", placeholder(phrase.into())),
                "bm25(search_docs, 0.0, 0.0, 5.0, 1.0)",
            )
        } else {
            let likes = terms
                .iter()
                .map(|t| {
                    let in_title = placeholder(format!("%{t}%").into());
                    let in_body = placeholder(format!("%{t}%").into());
                    // Two columns under OR: a lone LIKE of under three characters on an FTS5
                    // trigram table matches nothing, while this form scans.
                    format!("(title LIKE {in_title} OR body LIKE {in_body})")
                })
                .collect::<Vec<_>>()
                .join(" AND ");
            (likes, "rowid DESC")
        };
        let kind_filter = kind
            .map(|k| format!(" AND kind = {}", placeholder(k.name().into())))
            .unwrap_or_default();
        format!(
            "SELECT kind, ref_id, title, body FROM search_docs WHERE {filter}{kind_filter} \
             ORDER BY {order} LIMIT {} OFFSET {offset}",
            SEARCH_PAGE + 1
        )
    } else {
        let doc = "(title || ' ' || body)";
        let mut filter = terms
            .iter()
            .map(|t| format!("{doc} ILIKE {}", placeholder(format!("%{t}%").into())))
            .collect::<Vec<_>>()
            .join(" AND ");
        if let Some(k) = kind {
            filter.push_str(&format!(" AND kind = {}", placeholder(k.name().into())));
        }
        // Title matches first, then the newest. (Trigram similarity against whole documents
        // costs a pass over every match's text: too slow once a term matches thousands.)
        let in_title = placeholder(format!("%{}%", terms[0]).into());
        format!(
            "SELECT kind, ref_id, title, body FROM search_docs WHERE {filter} \
             ORDER BY (title ILIKE {in_title}) DESC, id DESC LIMIT {} OFFSET {offset}",
            SEARCH_PAGE + 1
        )
    };
    let mut docs = Doc::find_by_statement(Statement::from_sql_and_values(backend, sql, values))
        .all(db)
        .await?;
    let next = (docs.len() as u64 > SEARCH_PAGE).then_some(offset + SEARCH_PAGE);
    docs.truncate(SEARCH_PAGE as usize);
    Ok((docs, next))
}

/// A short piece of `doc` around the first match, HTML-escaped, with every term in `<mark>`.
/// The line holding a match is chosen, so the snippet is in the language that matched.
pub fn snippet(title: &str, body: &str, terms: &[String]) -> String {
    let line = body
        .lines()
        .chain(std::iter::once(title))
        .find(|line| {
            let l = lower(line);
            terms.iter().any(|t| l.contains(t.as_str()))
        })
        .unwrap_or(title);
    let chars: Vec<char> = line.chars().collect();
    let lowered: Vec<char> = lower(line).chars().collect();
    let term_chars: Vec<Vec<char>> = terms.iter().map(|t| t.chars().collect()).collect();
    let match_at = |i: usize| {
        term_chars
            .iter()
            .filter(|t| lowered[i..].starts_with(t))
            .map(Vec::len)
            .max()
    };
    let first = (0..chars.len())
        .find(|&i| match_at(i).is_some())
        .unwrap_or(0);
    let start = first.saturating_sub(SNIPPET_CONTEXT);
    let end = (first + SNIPPET_CONTEXT * 2).min(chars.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut i = start;
    while i < end {
        match match_at(i) {
            Some(len) => {
                let text: String = chars[i..(i + len).min(chars.len())].iter().collect();
                out.push_str("<mark>");
                out.push_str(&html_escape::encode_text(&text));
                out.push_str("</mark>");
                i += len;
            }
            None => {
                out.push_str(&html_escape::encode_text(&chars[i].to_string()));
                i += 1;
            }
        }
    }
    if end < chars.len() {
        out.push('…');
    }
    out
}

#[derive(Debug, Serialize)]
pub struct Hit {
    pub kind: &'static str,
    pub id: i64,
    pub title: String,
    /// HTML-escaped text with matches in `<mark>`.
    pub snippet: String,
}

/// Hits titled in the reader's language: a feed's translated title, a tag's localized name.
pub async fn hits(
    db: &impl ConnectionTrait,
    docs: Vec<Doc>,
    terms: &[String],
    locale: &str,
) -> AppResult<Vec<Hit>> {
    let ids = |kind: DocKind| -> Vec<i64> {
        docs.iter()
            .filter(|d| d.kind == kind.name())
            .map(|d| d.ref_id)
            .collect()
    };
    let translations = feed_translation::Entity::find()
        .filter(feed_translation::Column::FeedId.is_in(ids(DocKind::Feed)))
        .filter(feed_translation::Column::Locale.eq(locale))
        .all(db)
        .await?;
    let tags = tag::Entity::find()
        .filter(tag::Column::Id.is_in(ids(DocKind::Tag)))
        .all(db)
        .await?;
    Ok(docs
        .into_iter()
        .filter_map(|doc| {
            let kind = DocKind::parse(&doc.kind)?;
            let title = match kind {
                DocKind::Feed => translations
                    .iter()
                    .find(|t| t.feed_id == doc.ref_id)
                    .map(|t| t.title.clone()),
                DocKind::Tag => tags
                    .iter()
                    .find(|t| t.id == doc.ref_id)
                    .map(|t| localized(&t.names, locale)),
                DocKind::Token | DocKind::Kol => None,
            }
            .unwrap_or_else(|| doc.title.clone());
            Some(Hit {
                kind: kind.name(),
                id: doc.ref_id,
                snippet: snippet(&doc.title, &doc.body, terms),
                title,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_split_on_punctuation_in_every_script() {
        assert_eq!(
            terms("$BTC, 比特幣!").expect("valid"),
            vec!["btc".to_owned(), "比特幣".to_owned()]
        );
        assert!(terms("a").is_err());
        assert!(terms("!!! ...").is_err());
        assert!(terms(&"x".repeat(101)).is_err());
        assert_eq!(terms("比特").expect("two CJK characters"), vec!["比特"]);
    }

    #[test]
    fn snippets_escape_and_mark() {
        let s = snippet("T", "<b>Bitcoin</b> & bitcoin", &["bitcoin".to_owned()]);
        assert_eq!(
            s,
            "&lt;b&gt;<mark>Bitcoin</mark>&lt;/b&gt; &amp; <mark>bitcoin</mark>"
        );
        let long = format!("{}比特幣{}", "甲".repeat(60), "乙".repeat(100));
        let s = snippet("T", &long, &["比特幣".to_owned()]);
        assert!(s.starts_with('…') && s.ends_with('…'));
        assert!(s.contains("<mark>比特幣</mark>"));
        assert_eq!(s.chars().filter(|c| *c == '甲').count(), SNIPPET_CONTEXT);
    }
}
