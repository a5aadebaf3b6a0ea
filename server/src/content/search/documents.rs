//! The documents: what each row is found by, written beside it and rebuilt when missing.

use std::collections::{BTreeMap, HashMap};

use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, EntityTrait,
    FromQueryResult, QueryFilter, QueryOrder, QuerySelect, Statement, Value,
};

use client_core::locale::DEFAULT_LOCALE;

use super::{DocKind, lang_marker, lower, short_grams};
use crate::content::write::plain_text;
use crate::entity::{feed_item, feed_translation, kol, tag, token};
use crate::error::AppResult;
use crate::i18n::localized;

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

/// One language's text of a feed item: its title, summary and content (HTML, cleaned of its
/// markup before it is indexed).
#[derive(Clone, Copy)]
pub struct FeedText<'a> {
    pub title: &'a str,
    pub summary: &'a str,
    pub content: &'a str,
}

impl FeedText<'_> {
    /// The text a reader finds the item by: the summary and the article's words (the article
    /// alone where it opens with the summary, as many do, so the index holds it once).
    fn searched(&self) -> Vec<String> {
        let article = plain_text(self.content);
        let summary = self.summary.trim();
        if article.starts_with(summary) {
            vec![article]
        } else {
            vec![summary.to_owned(), article]
        }
    }
}

impl Document {
    /// A feed's original text (in `lang`) and its translations: readers of a language without
    /// one see the original title. The whole article is searched, in every language; the
    /// languages it is in are the keys of `names` (what a language filter matches).
    pub fn feed<'a>(
        id: i64,
        lang: &'a str,
        original: FeedText<'a>,
        translations: impl IntoIterator<Item = (&'a str, FeedText<'a>)>,
    ) -> Self {
        let mut titles = vec![original.title.to_owned()];
        let mut text = original.searched();
        let mut names = BTreeMap::from([(lang, original.title)]);
        for (locale, translated) in translations {
            titles.push(translated.title.to_owned());
            text.extend(translated.searched());
            names.insert(locale, translated.title);
        }
        Self {
            kind: DocKind::Feed,
            ref_id: id,
            titles,
            text,
            names: serde_json::to_string(&names).unwrap_or_default(),
        }
    }

    /// A stored item's document, with its stored translations.
    pub fn stored_feed(item: &feed_item::Model, translations: &[feed_translation::Model]) -> Self {
        let text = |title, summary, content| FeedText {
            title,
            summary,
            content,
        };
        Self::feed(
            item.id,
            &item.lang,
            text(&item.title, &item.summary, &item.content),
            translations
                .iter()
                .map(|t| (t.locale.as_str(), text(&t.title, &t.summary, &t.content))),
        )
    }

    /// A removed feed's document: it matches nothing.
    pub fn removed_feed(id: i64) -> Self {
        Self {
            kind: DocKind::Feed,
            ref_id: id,
            titles: Vec::new(),
            text: Vec::new(),
            names: "{}".to_owned(),
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
    pub(super) id: i64,
    pub(super) kind: String,
    pub ref_id: i64,
    pub(super) title: String,
    pub(super) body: String,
    pub(super) names: String,
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
/// `search_copy` creates them in a PostgreSQL server's copy. `grams`: the feed's short pieces
/// (`short_grams`), in both feed tables so either tier finds short terms in one MATCH.
pub(crate) const INDEX_TABLES: [&str; 3] = [
    "CREATE VIRTUAL TABLE search_docs USING fts5(kind UNINDEXED, ref_id UNINDEXED, \
     names UNINDEXED, title, body, grams, tokenize = 'trigram')",
    "CREATE VIRTUAL TABLE search_titles USING fts5(\
     title, grams, tokenize = 'trigram', content = '', contentless_delete = 1)",
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
        let mut grams = short_grams(&lower(&format!("{}\n{}", row.title, row.body)));
        let langs = serde_json::from_str::<BTreeMap<String, String>>(&row.names);
        grams.extend(langs.unwrap_or_default().keys().map(|l| lang_marker(l)));
        let mut values = row.values();
        values.push(grams.clone().into());
        vec![
            ("DELETE FROM search_docs WHERE rowid = ?", vec![id.into()]),
            ("DELETE FROM search_titles WHERE rowid = ?", vec![id.into()]),
            (
                "INSERT INTO search_docs (rowid, kind, ref_id, title, body, names, grams) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
                values,
            ),
            (
                "INSERT INTO search_titles (rowid, title, grams) VALUES (?, ?, ?)",
                vec![id.into(), title.into(), grams.into()],
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
    let txn = crate::db::begin_write(db).await?;
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
            Document::stored_feed(f, own)
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
