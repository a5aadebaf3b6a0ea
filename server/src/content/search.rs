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

use std::collections::{BTreeMap, HashMap};

use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, EntityTrait,
    FromQueryResult, QueryFilter, QueryOrder, QuerySelect, Statement, TransactionTrait, Value,
};
use serde::Serialize;

use client_core::locale::DEFAULT_LOCALE;

use super::localized;
use crate::entity::{feed_item, feed_translation, kol, tag, token};
use crate::error::{AppError, AppResult};

/// Longest query accepted, in characters.
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

/// What one row is found by.
pub struct Document {
    kind: DocKind,
    ref_id: i64,
    /// The row's title or name in each language (the first is the one shown when the reader's
    /// language has none).
    titles: Vec<String>,
    text: Vec<String>,
    /// The titles shown to readers of each language, as a JSON object keyed by locale.
    names: String,
}

impl Document {
    /// A feed's original title and summary, and its translations as (locale, title, summary):
    /// readers of a language without one see the original title.
    pub fn feed<'a>(
        id: i64,
        title: &str,
        summary: &str,
        translations: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
    ) -> Self {
        let mut titles = vec![title.to_owned()];
        let mut text = vec![summary.to_owned()];
        let mut names = BTreeMap::new();
        for (locale, title, summary) in translations {
            titles.push(title.to_owned());
            text.push(summary.to_owned());
            names.insert(locale, title);
        }
        Self {
            kind: DocKind::Feed,
            ref_id: id,
            titles,
            text,
            names: serde_json::to_string(&names).unwrap_or_default(),
        }
    }

    /// A tag is shown by its name in the reader's language, else its English name, else its
    /// code.
    pub fn tag(t: &tag::Model) -> Self {
        let names = serde_json::from_str::<BTreeMap<String, String>>(&t.names).unwrap_or_default();
        Self {
            kind: DocKind::Tag,
            ref_id: t.id,
            titles: [localized(&t.names, DEFAULT_LOCALE), t.code.clone()]
                .into_iter()
                .chain(names.into_values())
                .collect(),
            text: Vec::new(),
            names: t.names.clone(),
        }
    }

    pub fn token(t: &token::Model) -> Self {
        Self {
            kind: DocKind::Token,
            ref_id: t.id,
            titles: vec![t.symbol.clone(), t.name.clone()],
            text: vec![t.chain.clone()],
            names: "{}".to_owned(),
        }
    }

    pub fn kol(k: &kol::Model) -> Self {
        let bios = serde_json::from_str::<BTreeMap<String, String>>(&k.bios).unwrap_or_default();
        Self {
            kind: DocKind::Kol,
            ref_id: k.id,
            titles: vec![k.name.clone(), k.handle.clone()],
            text: bios.into_values().collect(),
            names: "{}".to_owned(),
        }
    }
}

/// Lines without the empty ones, one per line.
fn joined(lines: &[String]) -> String {
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect();
    lines.join("\n")
}

/// Writes (or rewrites) the document of one row: into a SQLite database's search index, or
/// into PostgreSQL's documents, stamped with the writing transaction so that each server can
/// tell what its copy lacks (`search_copy`).
pub async fn index(db: &impl ConnectionTrait, doc: &Document) -> AppResult<()> {
    let row = DocRow {
        id: doc.kind.doc_id(doc.ref_id),
        kind: doc.kind.name().to_owned(),
        ref_id: doc.ref_id,
        title: joined(&doc.titles),
        body: joined(&doc.text),
        names: doc.names.clone(),
    };
    if db.get_database_backend() == DatabaseBackend::Sqlite {
        return write_index(db, row).await;
    }
    db.execute(Statement::from_sql_and_values(
        DatabaseBackend::Postgres,
        "INSERT INTO search_docs (id, kind, ref_id, title, body, names, txid) \
         VALUES ($1, $2, $3, $4, $5, $6, pg_current_xact_id()::text::bigint) \
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body, \
         names = excluded.names, txid = excluded.txid",
        row.values(),
    ))
    .await?;
    Ok(())
}

/// One document as stored: `id` is its document id (`DocKind::doc_id`), `title` and `body` its
/// titles and other text a line each.
#[derive(Debug, FromQueryResult)]
pub struct DocRow {
    id: i64,
    kind: String,
    ref_id: i64,
    title: String,
    body: String,
    names: String,
}

impl DocRow {
    /// The row's values in column order: id, kind, ref_id, title, body, names.
    fn values(self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.kind.into(),
            self.ref_id.into(),
            self.title.into(),
            self.body.into(),
            self.names.into(),
        ]
    }
}

/// The tables of a SQLite search index. A SQLite deployment's migrations create them;
/// `search_copy` creates them in a PostgreSQL server's copy.
pub(crate) const INDEX_TABLES: [&str; 3] = [
    "CREATE VIRTUAL TABLE search_docs USING fts5(\
     kind UNINDEXED, ref_id UNINDEXED, names UNINDEXED, title, body, tokenize = 'trigram')",
    "CREATE VIRTUAL TABLE search_titles USING fts5(\
     title, tokenize = 'trigram', content = '', contentless_delete = 1)",
    // `doc_key`: title and text lower-cased, matched with LIKE.
    "CREATE TABLE search_catalogue (id BIGINT PRIMARY KEY, kind VARCHAR(8) NOT NULL, \
     ref_id BIGINT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, names TEXT NOT NULL, \
     doc_key TEXT NOT NULL)",
];

/// Writes (or rewrites) one document in a SQLite search index.
pub(crate) async fn write_index(db: &impl ConnectionTrait, row: DocRow) -> AppResult<()> {
    let id = row.id;
    let statements: Vec<(&str, Vec<Value>)> = if row.kind == DocKind::Feed.name() {
        let title = row.title.clone();
        vec![
            ("DELETE FROM search_docs WHERE rowid = ?", vec![id.into()]),
            ("DELETE FROM search_titles WHERE rowid = ?", vec![id.into()]),
            (
                "INSERT INTO search_docs (rowid, kind, ref_id, title, body, names) \
                 VALUES (?, ?, ?, ?, ?, ?)",
                row.values(),
            ),
            (
                "INSERT INTO search_titles (rowid, title) VALUES (?, ?)",
                vec![id.into(), title.into()],
            ),
        ]
    } else {
        // Matched lower-cased, as the terms are (see `catalogue_query`).
        let doc_key = lower(&format!("{}\n{}", row.title, row.body));
        let mut values = row.values();
        values.push(doc_key.into());
        vec![(
            "INSERT INTO search_catalogue (id, kind, ref_id, title, body, names, doc_key) \
             VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET \
             title = excluded.title, body = excluded.body, names = excluded.names, \
             doc_key = excluded.doc_key",
            values,
        )]
    };
    for (sql, values) in statements {
        db.execute(Statement::from_sql_and_values(
            DatabaseBackend::Sqlite,
            sql,
            values,
        ))
        .await?;
    }
    Ok(())
}

/// Writes every row's document when there are none (a database whose documents a migration
/// cleared for a new layout). Returns how many were written.
pub async fn reindex_if_empty(db: &DatabaseConnection) -> Result<u64, DbErr> {
    let backend = db.get_database_backend();
    let any = db
        .query_one(Statement::from_string(
            backend,
            if backend == DatabaseBackend::Sqlite {
                "SELECT 1 AS one FROM search_docs UNION ALL SELECT 1 FROM search_catalogue LIMIT 1"
            } else {
                "SELECT 1 AS one FROM search_docs LIMIT 1"
            },
        ))
        .await?;
    if any.is_some() {
        return Ok(0);
    }
    let txn = db.begin().await?;
    let mut docs: Vec<Document> = Vec::new();
    docs.extend(
        tag::Entity::find()
            .all(&txn)
            .await?
            .iter()
            .map(Document::tag),
    );
    docs.extend(
        token::Entity::find()
            .all(&txn)
            .await?
            .iter()
            .map(Document::token),
    );
    docs.extend(
        kol::Entity::find()
            .all(&txn)
            .await?
            .iter()
            .map(Document::kol),
    );
    let mut after = 0;
    loop {
        let feeds = feed_item::Entity::find()
            .filter(feed_item::Column::Id.gt(after))
            .order_by_asc(feed_item::Column::Id)
            .limit(500)
            .all(&txn)
            .await?;
        let Some(last) = feeds.last() else { break };
        after = last.id;
        let mut translations: HashMap<i64, Vec<feed_translation::Model>> = HashMap::new();
        for t in feed_translation::Entity::find()
            .filter(feed_translation::Column::FeedId.is_in(feeds.iter().map(|f| f.id)))
            .all(&txn)
            .await?
        {
            translations.entry(t.feed_id).or_default().push(t);
        }
        docs.extend(feeds.iter().map(|f| {
            let own = translations
                .get(&f.id)
                .map(Vec::as_slice)
                .unwrap_or_default();
            Document::feed(
                f.id,
                &f.title,
                &f.summary,
                own.iter()
                    .map(|t| (t.locale.as_str(), t.title.as_str(), t.summary.as_str())),
            )
        }));
    }
    for doc in &docs {
        index(&txn, doc)
            .await
            .map_err(|e| DbErr::Custom(format!("search document: {e:?}")))?;
    }
    txn.commit().await?;
    optimize(db)
        .await
        .map_err(|e| DbErr::Custom(format!("search index: {e:?}")))?;
    Ok(docs.len() as u64)
}

/// Compacts the index after a bulk write. Writing documents one by one leaves SQLite's FTS5
/// index in many segments that every query has to visit (merged: common queries 2 to 5 times
/// faster at 100,000 items); PostgreSQL's documents get fresh statistics.
pub async fn optimize(db: &impl ConnectionTrait) -> AppResult<()> {
    let statements: &[&str] = match db.get_database_backend() {
        DatabaseBackend::Sqlite => &[
            "INSERT INTO search_docs (search_docs) VALUES ('optimize')",
            "INSERT INTO search_titles (search_titles) VALUES ('optimize')",
        ],
        _ => &["VACUUM (ANALYZE) search_docs"],
    };
    for statement in statements {
        db.execute_unprepared(statement).await?;
    }
    Ok(())
}

/// The words of a query (its length checked by the request's rule): runs of letters and digits
/// in any script, lower-cased.
pub fn terms(query: &str) -> AppResult<Vec<String>> {
    let terms: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .take(MAX_TERMS)
        .map(lower)
        .collect();
    let letters: usize = terms.iter().map(|t| t.chars().count()).sum();
    if letters < 2 {
        return Err(AppError::invalid(
            "Search needs at least 2 letters or digits",
        ));
    }
    Ok(terms)
}

/// Lower case that keeps one character per character, so positions line up.
fn lower(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// Tags, tokens and KOLs.
    Catalogue,
    /// Feeds with every term (of three characters or more) in a title.
    FeedTitles,
    /// The other matching feeds.
    FeedText,
}

impl Tier {
    const ALL: [Self; 3] = [Self::Catalogue, Self::FeedTitles, Self::FeedText];
}

/// Where the next page starts: after document `after` (in ascending id order) of `tier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    tier: Tier,
    after: i64,
}

impl Cursor {
    pub const START: Self = Self {
        tier: Tier::Catalogue,
        after: i64::MIN,
    };

    /// `tier.id`, as `encode` writes it.
    pub fn parse(text: &str) -> AppResult<Self> {
        let malformed = crate::pagination::bad_cursor;
        let (tier, after) = text.split_once('.').ok_or_else(malformed)?;
        let tier = tier
            .parse::<usize>()
            .ok()
            .and_then(|t| Tier::ALL.get(t).copied())
            .ok_or_else(malformed)?;
        let after = after.parse::<i64>().map_err(|_| malformed())?;
        Ok(Self { tier, after })
    }

    pub fn encode(self) -> String {
        format!("{}.{}", self.tier as usize, self.after)
    }
}

/// One page of matching documents, best first, and where the next page starts, from a SQLite
/// search index (the database itself on SQLite, the server's copy on PostgreSQL).
pub async fn find(
    index: &impl ConnectionTrait,
    terms: &[String],
    kind: Option<DocKind>,
    cursor: Cursor,
) -> AppResult<(Vec<DocRow>, Option<Cursor>)> {
    let titled = terms.iter().any(|t| t.chars().count() >= TRIGRAM);
    let tiers = Tier::ALL.into_iter().filter(|&tier| {
        tier >= cursor.tier
            && match tier {
                Tier::Catalogue => kind != Some(DocKind::Feed),
                // Without a trigram-sized term there is no title tier: every feed match is text.
                Tier::FeedTitles => titled && kind.is_none_or(|k| k == DocKind::Feed),
                Tier::FeedText => kind.is_none_or(|k| k == DocKind::Feed),
            }
    });
    let mut found: Vec<(Tier, DocRow)> = Vec::new();
    for tier in tiers {
        let after = if tier == cursor.tier {
            cursor.after
        } else {
            i64::MIN
        };
        let wanted = SEARCH_PAGE + 1 - found.len() as u64;
        let query = if tier == Tier::Catalogue {
            catalogue_query(terms, kind, after, wanted)
        } else {
            feed_query(terms, tier, after, wanted)
        };
        let docs = DocRow::find_by_statement(query).all(index).await?;
        found.extend(docs.into_iter().map(|d| (tier, d)));
        if found.len() as u64 > SEARCH_PAGE {
            break;
        }
    }
    let more = found.len() as u64 > SEARCH_PAGE;
    found.truncate(SEARCH_PAGE as usize);
    let next = found.last().filter(|_| more).map(|(tier, doc)| Cursor {
        tier: *tier,
        after: doc.id,
    });
    Ok((found.into_iter().map(|(_, d)| d).collect(), next))
}

/// Tags, tokens and KOLs with ids above `after` matching every term, in id order: a small
/// table, checked row by row.
fn catalogue_query(terms: &[String], kind: Option<DocKind>, after: i64, limit: u64) -> Statement {
    // Terms hold only letters and digits: no `%` or `_` to escape.
    let mut values: Vec<Value> = Vec::new();
    let mut conditions: Vec<&str> = Vec::new();
    for t in terms {
        values.push(format!("%{t}%").into());
        conditions.push("doc_key LIKE ?");
    }
    if let Some(k) = kind {
        values.push(k.name().into());
        conditions.push("kind = ?");
    }
    values.push(after.into());
    conditions.push("id > ?");
    let sql = format!(
        "SELECT id, kind, ref_id, title, body, names FROM search_catalogue WHERE {} \
         ORDER BY id LIMIT {limit}",
        conditions.join(" AND ")
    );
    Statement::from_sql_and_values(DatabaseBackend::Sqlite, sql, values)
}

/// The feeds of a feed tier with document ids above `after`, in id order.
fn feed_query(terms: &[String], tier: Tier, after: i64, limit: u64) -> Statement {
    let mut values: Vec<Value> = Vec::new();
    let (long, short): (Vec<&String>, Vec<&String>) =
        terms.iter().partition(|t| t.chars().count() >= TRIGRAM);
    // SQLite's lower() folds ASCII only, as its LIKE does.
    let mut conditions: Vec<String> = short
        .iter()
        .map(|t| {
            values.push(t.as_str().into());
            "instr(lower(search_docs.title || ' ' || search_docs.body), ?) > 0".to_owned()
        })
        .collect();
    // Terms hold only letters and digits: no quote to break out of an FTS5 phrase.
    let all = long
        .iter()
        .map(|t| format!("\"{t}\""))
        .collect::<Vec<_>>()
        .join(" ");
    let (from, id) = if tier == Tier::FeedTitles {
        conditions.push("search_titles MATCH ?".to_owned());
        values.push(all.into());
        (
            "search_titles JOIN search_docs ON search_docs.rowid = search_titles.rowid",
            "search_titles.rowid",
        )
    } else {
        if !long.is_empty() {
            conditions.push("search_docs MATCH ?".to_owned());
            values.push(format!("({all}) NOT title : ({all})").into());
        }
        ("search_docs", "search_docs.rowid")
    };
    conditions.push(format!("{id} > ?"));
    values.push(after.into());
    let sql = format!(
        "SELECT {id} AS id, search_docs.kind, search_docs.ref_id, search_docs.title, \
         search_docs.body, search_docs.names FROM {from} WHERE {} ORDER BY {id} LIMIT {limit}",
        conditions.join(" AND ")
    );
    Statement::from_sql_and_values(DatabaseBackend::Sqlite, sql, values)
}

/// A short piece of `doc` around the first match, HTML-escaped, with every term in `<mark>`.
/// The line holding a match is chosen, so the snippet is in the language that matched.
pub fn snippet(title: &str, body: &str, terms: &[String]) -> String {
    let line = body
        .lines()
        .chain(title.lines())
        .find(|line| {
            let l = lower(line);
            terms.iter().any(|t| l.contains(t.as_str()))
        })
        .unwrap_or_else(|| title.lines().next().unwrap_or_default());
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

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct Hit {
    #[ts(type = "\"feed\" | \"tag\" | \"token\" | \"kol\"")]
    pub kind: &'static str,
    pub id: i64,
    pub title: String,
    /// HTML-escaped text with matches in `<mark>`.
    pub snippet: String,
}

/// Hits titled in the reader's language where the document has a title in it, else in its
/// first title.
pub fn hits(docs: Vec<DocRow>, terms: &[String], locale: &str) -> Vec<Hit> {
    docs.into_iter()
        .filter_map(|doc| {
            let kind = DocKind::parse(&doc.kind)?;
            let title = serde_json::from_str::<HashMap<String, String>>(&doc.names)
                .ok()
                .and_then(|mut names| names.remove(locale))
                .unwrap_or_else(|| doc.title.lines().next().unwrap_or_default().to_owned());
            Some(Hit {
                kind: kind.name(),
                id: doc.ref_id,
                snippet: snippet(&doc.title, &doc.body, terms),
                title,
            })
        })
        .collect()
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
