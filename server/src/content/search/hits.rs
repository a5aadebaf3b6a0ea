//! A page of hits: titles in the reader's language and snippets with the matches marked.

use std::collections::HashMap;

use client_core::script::is_word_char;
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
    // The piece begins and ends on a word's edge (a Chinese, Japanese or Korean letter is one):
    // no "…oin" or "bitc…".
    let inside_word =
        |i: usize| i > 0 && i < chars.len() && is_word_char(chars[i - 1]) && is_word_char(chars[i]);
    let mut start = first.saturating_sub(SNIPPET_CONTEXT);
    while start < first && inside_word(start) {
        start += 1;
    }
    while start < first && chars[start].is_whitespace() {
        start += 1;
    }
    let least_end = first + match_at(first).unwrap_or(0);
    let mut end = (first + SNIPPET_CONTEXT * 2)
        .min(chars.len())
        .max(least_end);
    while end > least_end && inside_word(end) {
        end -= 1;
    }
    while end > least_end && chars[end - 1].is_whitespace() {
        end -= 1;
    }
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
    /// When a feed hit was published.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub published_at: Option<i64>,
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
                published_at: None,
            })
        })
        .collect()
}

/// Feed hits in the reader's language: a document holds every language's text, so a match in
/// one language would show that language's text under a title in another. Where the item was
/// written in, or translated into, the reader's language, the snippet is taken from that text:
/// its title and summary, or where they hold no term, its article where the match is (read only
/// for those hits: most matches are in titles and summaries).
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
    let texts = reader_texts(db, &ids, locale, false).await?;
    let matches = |text: &str| {
        let text = lower(text);
        terms.iter().any(|t| text.contains(t.as_str()))
    };
    let in_articles: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| {
            texts
                .get(id)
                .is_some_and(|(t, s)| !matches(t) && !matches(s))
        })
        .collect();
    let articles = reader_texts(db, &in_articles, locale, true).await?;
    for hit in hits.iter_mut().filter(|h| h.kind == DocKind::Feed.name()) {
        let Some((title, summary)) = texts.get(&hit.id) else {
            continue;
        };
        hit.snippet = match articles.get(&hit.id).map(|(_, html)| plain_text(html)) {
            Some(article) if matches(&article) => snippet(title, &article, terms),
            _ => snippet(title, summary, terms),
        };
    }
    Ok(())
}

/// Gives feed hits the time their item was published.
pub async fn with_dates(db: &impl ConnectionTrait, hits: &mut [Hit]) -> AppResult<()> {
    let feed = |h: &Hit| h.kind == DocKind::Feed.name();
    let ids: Vec<i64> = hits.iter().filter(|h| feed(h)).map(|h| h.id).collect();
    if ids.is_empty() {
        return Ok(());
    }
    let times: HashMap<i64, i64> = feed_item::Entity::find()
        .select_only()
        .columns([feed_item::Column::Id, feed_item::Column::PublishedAt])
        .filter(feed_item::Column::Id.is_in(ids))
        .into_tuple::<(i64, i64)>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    for hit in hits.iter_mut().filter(|h| feed(h)) {
        hit.published_at = times.get(&hit.id).copied();
    }
    Ok(())
}

/// The title and summary (or with `articles`, the title and content) of items `ids` in `locale`:
/// their translation, or the original where they were written in it.
async fn reader_texts(
    db: &impl ConnectionTrait,
    ids: &[i64],
    locale: &str,
    articles: bool,
) -> AppResult<HashMap<i64, (String, String)>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    use feed_item::Column as F;
    use feed_translation::Column as T;
    let translated: Vec<(i64, String, String)> = feed_translation::Entity::find()
        .select_only()
        .columns([T::FeedId, T::Title])
        .column(if articles { T::Content } else { T::Summary })
        .filter(T::FeedId.is_in(ids.iter().copied()))
        .filter(T::Locale.eq(locale))
        .into_tuple()
        .all(db)
        .await?;
    let originals: Vec<(i64, String, String)> = feed_item::Entity::find()
        .select_only()
        .columns([F::Id, F::Title])
        .column(if articles { F::Content } else { F::Summary })
        .filter(F::Id.is_in(ids.iter().copied()))
        .filter(F::Lang.eq(locale))
        .into_tuple()
        .all(db)
        .await?;
    Ok(translated
        .into_iter()
        .chain(originals)
        .map(|(id, title, text)| (id, (title, text)))
        .collect())
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

    #[test]
    fn snippets_cut_between_words() {
        let words = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima";
        let body = format!("{words} bitcoin {words} {words}");
        let s = snippet("T", &body, &["bitcoin".to_owned()]);
        let inner = s.trim_start_matches('…').trim_end_matches('…');
        let cut: Vec<&str> = inner.split(' ').collect();
        let whole = |w: &&str| words.split(' ').any(|x| x == *w) || w.contains("<mark>");
        assert!(cut.iter().all(whole), "a word cut in two: {s}");
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("<mark>bitcoin</mark>"), "{s}");
    }
}
