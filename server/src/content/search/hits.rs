//! A page of hits: titles in the reader's language and snippets with the matches marked.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};
use serde::Serialize;

use super::documents::DocRow;
use super::{DocKind, SNIPPET_CONTEXT, lower};
use crate::content::write::plain_text;
use crate::entity::{feed_item, feed_translation};
use crate::error::AppResult;

/// A short piece of `doc` around the first match, HTML-escaped, with every term in `<mark>`.
/// The line holding a match is chosen; without one, the body's first line (else the title's).
pub fn snippet(title: &str, body: &str, terms: &[String]) -> String {
    let line = body
        .lines()
        .chain(title.lines())
        .find(|line| {
            let l = lower(line);
            terms.iter().any(|t| l.contains(t.as_str()))
        })
        .or_else(|| body.lines().find(|l| !l.trim().is_empty()))
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

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Hit {
    #[ts(type = "\"feed\" | \"tag\" | \"token\" | \"kol\"")]
    pub kind: &'static str,
    pub id: i64,
    pub title: String,
    /// The hit's page in the app, without the locale prefix (`/tag/btc`, `/token/BTC`).
    pub path: String,
    /// HTML-escaped text with matches in `<mark>`.
    pub snippet: String,
}

/// A catalogue entry's page. Tags and tokens are reached by code and symbol, which their
/// documents hold as a title line (`Document::tag`: the English name, then the code;
/// `Document::token`: the symbol first).
fn page_path(kind: DocKind, doc: &DocRow) -> String {
    let mut lines = doc.title.lines();
    match kind {
        DocKind::Feed => format!("/feed/{}", doc.ref_id),
        DocKind::Kol => format!("/kol/{}", doc.ref_id),
        DocKind::Token => format!("/token/{}", lines.next().unwrap_or_default()),
        DocKind::Tag => {
            let first = lines.next().unwrap_or_default();
            format!("/tag/{}", lines.next().unwrap_or(first))
        }
    }
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
                path: page_path(kind, &doc),
                snippet: snippet(&doc.title, &doc.body, terms),
                title,
            })
        })
        .collect()
}

/// Feed hits in the reader's language: a document holds every language's text, so a match in
/// one language would show that language's text under a title in another. Where the item was
/// written in, or translated into, the reader's language, the snippet is taken from that text
/// (its summary and article), where the match is.
pub async fn in_reader_language(
    db: &impl ConnectionTrait,
    hits: &mut [Hit],
    terms: &[String],
    locale: &str,
) -> AppResult<()> {
    let ids: Vec<i64> = hits
        .iter()
        .filter(|h| h.kind == DocKind::Feed.name())
        .map(|h| h.id)
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    type Text = (i64, String, String, String);
    let translated: Vec<Text> = feed_translation::Entity::find()
        .select_only()
        .columns([
            feed_translation::Column::FeedId,
            feed_translation::Column::Title,
            feed_translation::Column::Summary,
            feed_translation::Column::Content,
        ])
        .filter(feed_translation::Column::FeedId.is_in(ids.iter().copied()))
        .filter(feed_translation::Column::Locale.eq(locale))
        .into_tuple()
        .all(db)
        .await?;
    let originals: Vec<Text> = feed_item::Entity::find()
        .select_only()
        .columns([
            feed_item::Column::Id,
            feed_item::Column::Title,
            feed_item::Column::Summary,
            feed_item::Column::Content,
        ])
        .filter(feed_item::Column::Id.is_in(ids.iter().copied()))
        .filter(feed_item::Column::Lang.eq(locale))
        .into_tuple()
        .all(db)
        .await?;
    let texts: HashMap<i64, (String, String)> = translated
        .into_iter()
        .chain(originals)
        .map(|(id, title, summary, content)| {
            (id, (title, format!("{summary}\n{}", plain_text(&content))))
        })
        .collect();
    for hit in hits.iter_mut().filter(|h| h.kind == DocKind::Feed.name()) {
        if let Some((title, text)) = texts.get(&hit.id) {
            hit.snippet = snippet(title, text, terms);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
