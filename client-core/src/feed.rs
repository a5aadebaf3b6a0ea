//! Feed items as readers meet them: their kinds, the home page's tabs and which kinds each tab
//! shows, and the feed card's rule (what the card shows of an item). The server's first paint and
//! the app's card both follow it.

use serde::{Deserialize, Serialize};

use crate::constants::{CARD_MAX_TAGS, FLASH_SUMMARY_HIDDEN_FROM};

/// The kinds of feed item, as the API names them: the news kinds editors and sources publish,
/// then readers' own posts.
pub const FEED_KINDS: [&str; 5] = ["flash", "article", "thread", "research", "post"];

/// The kinds editors and sources may publish (a `post` is a reader's, made by `/post/create`).
pub const NEWS_KINDS: &[&str] = FEED_KINDS.split_at(4).0;

/// A reader's own post.
pub const POST_KIND: &str = FEED_KINDS[4];

/// The home page's tabs, in the order they are shown.
pub const FEED_TABS: [&str; 5] = ["for_you", "news", "articles", "community", "following"];

/// The tab shown when none is named.
pub const DEFAULT_FEED_TAB: &str = FEED_TABS[0];

/// The kinds a home tab lists: `None` for every kind (`for_you` and `following`, whose scope is
/// the reader's follows), or `None` as the outer value for a tab that does not exist.
pub fn tab_kinds(tab: &str) -> Option<Option<&'static [&'static str]>> {
    match tab {
        "for_you" | "following" => Some(None),
        "news" => Some(Some(&FEED_KINDS[..1])),
        "articles" => Some(Some(&FEED_KINDS[1..4])),
        "community" => Some(Some(&FEED_KINDS[4..])),
        _ => None,
    }
}

pub fn is_feed_kind(kind: &str) -> bool {
    FEED_KINDS.contains(&kind)
}

/// Whether a feed card shows the item's summary: a flash item whose summary is long (counted in
/// UTF-16 units, as the browser counts) shows its title only.
pub fn card_shows_summary(kind: &str, summary: &str) -> bool {
    kind != FEED_KINDS[0] || summary.encode_utf16().count() < FLASH_SUMMARY_HIDDEN_FROM
}

/// How many of an item's tags its card shows.
pub const fn card_tag_count(tags: usize) -> usize {
    if tags < CARD_MAX_TAGS {
        tags
    } else {
        CARD_MAX_TAGS
    }
}

/// A feed card's layout, for callers that hold the item only as JSON (the wasm surface).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CardLayout {
    pub shows_summary: bool,
    pub tag_count: usize,
}

pub fn card_layout(kind: &str, summary: &str, tags: usize) -> CardLayout {
    CardLayout {
        shows_summary: card_shows_summary(kind, summary),
        tag_count: card_tag_count(tags),
    }
}

/// How long ago an item was published, as a locale key and its number (`web.time.hours`, 3:
/// "3h ago"); the card's words in the app and in the server's first paint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TimeAgo {
    pub key: &'static str,
    pub n: i64,
}

/// Not `Intl.RelativeTimeFormat`: its first use loads the ICU data, a long task of about 100 ms
/// on a slow phone, right when the first page renders. Times in the future read as "just now".
pub fn time_ago(published: i64, now: i64) -> TimeAgo {
    const HOUR: i64 = 60;
    const DAY: i64 = 24 * HOUR;
    let minutes = now.saturating_sub(published).div_euclid(60);
    let (key, n) = match minutes {
        m if m < 1 => ("web.time.now", 0),
        m if m < HOUR => ("web.time.minutes", m),
        m if m < DAY => ("web.time.hours", m / HOUR),
        m => ("web.time.days", m / DAY),
    };
    TimeAgo { key, n }
}
