//! Readers' comments, questions and answers in other languages: each is kept with the language
//! its writer used, translated by the same rounds as items (`super::round`), and shown translated
//! to a reader who wants translations, with the original beside it. They are plain text (shown
//! escaped, never as HTML), so they are sent and kept as text.

use std::collections::HashMap;

use client_core::locale::LOCALES;
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, Set, Statement,
};
use serde::Serialize;

use crate::content::feeds::Reading;
use crate::entity::text_translation;
use crate::error::AppResult;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextKind {
    Comment,
    Question,
    Answer,
}

impl TextKind {
    pub fn name(self) -> &'static str {
        match self {
            Self::Comment => "comment",
            Self::Question => "question",
            Self::Answer => "answer",
        }
    }

    fn named(name: &str) -> Option<Self> {
        [Self::Comment, Self::Question, Self::Answer]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// The text as written, beside its translation: "Show original" needs no request.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct OriginalText {
    /// A question's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    pub content: String,
}

/// The stored translations into the reader's language of those of `written` (id and language)
/// that are in another, by id: none for a reader who wants originals.
pub async fn for_reader<'a>(
    db: &impl ConnectionTrait,
    kind: TextKind,
    written: impl IntoIterator<Item = (i64, &'a str)>,
    reading: Reading,
) -> AppResult<HashMap<i64, text_translation::Model>> {
    let ids: Vec<i64> = written
        .into_iter()
        .filter(|(_, lang)| reading.translates(lang))
        .map(|(id, _)| id)
        .collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(text_translation::Entity::find()
        .filter(text_translation::Column::Kind.eq(kind.name()))
        .filter(text_translation::Column::Locale.eq(reading.locale))
        .filter(text_translation::Column::RefId.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|t| (t.ref_id, t))
        .collect())
}

/// Puts a translation in place of the text (`title` only for a question) and gives the original.
pub fn shown_translated(
    translation: Option<text_translation::Model>,
    title: Option<&mut String>,
    content: &mut String,
) -> Option<OriginalText> {
    let t = translation?;
    let title = title.map(|title| std::mem::replace(title, t.title));
    Some(OriginalText {
        title,
        content: std::mem::replace(content, t.content),
    })
}

/// Drops texts' translations: they were rewritten or taken away.
pub async fn forget(
    db: &impl ConnectionTrait,
    kind: TextKind,
    ids: impl IntoIterator<Item = i64>,
) -> AppResult<()> {
    text_translation::Entity::delete_many()
        .filter(text_translation::Column::Kind.eq(kind.name()))
        .filter(text_translation::Column::RefId.is_in(ids))
        .exec(db)
        .await?;
    Ok(())
}

/// A reader's text a round may translate.
#[derive(Debug, Clone)]
pub struct Written {
    pub kind: TextKind,
    pub id: i64,
    pub lang: String,
    /// A question's title; empty for the others.
    pub title: String,
    pub content: String,
}

#[derive(FromQueryResult)]
struct Row {
    kind: String,
    id: i64,
    lang: String,
    title: String,
    content: String,
}

/// The newest texts written since `since` in one of our languages, at most `limit`, each with
/// the languages it has translations in.
pub(super) async fn recent(
    db: &impl ConnectionTrait,
    since: i64,
    limit: u64,
) -> AppResult<Vec<(Written, Vec<String>)>> {
    let langs: Vec<String> = LOCALES.iter().map(|l| format!("'{l}'")).collect();
    // One statement for the three tables; the languages are our own constants.
    let sql = format!(
        "SELECT kind, id, lang, title, content FROM ( \
         SELECT 'comment' AS kind, id, lang, '' AS title, content, created_at FROM comments \
         WHERE created_at > $1 AND state = 'visible' \
         UNION ALL SELECT 'question', id, lang, title, content, created_at FROM questions \
         WHERE created_at > $1 \
         UNION ALL SELECT 'answer', id, lang, '', content, created_at FROM answers \
         WHERE created_at > $1) t \
         WHERE lang IN ({}) ORDER BY created_at DESC, id DESC LIMIT {limit}",
        langs.join(", ")
    );
    let statement = Statement::from_sql_and_values(db.get_database_backend(), sql, [since.into()]);
    let rows: Vec<Written> = Row::find_by_statement(statement)
        .all(db)
        .await?
        .into_iter()
        .filter_map(|r| {
            Some(Written {
                kind: TextKind::named(&r.kind)?,
                id: r.id,
                lang: r.lang,
                title: r.title,
                content: r.content,
            })
        })
        .collect();
    let mut had: HashMap<(TextKind, i64), Vec<String>> = HashMap::new();
    for kind in [TextKind::Comment, TextKind::Question, TextKind::Answer] {
        let ids = rows.iter().filter(|w| w.kind == kind).map(|w| w.id);
        let found = text_translation::Entity::find()
            .filter(text_translation::Column::Kind.eq(kind.name()))
            .filter(text_translation::Column::RefId.is_in(ids))
            .all(db)
            .await?;
        for t in found {
            had.entry((kind, t.ref_id)).or_default().push(t.locale);
        }
    }
    Ok(rows
        .into_iter()
        .map(|w| {
            let locales = had.remove(&(w.kind, w.id)).unwrap_or_default();
            (w, locales)
        })
        .collect())
}

/// Keeps a translation (unless one came meanwhile).
pub(super) async fn store(
    db: &impl ConnectionTrait,
    written: &Written,
    locale: &str,
    title: String,
    content: String,
) -> AppResult<()> {
    text_translation::Entity::insert(text_translation::ActiveModel {
        kind: Set(written.kind.name().to_owned()),
        ref_id: Set(written.id),
        locale: Set(locale.to_owned()),
        title: Set(title),
        content: Set(content),
    })
    .on_conflict(
        OnConflict::columns([
            text_translation::Column::Kind,
            text_translation::Column::RefId,
            text_translation::Column::Locale,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(())
}
