//! The demo set, written for this project: a catalogue (20 tokens, 30 tags, 10 channels, 8 KOLs,
//! 10 topics, 10 benefits), 12 story templates in five languages, expanded over the tokens into
//! feed items, the labelled set of events reported by several sources (`stories.json`), three
//! presales (upcoming, live, ended) and two partner exchanges. `make run` loads 240 generated
//! items and the labelled set's 303 into an empty database; `blockbrief generate` writes any
//! number of generated items for benchmarks.

use std::collections::{BTreeMap, HashMap};

use sea_orm::{EntityTrait, PaginatorTrait};
use serde::Deserialize;

use super::write::{
    AuthorInput, BenefitInput, CatalogueInput, FeedInput, Timestamp, TranslationInput,
    upsert_catalogue, upsert_feeds,
};
use crate::ctx::Ctx;
use crate::entity::feed_item;
use crate::error::{AppError, AppResult};
use crate::linking::Linking;
use crate::markets;

/// Items loaded into an empty database: every story template once per token.
pub const DEMO_ITEMS: usize = 240;
/// Minutes between two generated items, newest first.
const SPACING_SECONDS: i64 = 600;

#[derive(Deserialize)]
struct DemoSet {
    catalogue: DemoCatalogue,
    stories: Vec<Story>,
    presales: Vec<DemoPresale>,
    /// Partner exchanges, each with a secret made at load (no postback can be forged from the
    /// published demo set).
    exchanges: Vec<serde_json::Map<String, serde_json::Value>>,
}

/// A presale, its times relative to the load.
#[derive(Deserialize)]
struct DemoPresale {
    #[serde(flatten)]
    presale: serde_json::Map<String, serde_json::Value>,
    starts_in_hours: i64,
    days: i64,
}

#[derive(Deserialize)]
struct DemoCatalogue {
    tokens: Vec<DemoToken>,
    #[serde(flatten)]
    rest: CatalogueInput,
    benefits: Vec<DemoBenefit>,
}

#[derive(Deserialize)]
struct DemoToken {
    #[serde(flatten)]
    token: super::write::TokenInput,
    names: HashMap<String, String>,
}

#[derive(Deserialize)]
struct DemoBenefit {
    #[serde(flatten)]
    benefit: serde_json::Map<String, serde_json::Value>,
    deadline_in_days: i64,
}

#[derive(Deserialize)]
struct StoryText {
    title: String,
    summary: String,
}

#[derive(Deserialize)]
struct Story {
    kind: String,
    channel: String,
    lang: String,
    tags: Vec<String>,
    topic: Option<String>,
    author: Option<String>,
    texts: BTreeMap<String, StoryText>,
    body: BTreeMap<String, String>,
}

fn demo_set() -> AppResult<DemoSet> {
    serde_json::from_str(include_str!("../../demo/content.json")).map_err(AppError::internal)
}

fn catalogue(set: &DemoSet, now: i64) -> AppResult<CatalogueInput> {
    let mut benefits = Vec::new();
    for (i, b) in set.catalogue.benefits.iter().enumerate() {
        let mut fields = b.benefit.clone();
        let deadline = now + b.deadline_in_days * 86_400;
        fields.insert("deadline".to_owned(), deadline.into());
        fields.insert("published_at".to_owned(), (now - i as i64 * 7_200).into());
        benefits.push(
            serde_json::from_value::<BenefitInput>(fields.into()).map_err(AppError::internal)?,
        );
    }
    Ok(CatalogueInput {
        tokens: set
            .catalogue
            .tokens
            .iter()
            .map(|t| t.token.clone())
            .collect(),
        benefits,
        ..serde_json::from_value(
            serde_json::to_value(&set.catalogue.rest).map_err(AppError::internal)?,
        )
        .map_err(AppError::internal)?
    })
}

/// A large number as Chinese and Korean write it, in units of ten thousand (77,000,000 is
/// "7,700万", 17,000 is "1.7万", 3,000 is "3千"; never "77 百万" or "77백만"). Only the demo's Chinese and Korean
/// texts use these placeholders.
fn myriads(value: usize, locale: &str) -> String {
    let (unit, thousand) = match locale {
        "zh-Hans" => ("万", "千"),
        "zh-Hant" => ("萬", "千"),
        _ => ("만", "천"),
    };
    if value < 10_000 {
        return format!("{}{thousand}", value / 1_000);
    }
    let tenths = value / 1_000;
    let (whole, tenth) = (tenths / 10, tenths % 10);
    let mut digits = whole.to_string();
    let mut grouped = String::new();
    while digits.len() > 3 {
        let rest = digits.split_off(digits.len() - 3);
        grouped = format!(",{rest}{grouped}");
    }
    let whole = format!("{digits}{grouped}");
    if tenth == 0 {
        format!("{whole}{unit}")
    } else {
        format!("{whole}.{tenth}{unit}")
    }
}

/// Item `i` of the generated sequence (the same `i` always gives the same item).
fn feed(set: &DemoSet, i: usize, now: i64) -> FeedInput {
    let story = &set.stories[i % set.stories.len()];
    let token = &set.catalogue.tokens[(i / set.stories.len()) % set.catalogue.tokens.len()];
    let symbol = token.token.symbol.clone();
    let count = 3 + (i * 37) % 97;
    let n = count.to_string();
    let fill = |text: &str, locale: &str| {
        let name = token.names.get(locale).unwrap_or(&token.token.name);
        text.replace("{sym}", &symbol)
            .replace("{name}", name)
            .replace("{n_million}", &myriads(count * 1_000_000, locale))
            .replace("{n_thousand}", &myriads(count * 1_000, locale))
            .replace("{n}", &n)
    };
    let text_for = |locale: &str| {
        let t = &story.texts[locale];
        let summary = fill(&t.summary, locale);
        let mut content = format!("<p>{summary}</p>");
        if let Some(body) = story.body.get(locale) {
            content.push_str(&format!("<p>{body}</p>"));
        }
        TranslationInput {
            title: fill(&t.title, locale),
            summary,
            content,
        }
    };
    let original = text_for(&story.lang);
    let translations = story
        .texts
        .keys()
        .filter(|l| **l != story.lang)
        .map(|l| (l.clone(), text_for(l)))
        .collect();
    let author = story.author.as_ref().and_then(|handle| {
        set.catalogue
            .rest
            .kols
            .iter()
            .find(|k| &k.handle == handle)
            .map(|k| AuthorInput {
                handle: k.handle.clone(),
                name: k.name.clone(),
            })
    });
    let source_name = match (&author, story.kind.as_str()) {
        (Some(a), _) => a.name.clone(),
        (None, "research") => "Blockbrief Research".to_owned(),
        (None, _) => "Blockbrief Desk".to_owned(),
    };
    let mut tags = vec![symbol.to_lowercase()];
    tags.extend(story.tags.iter().cloned());
    FeedInput {
        source_url: format!(
            "https://demo.blockbrief.news/{}/{i}-{}",
            story.kind,
            symbol.to_lowercase()
        ),
        kind: story.kind.clone(),
        lang: story.lang.clone(),
        title: original.title,
        summary: original.summary,
        content: original.content,
        source_name,
        published_at: Timestamp::Unix(now - i as i64 * SPACING_SECONDS - (i % 7) as i64 * 60),
        tags,
        tokens: vec![symbol],
        topics: story.topic.iter().cloned().collect(),
        channel: Some(story.channel.clone()),
        author,
        images: Vec::new(),
        important: i.is_multiple_of(9),
        translations,
    }
}

/// The labelled set of events reported by several sources in several languages (the stories
/// the tests measure grouping on), as feed items published relative to `now`, earliest first
/// so that each finds the story of those before it.
fn reported_events(now: i64) -> AppResult<Vec<FeedInput>> {
    #[derive(Deserialize)]
    struct Event {
        id: String,
        hours_ago: i64,
        tokens: Vec<String>,
        /// Language, source, minutes after the first report, title, summary.
        items: Vec<(String, String, i64, String, String)>,
    }
    #[derive(Deserialize)]
    struct Set {
        events: Vec<Event>,
    }
    let set: Set = serde_json::from_str(include_str!("../../demo/stories.json"))
        .map_err(AppError::internal)?;
    // Each source is a site of its own, as breaking news counts sites (`stories::breaking`).
    let sources: std::collections::BTreeSet<String> = set
        .events
        .iter()
        .flat_map(|e| e.items.iter().map(|item| item.1.clone()))
        .collect();
    let site = |source: &str| sources.iter().position(|s| s == source).unwrap_or(0);
    let mut items = Vec::new();
    for event in set.events {
        for (n, (lang, source, minutes, title, summary)) in event.items.into_iter().enumerate() {
            let at = now - event.hours_ago * 3_600 + minutes * 60;
            let host = format!("source-{}.demo.blockbrief.news", site(&source));
            items.push((
                at,
                FeedInput {
                    source_url: format!("https://{host}/{}/{n}", event.id),
                    kind: "flash".to_owned(),
                    lang,
                    content: format!("<p>{}</p>", html_escape::encode_text(&summary)),
                    title,
                    summary,
                    source_name: source,
                    published_at: Timestamp::Unix(at),
                    tags: Vec::new(),
                    tokens: event.tokens.clone(),
                    topics: Vec::new(),
                    channel: None,
                    author: None,
                    images: Vec::new(),
                    important: false,
                    translations: BTreeMap::new(),
                },
            ));
        }
    }
    items.sort_by_key(|(at, _)| *at);
    Ok(items.into_iter().map(|(_, item)| item).collect())
}

/// Writes the catalogue and `items` generated feed items, in batches.
pub async fn generate(ctx: &Ctx, linking: &Linking, items: usize) -> AppResult<usize> {
    let set = demo_set()?;
    let now = ctx.now();
    upsert_catalogue(ctx, &catalogue(&set, now)?).await?;
    let mut created = 0;
    // Oldest first, so ids grow with publication time as they do for content that arrives live
    // (search orders equal matches by id, newest first).
    let mut end = items;
    while end > 0 {
        let start = end.saturating_sub(500);
        let batch = (start..end).rev().map(|i| feed(&set, i, now)).collect();
        created += upsert_feeds(ctx, linking, batch).await?;
        end = start;
    }
    super::search::optimize(&ctx.db).await?;
    Ok(created)
}

/// Loads the demo set when the database holds no feed yet.
pub async fn load_if_empty(ctx: &Ctx, linking: &Linking) -> AppResult<bool> {
    if feed_item::Entity::find().count(&ctx.db).await? > 0 {
        return Ok(false);
    }
    generate(ctx, linking, DEMO_ITEMS).await?;
    upsert_feeds(ctx, linking, reported_events(ctx.now())?).await?;
    let now = ctx.now();
    let set = demo_set()?;
    for mut fields in set.exchanges {
        let secret: [u8; 32] = rand::random();
        fields.insert("secret".to_owned(), hex::encode(secret).into());
        let input = serde_json::from_value(fields.into()).map_err(AppError::internal)?;
        markets::exchanges::upsert(ctx, &input).await?;
    }
    for demo in set.presales {
        let starts_at = now + demo.starts_in_hours * 3_600;
        let mut fields = demo.presale;
        fields.insert("starts_at".to_owned(), starts_at.into());
        fields.insert(
            "ends_at".to_owned(),
            (starts_at + demo.days * 86_400).into(),
        );
        let input = serde_json::from_value(fields.into()).map_err(AppError::internal)?;
        markets::presales::upsert(ctx, &input).await?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn large_numbers_in_units_of_ten_thousand() {
        assert_eq!(super::myriads(77_000_000, "zh-Hans"), "7,700万");
        assert_eq!(super::myriads(17_000, "zh-Hant"), "1.7萬");
        assert_eq!(super::myriads(3_000, "ko"), "3천");
        assert_eq!(super::myriads(99_000_000, "ko"), "9,900만");
    }
}
