//! The home page's first paint, written by the server into the HTML it serves: the first page of
//! the feed as markup, painted before any script has run (a reader on a slow phone sees the news
//! at once), and as data, which the app starts from instead of asking again. The app replaces the
//! markup with its own when it has loaded; the markup is the app's feed card (`FeedCard.tsx`),
//! element for element, so nothing moves (a Chromium spec compares the two).

use serde::Deserialize;

use client_core::breaking::ImportantReason;
use client_core::feed::{card_shows_summary, card_tag_count, time_ago};
use client_core::locale::locale_path;
use client_core::vote::{VOTE_KINDS, VOTE_MARKS, VoteCounts};

use crate::i18n::{language_name, t};

/// Where the built `index.html` takes the markup (inside its root, after the static header).
pub const MARKUP_SLOT: &str = "<!--first-paint-->";
/// The element ids of the data, which the app reads (`web/src/features/feed/api/`).
pub const DATA_ID: &str = "first-page";
pub const FEED_DATA_ID: &str = "first-feed";
pub const EXPLORE_DATA_ID: &str = "first-explore";

/// What JavaScript's `encodeURIComponent` leaves as it is, so a path in the markup is the app's.
const URI_COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

#[derive(Deserialize)]
struct Envelope {
    data: Page,
}

#[derive(Deserialize)]
struct Page {
    list: Vec<Card>,
}

#[derive(Deserialize)]
struct FeedEnvelope {
    data: Detail,
}

#[derive(Deserialize)]
struct Detail {
    #[serde(flatten)]
    card: Card,
    content: String,
}

#[derive(Deserialize)]
struct Card {
    id: i64,
    kind: String,
    title: String,
    summary: String,
    lang: String,
    translated: bool,
    source_name: String,
    published_at: i64,
    author: Option<Named>,
    user: Option<Nicknamed>,
    important: bool,
    #[serde(default)]
    important_reason: Option<ImportantReason>,
    tags: Vec<Tag>,
    like_count: i64,
    comment_count: i64,
    #[serde(default)]
    votes: VoteCounts,
    #[serde(default)]
    story: Option<Story>,
}

#[derive(Deserialize)]
struct Story {
    size: i64,
}

#[derive(Deserialize)]
struct Named {
    name: String,
}

#[derive(Deserialize)]
struct Nicknamed {
    nickname: String,
}

#[derive(Deserialize)]
struct Tag {
    code: String,
    name: String,
}

impl Tag {
    /// The tag's page, its code encoded as the app's `encodeURIComponent` does.
    fn path(&self) -> String {
        format!(
            "/tag/{}",
            percent_encoding::utf8_percent_encode(&self.code, URI_COMPONENT)
        )
    }
}

impl Card {
    /// Who wrote it: the reader of a post, else the author where there is one, else the source.
    fn source(&self) -> &str {
        match (&self.user, &self.author) {
            (Some(u), _) => &u.nickname,
            (None, Some(a)) => &a.name,
            (None, None) => &self.source_name,
        }
    }

    /// The "important" badge, saying why where its story broke, or nothing.
    fn badge(&self, locale: &str) -> String {
        if !self.important {
            return String::new();
        }
        let said = match self.important_reason {
            Some(ImportantReason::Sources { sources, minutes }) => t(
                locale,
                "web.feed.breaking",
                &[
                    ("sources", &sources.to_string()),
                    ("minutes", &minutes.to_string()),
                ],
            ),
            None => t(locale, "web.feed.important", &[]),
        };
        format!(r#"<span class="badge important">{}</span>"#, text(&said))
    }

    /// "3h ago" in the reader's words (client-core's rule, as the app says it).
    fn ago(&self, locale: &str, now: i64) -> String {
        let ago = time_ago(self.published_at, now);
        t(locale, ago.key, &[("n", &ago.n.to_string())])
    }

    /// The like and comment counts, as the app's card shows them.
    fn stats(&self, locale: &str) -> String {
        let stat = |key: &str, n: i64, mark: &str| {
            let label = t(locale, key, &[("count", &n.to_string())]);
            format!(r#"<span aria-label="{}">{mark} {n}</span>"#, attr(&label))
        };
        format!(
            r#"<div class="card-stats">{}{}</div>"#,
            stat("web.social.likeCount", self.like_count, "♡"),
            stat("web.social.commentCount", self.comment_count, "💬")
        )
    }

    /// The vote buttons with their counts, none pressed (a visitor's), as the app's `VoteBar`
    /// draws them.
    fn vote_bar(&self, locale: &str) -> String {
        let mut votes = self.votes;
        let buttons: String = VOTE_KINDS
            .iter()
            .zip(VOTE_MARKS)
            .map(|(kind, mark)| {
                let n = votes.of(kind).map_or(0, |n| *n);
                let label = t(locale, &format!("web.votes.{kind}"), &[("count", &n.to_string())]);
                format!(
                    r#"<button type="button" class="vote" data-kind="{kind}" aria-pressed="false" aria-label="{}">{mark} {n}</button>"#,
                    attr(&label)
                )
            })
            .collect();
        format!(
            r#"<div class="vote-bar" role="group" aria-label="{}">{buttons}</div>"#,
            attr(&t(locale, "web.votes.label", &[]))
        )
    }

    /// "3 sources", closed, as the app's `StorySources` first shows it.
    fn story_toggle(&self, locale: &str) -> String {
        self.story.as_ref().map_or_else(String::new, |story| {
            let count = story.size.to_string();
            format!(
                r#"<div class="story"><button type="button" class="story-toggle" aria-expanded="false">{}</button></div>"#,
                // A story has two reports or more: always the plural.
                text(&t(locale, "web.stories.sources_other", &[("count", &count)]))
            )
        })
    }

    /// "Translated from Korean" in the reader's words.
    fn translated_from(&self, locale: &str) -> String {
        t(
            locale,
            "web.feed.translated",
            &[("lang", &language_name(locale, &self.lang))],
        )
    }
}

fn text(s: &str) -> std::borrow::Cow<'_, str> {
    html_escape::encode_text(s)
}

/// As JavaScript's `toISOString` writes it (`2026-11-23T09:00:00.000Z`).
fn iso_time(seconds: i64) -> String {
    crate::time::utc(seconds).to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn attr(s: &str) -> std::borrow::Cow<'_, str> {
    html_escape::encode_double_quoted_attribute(s)
}

#[derive(Deserialize)]
struct ExploreEnvelope {
    data: Explore,
}

#[derive(Deserialize)]
struct Explore {
    topics: Vec<Topic>,
    tags: Vec<Tag>,
    /// A channel, like a tag, is its code (in its path) and name.
    channels: Vec<Tag>,
    kols: Vec<Kol>,
}

#[derive(Deserialize)]
struct Topic {
    id: i64,
    title: String,
    description: String,
    lang: String,
}

#[derive(Deserialize)]
struct Kol {
    id: i64,
    name: String,
    bio: String,
}

/// The Explore page's first paint (`envelope`: the JSON of `/explore`'s answer): the app's
/// `ExplorePage.tsx` as it draws before its benefits arrive (their grid empty), element for
/// element, and the answer as data. Anything unreadable leaves the page as it was.
pub fn render_explore(template: &str, envelope: &[u8], locale: &str) -> String {
    let Ok(ExploreEnvelope { data }) = serde_json::from_slice::<ExploreEnvelope>(envelope) else {
        return template.to_owned();
    };
    if !template.contains(MARKUP_SLOT) {
        return template.to_owned();
    }
    let href = |path: &str| attr(&locale_path(locale, path)).into_owned();
    let heading = |key: &str| format!("<h2>{}</h2>", text(&t(locale, key, &[])));
    // As `FallbackMark` says it: the text's language, when it is not the reader's.
    let fallback = |lang: &str| {
        if lang == locale {
            String::new()
        } else {
            format!(
                r#"<span class="badge fallback" lang="{}">{}</span>"#,
                attr(locale),
                text(&language_name(locale, lang))
            )
        }
    };
    let mut markup = String::from(r#"<section class="page explore">"#);
    markup.push_str(&heading("web.explore.topics"));
    markup.push_str(r#"<div class="grid topics">"#);
    for (i, topic) in data.topics.iter().enumerate() {
        markup.push_str(&format!(
            r#"<a href="{}" class="card topic"><span class="rank">{}</span><h3 lang="{lang}">{} {}</h3><p lang="{lang}">{}</p></a>"#,
            href(&format!("/topic/{}", topic.id)),
            i + 1,
            text(&topic.title),
            fallback(&topic.lang),
            text(&topic.description),
            lang = attr(&topic.lang),
        ));
    }
    markup.push_str(&format!(
        r#"</div><div class="section-head">{}<a href="{}">{}</a></div><div class="chips">"#,
        heading("web.explore.tags"),
        href("/recommendTag"),
        text(&t(locale, "web.explore.more", &[]))
    ));
    for tag in &data.tags {
        markup.push_str(&format!(
            r#"<a href="{}" class="chip">#{}</a>"#,
            href(&tag.path()),
            text(&tag.name)
        ));
    }
    markup.push_str("</div>");
    markup.push_str(&heading("web.explore.channels"));
    markup.push_str(r#"<div class="chips">"#);
    for channel in &data.channels {
        markup.push_str(&format!(
            r#"<a href="{}" class="chip">{}</a>"#,
            href(&format!("/channel/{}", channel.code)),
            text(&channel.name)
        ));
    }
    markup.push_str("</div>");
    markup.push_str(&heading("web.explore.benefits"));
    markup.push_str(r#"<div class="grid"></div>"#);
    markup.push_str(&heading("web.explore.kols"));
    markup.push_str(r#"<div class="grid">"#);
    for kol in &data.kols {
        let initial: String = kol.name.chars().take(1).collect();
        markup.push_str(&format!(
            r#"<a href="{}" class="card kol"><span class="avatar" aria-hidden="true">{}</span><div><strong>{}</strong><p>{}</p></div></a>"#,
            href(&format!("/kol/{}", kol.id)),
            text(&initial),
            text(&kol.name),
            text(&kol.bio)
        ));
    }
    markup.push_str("</div></section>");
    fill(template, &markup, EXPLORE_DATA_ID, envelope, locale)
}

/// `template` with the first page (`envelope`: the JSON of `/feed/list`'s answer) as markup in
/// its slot and as data before `</body>`, its times relative to `now`. A template without the
/// slot, or an envelope that does not parse, leaves the page as it was: the app then loads the
/// feed itself.
pub fn render(template: &str, envelope: &[u8], locale: &str, now: i64) -> String {
    let Ok(Envelope { data }) = serde_json::from_slice::<Envelope>(envelope) else {
        return template.to_owned();
    };
    if !template.contains(MARKUP_SLOT) {
        return template.to_owned();
    }
    let mut markup = String::from(r#"<section class="page home"><div class="feed-list">"#);
    for card in &data.list {
        markup.push_str(&format!(
            r#"<article class="card feed-card {}{}"><div class="card-meta">{}"#,
            attr(&card.kind),
            if card.important { " important" } else { "" },
            card.badge(locale)
        ));
        markup.push_str(&format!(
            r#"<span class="kind">{}</span><time datetime="{}">{}</time></div><h3 class="card-title"><a href="{}">{}</a></h3>"#,
            text(card.source()),
            iso_time(card.published_at),
            text(&card.ago(locale, now)),
            attr(&locale_path(locale, &format!("/feed/{}", card.id))),
            text(&card.title)
        ));
        if card_shows_summary(&card.kind, &card.summary) {
            markup.push_str(&format!(
                r#"<p class="card-summary">{}</p>"#,
                text(&card.summary)
            ));
        }
        markup.push_str(r#"<div class="card-tags">"#);
        for tag in &card.tags[..card_tag_count(card.tags.len())] {
            markup.push_str(&format!(
                r#"<a href="{}" class="chip">#{}</a>"#,
                attr(&locale_path(locale, &tag.path())),
                text(&tag.name)
            ));
        }
        if card.translated {
            markup.push_str(&format!(
                r#"<span class="translated">{}</span>"#,
                text(&card.translated_from(locale))
            ));
        }
        markup.push_str("</div>");
        markup.push_str(&card.stats(locale));
        markup.push_str(&card.vote_bar(locale));
        markup.push_str(&card.story_toggle(locale));
        markup.push_str("</article>");
    }
    markup.push_str("</div></section>");
    fill(template, &markup, DATA_ID, envelope, locale)
}

/// The feed page's first paint (`envelope`: the JSON of `/feed/detail`'s answer): what the app's
/// feed page shows first (the meta line, the headline, the translation note and the article), as
/// markup, and the answer as data so the app starts from it. Anything unreadable leaves the
/// page as it was.
pub fn render_feed(template: &str, envelope: &[u8], locale: &str, now: i64) -> String {
    let Ok(FeedEnvelope { data: item }) = serde_json::from_slice::<FeedEnvelope>(envelope) else {
        return template.to_owned();
    };
    if !template.contains(MARKUP_SLOT) {
        return template.to_owned();
    }
    let card = &item.card;
    let mut markup = format!(
        r#"<article class="page feed-page"><div class="card-meta">{}<span>{}</span><time>{}</time></div><h1>{}</h1>"#,
        card.badge(locale),
        text(card.source()),
        text(&card.ago(locale, now)),
        text(&card.title)
    );
    if card.translated {
        markup.push_str(&format!(
            r#"<p class="translated">{}</p>"#,
            text(&card.translated_from(locale))
        ));
    }
    // Stored sanitized (ammonia); the app maps its links when it takes over.
    markup.push_str(&format!(
        r#"<div class="article-body">{}</div></article>"#,
        item.content
    ));
    fill(template, &markup, FEED_DATA_ID, envelope, locale)
}

/// The markup in the template's slot, and the answer it was written from as JSON data before
/// `</body>` (`<` escaped, so no `</script>` in the text can end the script element).
fn fill(template: &str, markup: &str, id: &str, envelope: &[u8], locale: &str) -> String {
    let json = String::from_utf8_lossy(envelope).replace('<', "\\u003c");
    let data = format!(
        r#"<script id="{id}" type="application/json" data-locale="{}">{json}</script>"#,
        attr(locale)
    );
    // In the page's frame as the app's shell draws it (`.columns`: the side column's room on wide
    // screens), so nothing moves when the app takes over.
    let page = format!(r#"<div class="columns"><main class="content">{markup}</main></div>"#);
    template
        .replacen(MARKUP_SLOT, &page, 1)
        .replacen("</body>", &format!("{data}</body>"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str =
        "<html><body><div id=\"root\"><header></header><!--first-paint--></div></body></html>";

    #[test]
    fn cards_are_escaped_and_the_data_cannot_close_its_script() {
        let envelope = serde_json::json!({ "code": 2000, "data": { "next_cursor": null, "list": [{
            "id": 7, "kind": "article", "title": "</script><b>x</b>", "summary": "a & b",
            "lang": "ko", "translated": true, "source_name": "S", "author": null, "published_at": 0,
            "important": true, "tags": [{ "id": 1, "code": "btc", "name": "Bitcoin" }],
            "like_count": 3, "comment_count": 2, "votes": { "bullish": 4, "toxic": 1 }
        }]}});
        let html = render(TEMPLATE, envelope.to_string().as_bytes(), "zh-Hant", 7200);
        assert!(
            html.contains(r#"<a href="/zh-Hant/feed/7">&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;</a>"#)
        );
        assert!(html.contains(r#"<p class="card-summary">a &amp; b</p>"#));
        assert!(html.contains(r#"<a href="/zh-Hant/tag/btc" class="chip">#Bitcoin</a>"#));
        assert!(html.contains(r#"<span class="badge important">"#));
        assert!(html.contains(r#"<span class="translated">譯自韓文</span>"#));
        assert!(html.contains(
            r#"<div class="card-stats"><span aria-label="按讚：3">♡ 3</span><span aria-label="留言：2">💬 2</span></div>"#
        ));
        assert!(html.contains(r#"<time datetime="1970-01-01T00:00:00.000Z">2小時前</time>"#));
        assert!(html.contains(
            r#"<div class="vote-bar" role="group" aria-label="讀者投票"><button type="button" class="vote" data-kind="bullish" aria-pressed="false" aria-label="看漲：4">🐂 4</button>"#
        ));
        assert!(html.contains(r#"aria-label="有害：1">🤮 1</button></div></article>"#));
        assert_eq!(
            html.matches("</script>").count(),
            1,
            "only the data's own end tag"
        );
        assert!(html.contains(r#"data-locale="zh-Hant">{"#));
        assert!(!html.contains(MARKUP_SLOT));
    }

    #[test]
    fn a_template_without_the_slot_or_bad_data_is_left_alone() {
        let envelope = br#"{"code":2000,"data":{"list":[],"next_cursor":null}}"#;
        assert_eq!(render("<body></body>", envelope, "en", 0), "<body></body>");
        assert_eq!(render(TEMPLATE, b"not json", "en", 0), TEMPLATE);
    }
}
