//! A query: its terms, the tiers and the cursor, and the statements that find a page.

use sea_orm::{ConnectionTrait, DatabaseBackend, FromQueryResult, Statement, Value};

use super::documents::DocRow;
use super::{DocKind, MAX_TERMS, SEARCH_PAGE, TRIGRAM, lang_marker, lower, padded_gram};
use crate::error::{AppError, AppResult};

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
    langs: Option<&[&str]>,
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
            feed_query(terms, langs, tier, after, wanted)
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

/// Where a feed search looks for its longer terms.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Within {
    /// Titles only (the title tier, in `search_titles`).
    Titles,
    /// Text other than the titles (the text tier).
    TextOnly,
    /// Titles and text.
    Anywhere,
}

/// The FTS5 expression for feeds with every term (in one of `langs`, where given).
fn feed_match(terms: &[String], langs: Option<&[&str]>, within: Within) -> String {
    let (long, short): (Vec<&String>, Vec<&String>) =
        terms.iter().partition(|t| t.chars().count() >= TRIGRAM);
    // Terms hold only letters and digits: no quote to break out of an FTS5 phrase.
    let phrases = |terms: &[&String], write: fn(&str) -> String| {
        terms
            .iter()
            .map(|t| format!("\"{}\"", write(t)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let long = phrases(&long, str::to_owned);
    let mut parts = Vec::new();
    match within {
        Within::Titles => parts.push(format!("title : ({long})")),
        _ if long.is_empty() => {}
        Within::TextOnly => parts.push(format!(
            "({{title body}} : ({long})) NOT (title : ({long}))"
        )),
        Within::Anywhere => parts.push(format!("{{title body}} : ({long})")),
    }
    if !short.is_empty() {
        let padded = phrases(&short, |t| padded_gram(&t.chars().collect::<Vec<_>>()));
        parts.push(format!("grams : ({padded})"));
    }
    if let Some(langs) = langs {
        let markers: Vec<String> = langs
            .iter()
            .map(|l| format!("\"{}\"", lang_marker(l)))
            .collect();
        parts.push(format!("grams : ({})", markers.join(" OR ")));
    }
    parts
        .iter()
        .map(|p| format!("({p})"))
        .collect::<Vec<_>>()
        .join(" AND ")
}

const DOC_COLUMNS: &str = "search_docs.kind, search_docs.ref_id, search_docs.title, \
     search_docs.body, search_docs.names";

/// The feeds of a feed tier with document ids above `after` (in one of `langs`, where given), in
/// id order: one FTS5 MATCH, so the index walks its postings in id order and stops after a page,
/// whatever the terms.
fn feed_query(
    terms: &[String],
    langs: Option<&[&str]>,
    tier: Tier,
    after: i64,
    limit: u64,
) -> Statement {
    let (table, within, from) = if tier == Tier::FeedTitles {
        (
            "search_titles",
            Within::Titles,
            "search_titles JOIN search_docs ON search_docs.rowid = search_titles.rowid",
        )
    } else {
        ("search_docs", Within::TextOnly, "search_docs")
    };
    let matching = feed_match(terms, langs, within);
    let id = format!("{table}.rowid");
    let sql = format!(
        "SELECT {id} AS id, {DOC_COLUMNS} FROM {from} WHERE {table} MATCH ? AND {id} > ? \
         ORDER BY {id} LIMIT {limit}"
    );
    Statement::from_sql_and_values(
        DatabaseBackend::Sqlite,
        sql,
        [matching.into(), after.into()],
    )
}

/// The feeds matching every term anywhere (in one of `langs`, where given), the latest
/// documents first, at most `limit`: what a search sorted by time or score orders.
pub async fn find_feeds(
    index: &impl ConnectionTrait,
    terms: &[String],
    langs: Option<&[&str]>,
    limit: u64,
) -> AppResult<Vec<DocRow>> {
    let sql = format!(
        "SELECT search_docs.rowid AS id, {DOC_COLUMNS} FROM search_docs WHERE search_docs \
         MATCH ? ORDER BY search_docs.rowid DESC LIMIT {limit}"
    );
    let matching = feed_match(terms, langs, Within::Anywhere);
    let query = Statement::from_sql_and_values(DatabaseBackend::Sqlite, sql, [matching.into()]);
    Ok(DocRow::find_by_statement(query).all(index).await?)
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
}
