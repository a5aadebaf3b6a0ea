//! The news as a chat reads it: the item's title and summary in the chat's language (its
//! translation where there is one), a link back to the site, within the platform's limits.

use client_core::locale::locale_path;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use super::Platform;
use crate::entity::{feed_item, feed_translation};
use crate::error::AppResult;
use crate::i18n::t;

/// An item's words in one language.
#[derive(Debug, Clone)]
pub struct Words {
    pub id: i64,
    pub title: String,
    pub summary: String,
    /// Every title and summary the item has: what muted words are looked for in.
    pub every_language: Vec<String>,
}

/// The item `id` in `locale`; `None` when it is gone.
pub async fn words(db: &impl ConnectionTrait, id: i64, locale: &str) -> AppResult<Option<Words>> {
    let Some(item) = feed_item::Entity::find_by_id(id).one(db).await? else {
        return Ok(None);
    };
    let translations = feed_translation::Entity::find()
        .filter(feed_translation::Column::FeedId.eq(id))
        .all(db)
        .await?;
    let mut every_language = vec![item.title.clone(), item.summary.clone()];
    for tr in &translations {
        every_language.extend([tr.title.clone(), tr.summary.clone()]);
    }
    let (title, summary) = match translations.iter().find(|tr| tr.locale == locale) {
        Some(tr) if item.lang != locale => (tr.title.clone(), tr.summary.clone()),
        _ => (item.title, item.summary),
    };
    Ok(Some(Words {
        id,
        title,
        summary,
        every_language,
    }))
}

impl Words {
    /// Whether one of `muted` is in the item, in any of its languages, matched as alert
    /// keywords are (client-core's rule: one rule for both).
    pub fn is_muted(&self, muted: &[String]) -> bool {
        client_core::alert::mentions_any(muted, &self.every_language)
    }
}

/// `PUBLIC_URL` + the item's page in `locale`, marked as coming from the platform.
pub fn item_url(public_url: &str, locale: &str, id: i64, platform: Platform) -> String {
    format!(
        "{}{}?from={}",
        public_url.trim_end_matches('/'),
        locale_path(locale, &format!("/feed/{id}")),
        platform.name()
    )
}

/// One item as a message: Telegram's HTML (every text escaped), or LINE's plain text.
pub fn news(platform: Platform, words: &Words, locale: &str, public_url: &str) -> String {
    let url = item_url(public_url, locale, words.id, platform);
    let more = t(locale, "bot.readMore", &[]);
    let limit = platform.max_text_chars();
    match platform {
        Platform::Telegram => {
            let head = format!(
                "<b>{}</b>",
                html_escape::encode_text(&cut(&words.title, 300))
            );
            let link = format!(
                "<a href=\"{}\">{}</a>",
                html_escape::encode_double_quoted_attribute(&url),
                html_escape::encode_text(&more)
            );
            // The summary gets what room is left; escaping can lengthen it, so it is cut first
            // to a quarter of the limit, far below what escaping could push over.
            let summary = html_escape::encode_text(&cut(&words.summary, limit / 4)).into_owned();
            join(&[head, summary, link])
        }
        Platform::Line => join(&[
            cut(&words.title, 300),
            cut(&words.summary, limit / 2),
            format!("{more}: {url}"),
        ]),
    }
}

/// A digest: a heading, then one line per item, cut to the platform's limit.
pub fn digest(platform: Platform, items: &[Words], locale: &str, public_url: &str) -> String {
    let limit = platform.max_text_chars();
    let count = items.len().to_string();
    let mut text = t(locale, "bot.digestTitle", &[("count", &count)]);
    if platform == Platform::Telegram {
        text = format!("<b>{}</b>", html_escape::encode_text(&text));
    }
    for words in items {
        let url = item_url(public_url, locale, words.id, platform);
        let line = match platform {
            Platform::Telegram => format!(
                "\n• <a href=\"{}\">{}</a>",
                html_escape::encode_double_quoted_attribute(&url),
                html_escape::encode_text(&cut(&words.title, 200))
            ),
            Platform::Line => format!("\n• {}\n  {url}", cut(&words.title, 200)),
        };
        // Whole lines only: a link is never cut in half.
        if text.chars().count() + line.chars().count() > limit {
            break;
        }
        text.push_str(&line);
    }
    text
}

fn join(parts: &[String]) -> String {
    parts
        .iter()
        .filter(|p| !p.trim().is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// At most `max` characters, with an ellipsis when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
