//! Feed items: checked, cleaned and stored with their links and translations in one transaction.

use std::collections::{BTreeMap, HashMap};
use validator::Validate;

use client_core::locale::LOCALES;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, NotSet, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::LinkingSettings;
use crate::content::{search, stories};
use crate::ctx::Ctx;
use crate::entity::{channel, feed_item, feed_link, feed_translation, kol, tag, topic};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use crate::linking::{Compiled, Linking};
use crate::outbox::fanout;
use crate::validation;
use client_core::linking::Document;
use client_core::validation::feed_kind;

use super::catalogue::{KolInput, token_id, upsert_kol, upsert_tag_row};
use super::clean::*;

#[derive(schemars::JsonSchema, Debug, Clone, Default, Deserialize, Serialize)]
pub struct TranslationInput {
    pub title: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub content: String,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
pub struct AuthorInput {
    pub handle: String,
    pub name: String,
}

/// A feed item as editors and importers send it; `source_url` is its identity.
#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize, Validate)]
pub struct FeedInput {
    pub source_url: String,
    #[validate(custom(function = "feed_kind"))]
    pub kind: String,
    pub lang: String,
    pub title: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub source_name: String,
    pub published_at: Timestamp,
    /// Tag codes; unknown codes become new tags named by their code.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Token symbols; unknown symbols become new tokens.
    #[serde(default)]
    pub tokens: Vec<String>,
    /// Topic codes; each must exist.
    #[serde(default)]
    pub topics: Vec<String>,
    /// A channel code; it must exist.
    #[serde(default)]
    pub channel: Option<String>,
    #[serde(default)]
    pub author: Option<AuthorInput>,
    #[serde(default)]
    pub images: Vec<String>,
    #[serde(default)]
    pub important: bool,
    /// Keyed by locale (`en`, `zh-Hans`, `zh-Hant`, `vi`, `ko`).
    #[serde(default)]
    pub translations: BTreeMap<String, TranslationInput>,
}

/// A feed item, cleaned and checked, ready to store.
struct CleanFeed {
    input: FeedInput,
    published_at: i64,
    translations: Vec<(String, TranslationInput)>,
}

fn clean_feed(input: FeedInput) -> AppResult<CleanFeed> {
    // Importers reach here without `ApiJson`, so the declared rules run here too.
    input.validate().map_err(|e| validation::rejection(&e))?;
    let mut input = input;
    input.source_url = checked_url("source_url", &input.source_url)?;
    let lang = input.lang.trim();
    let well_formed = !lang.is_empty()
        && lang.len() <= 16
        && lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !well_formed {
        return Err(AppError::invalid(
            "lang must be a language tag such as en or zh-Hant",
        ));
    }
    input.lang = client_core::locale::normalize_locale(lang).to_owned();
    input.title = checked_text("title", &input.title, TITLE_MAX_CHARS, true)?;
    input.summary = checked_text("summary", &input.summary, SUMMARY_MAX_CHARS, false)?;
    input.content = checked_content(&input.content)?;
    input.source_name = checked_text("source_name", &input.source_name, 128, false)?;
    if input.tags.len() + input.tokens.len() + input.topics.len() > LINKS_MAX {
        return Err(AppError::invalid(format!(
            "at most {LINKS_MAX} tags, tokens and topics"
        )));
    }
    for code in input.tags.iter_mut().chain(input.topics.iter_mut()) {
        *code = checked_code("tag and topic codes", code)?.to_lowercase();
    }
    for symbol in &mut input.tokens {
        *symbol = checked_code("token symbols", symbol)?.to_uppercase();
    }
    if input.images.len() > 10 {
        return Err(AppError::invalid("at most 10 images"));
    }
    for image in &mut input.images {
        *image = checked_url("images", image)?;
    }
    let published_at = input.published_at.seconds()?;
    let mut translations = Vec::new();
    for (locale, t) in std::mem::take(&mut input.translations) {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(AppError::invalid(format!(
                "translations are keyed by {}",
                LOCALES.join(", ")
            )));
        }
        let clean = TranslationInput {
            title: checked_text("translated title", &t.title, TITLE_MAX_CHARS, true)?,
            summary: checked_text("translated summary", &t.summary, SUMMARY_MAX_CHARS, false)?,
            content: checked_content(&t.content)?,
        };
        if locale != input.lang {
            translations.push((locale, clean));
        }
    }
    Ok(CleanFeed {
        input,
        published_at,
        translations,
    })
}

/// How far ahead of the server's clock a `published_at` may be.
pub const PUBLISHED_AT_SKEW_SECONDS: i64 = 5 * 60;

/// Inserts or updates an editor's feed item by its `source_url`; returns its id and whether it
/// was new. An item an RSS source brought becomes the editor's: the source no longer updates it.
pub async fn upsert_feed(ctx: &Ctx, linking: &Linking, input: FeedInput) -> AppResult<(i64, bool)> {
    store_one(ctx, linking, input, None).await
}

/// Inserts or updates the entry `guid` of the RSS or Atom source `source`; returns whether it was
/// new. Its identity is the source and the guid, so a source can update only its own entries:
/// one whose link is already another item's (an editor's, another source's) is refused.
pub async fn upsert_from_source(
    ctx: &Ctx,
    linking: &Linking,
    source: &str,
    guid: &str,
    input: FeedInput,
) -> AppResult<bool> {
    let origin = hex::encode(Sha256::digest(format!("{source}\n{guid}")));
    Ok(store_one(ctx, linking, input, Some(origin)).await?.1)
}

async fn store_one(
    ctx: &Ctx,
    linking: &Linking,
    input: FeedInput,
    origin: Option<String>,
) -> AppResult<(i64, bool)> {
    let feed = clean_feed(input)?;
    let compiled = linking.compiled(&ctx.db).await?;
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let stored = store_feed(&txn, &linking.settings, &compiled, feed, origin, now).await?;
    txn.commit().await?;
    ctx.events.publish(&Event::ContentChanged);
    ctx.events.publish(&Event::DeliveriesQueued);
    stored.publish_live(ctx);
    Ok((stored.id, stored.created))
}

/// Stores many editors' items in one transaction (the demo set); returns how many were new.
pub async fn upsert_feeds(
    ctx: &Ctx,
    linking: &Linking,
    inputs: Vec<FeedInput>,
) -> AppResult<usize> {
    let compiled = linking.compiled(&ctx.db).await?;
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let mut stored = Vec::new();
    for input in inputs {
        let feed = clean_feed(input)?;
        stored.push(store_feed(&txn, &linking.settings, &compiled, feed, None, now).await?);
    }
    txn.commit().await?;
    ctx.events.publish(&Event::ContentChanged);
    ctx.events.publish(&Event::DeliveriesQueued);
    for one in &stored {
        one.publish_live(ctx);
    }
    Ok(stored.iter().filter(|s| s.created).count())
}

/// What storing an item did.
struct Stored {
    id: i64,
    created: bool,
    /// New, or newly important: live streams show it.
    news: bool,
    /// The item of its story that storing it made breaking news.
    breaking: Option<i64>,
}

impl Stored {
    fn publish_live(&self, ctx: &Ctx) {
        if self.news {
            ctx.events.publish(&Event::Live(Live::Item(self.id)));
        }
        if let Some(first) = self.breaking.filter(|first| *first != self.id) {
            ctx.events.publish(&Event::Live(Live::Item(first)));
        }
    }
}

/// `origin`: the digest of an RSS entry's source and guid, or `None` for an editor's item.
async fn store_feed(
    db: &impl ConnectionTrait,
    settings: &LinkingSettings,
    compiled: &Compiled,
    feed: CleanFeed,
    origin: Option<String>,
    now: i64,
) -> AppResult<Stored> {
    let CleanFeed {
        input,
        published_at,
        translations,
    } = feed;
    // A time in the future (beyond a few minutes of clock skew) would pin the item to the top of
    // every feed: it is taken as now.
    let published_at = published_at.min(now + PUBLISHED_AT_SKEW_SECONDS);
    let channel_id = match &input.channel {
        None => None,
        Some(code) => Some(
            channel::Entity::find()
                .filter(channel::Column::Code.eq(code.as_str()))
                .one(db)
                .await?
                .ok_or_else(|| AppError::invalid(format!("unknown channel {code}")))?
                .id,
        ),
    };
    let kol_id = match &input.author {
        None => None,
        Some(author) => Some(kol_id(db, author).await?),
    };
    let mut links = Vec::new();
    for code in &input.tags {
        links.push(("tag", tag_id(db, code).await?));
    }
    for symbol in &input.tokens {
        links.push(("token", token_id(db, symbol).await?));
    }
    for code in &input.topics {
        let topic = topic::Entity::find()
            .filter(topic::Column::Code.eq(code.as_str()))
            .one(db)
            .await?
            .ok_or_else(|| AppError::invalid(format!("unknown topic {code}")))?;
        links.push(("topic", topic.id));
    }
    let found = compiled.link(&Document {
        lang: &input.lang,
        title: &input.title,
        summary: &input.summary,
        body: &plain_text(&input.content),
    });
    let inferred = inferred_links(compiled, &found, &links, origin.is_none());
    // Stories compare the tokens an item names, given or found.
    let mut tokens = input.tokens.clone();
    tokens.extend(
        inferred
            .iter()
            .filter(|(kind, _)| *kind == "token")
            .filter_map(|(_, id)| compiled.symbol(*id).map(str::to_owned)),
    );
    let images = serde_json::to_string(&input.images).map_err(AppError::internal)?;
    let by_link = feed_item::Entity::find()
        .filter(feed_item::Column::SourceUrl.eq(input.source_url.as_str()))
        .one(db)
        .await?;
    if by_link.as_ref().is_some_and(|b| b.user_id.is_some()) {
        return Err(AppError::invalid(format!(
            "{} is a reader's post",
            input.source_url
        )));
    }
    let existing = match &origin {
        None => by_link,
        Some(key) => {
            let own = feed_item::Entity::find()
                .filter(feed_item::Column::Origin.eq(key.as_str()))
                .one(db)
                .await?;
            if by_link
                .as_ref()
                .is_some_and(|b| Some(b.id) != own.as_ref().map(|o| o.id))
            {
                return Err(AppError::invalid(format!(
                    "{} is already another item's link",
                    input.source_url
                )));
            }
            own
        }
    };
    let broke = existing
        .as_ref()
        .is_some_and(|e| e.important_reason.is_some());
    let from_source = origin.is_some();
    let mut row = feed_item::ActiveModel {
        source_url: Set(input.source_url.clone()),
        origin: Set(origin),
        kind: Set(input.kind.clone()),
        lang: Set(input.lang.clone()),
        title: Set(input.title.clone()),
        summary: Set(input.summary.clone()),
        content: Set(input.content.clone()),
        source_name: Set(input.source_name.clone()),
        kol_id: Set(kol_id),
        channel_id: Set(channel_id),
        images: Set(images),
        // A source fetched again does not take back what breaking news marked; an editor decides.
        important: Set(input.important || (from_source && broke)),
        important_reason: if from_source { NotSet } else { Set(None) },
        published_at: Set(published_at),
        updated_at: Set(now),
        ..Default::default()
    };
    let (id, created) = match &existing {
        Some(found) => {
            row.id = Set(found.id);
            row.update(db).await?;
            (found.id, false)
        }
        None => {
            row.views = Set(0);
            row.likes = Set(0);
            row.comments = Set(0);
            (row.insert(db).await?.id, true)
        }
    };
    if !created {
        feed_translation::Entity::delete_many()
            .filter(feed_translation::Column::FeedId.eq(id))
            .exec(db)
            .await?;
    }
    if !translations.is_empty() {
        let rows = translations
            .iter()
            .map(|(locale, t)| feed_translation::ActiveModel {
                feed_id: Set(id),
                locale: Set(locale.clone()),
                title: Set(t.title.clone()),
                summary: Set(t.summary.clone()),
                content: Set(t.content.clone()),
                ..Default::default()
            });
        feed_translation::Entity::insert_many(rows).exec(db).await?;
    }
    replace_links(db, id, links, inferred, published_at).await?;
    let text = |title, summary, content| search::FeedText {
        title,
        summary,
        content,
    };
    let doc = search::Document::feed(
        id,
        &input.lang,
        text(&input.title, &input.summary, &input.content),
        translations
            .iter()
            .map(|(locale, t)| (locale.as_str(), text(&t.title, &t.summary, &t.content))),
    );
    search::index(db, &doc).await?;
    let mut breaking = None;
    if created {
        // Grouped by the original and, when it came with one, the English text: the pivot
        // most reports of another language can be compared in.
        let mut texts = vec![stories::print::Text {
            lang: &input.lang,
            title: &input.title,
            summary: &input.summary,
        }];
        if let Some((lang, t)) = translations.iter().find(|(locale, _)| locale == "en") {
            texts.push(stories::print::Text {
                lang,
                title: &t.title,
                summary: &t.summary,
            });
        }
        let item = stories::NewItem {
            id,
            published_at,
            texts,
            tokens: &tokens,
        };
        stories::assign(db, &item, now).await?;
        breaking = stories::breaking::mark_if_breaking(db, id, settings, now).await?;
        let item = fanout::NewItem {
            id,
            kind: &input.kind,
            important: input.important,
            channel_id,
            kol_id,
            published_at,
        };
        fanout::queue(db, &item, now).await?;
    }
    let became_important = input.important && existing.is_some_and(|e| !e.important);
    Ok(Stored {
        id,
        created,
        news: created || became_important,
        breaking,
    })
}

/// Makes `links` (kind and target: `tag`, `token`, `topic`), given by an editor, the source or
/// the writer, and `inferred`, found by the linker (`inferred_links`, none of them given), the
/// item's links, replacing any it had.
pub(crate) async fn replace_links(
    db: &impl ConnectionTrait,
    id: i64,
    links: Vec<(&'static str, i64)>,
    inferred: Vec<(&'static str, i64)>,
    published_at: i64,
) -> AppResult<()> {
    feed_link::Entity::delete_many()
        .filter(feed_link::Column::FeedId.eq(id))
        .exec(db)
        .await?;
    insert_links(db, id, &links, false, published_at).await?;
    insert_links(db, id, &inferred, true, published_at).await
}

/// Adds `links` to item `id`, each once.
pub(crate) async fn insert_links(
    db: &impl ConnectionTrait,
    id: i64,
    links: &[(&'static str, i64)],
    inferred: bool,
    published_at: i64,
) -> AppResult<()> {
    let mut links = links.to_vec();
    links.sort_unstable();
    links.dedup();
    if !links.is_empty() {
        let rows = links.iter().map(|(kind, target)| feed_link::ActiveModel {
            feed_id: Set(id),
            kind: Set((*kind).to_owned()),
            target_id: Set(*target),
            published_at: Set(published_at),
            inferred: Set(inferred),
            ..Default::default()
        });
        feed_link::Entity::insert_many(rows).exec(db).await?;
    }
    Ok(())
}

/// What the linker finds in an item, as links, less the kinds an editor chose themselves: an
/// editor's explicit tokens (or tags, or topics) are the item's, and so are the tags standing
/// for tokens they chose; a source's links are kept and added to.
pub(crate) fn inferred_links(
    compiled: &Compiled,
    found: &client_core::linking::Links,
    given: &[(&'static str, i64)],
    by_editor: bool,
) -> Vec<(&'static str, i64)> {
    let chosen = |kind: &str| by_editor && given.iter().any(|(k, _)| *k == kind);
    let mut links = Vec::new();
    for (kind, ids) in [
        ("token", &found.tokens),
        ("tag", &found.tags),
        ("topic", &found.topics),
    ] {
        if !chosen(kind) {
            links.extend(ids.iter().map(|id| (kind, *id)));
        }
    }
    if chosen("token") {
        links.retain(|(kind, id)| {
            *kind != "tag"
                || compiled
                    .token_of_tag(*id)
                    .is_none_or(|token| given.contains(&("token", token)))
        });
    }
    // A link both given and found is a given one.
    links.retain(|link| !given.contains(link));
    links
}

async fn tag_id(db: &impl ConnectionTrait, code: &str) -> AppResult<i64> {
    if let Some(found) = tag::Entity::find()
        .filter(tag::Column::Code.eq(code))
        .one(db)
        .await?
    {
        return Ok(found.id);
    }
    let names = serde_json::json!({ "en": code }).to_string();
    upsert_tag_row(db, code, &names, "{}", "", None, 1000).await
}

async fn kol_id(db: &impl ConnectionTrait, author: &AuthorInput) -> AppResult<i64> {
    let handle = checked_code("author.handle", &author.handle)?;
    if let Some(found) = kol::Entity::find()
        .filter(kol::Column::Handle.eq(handle.as_str()))
        .one(db)
        .await?
    {
        return Ok(found.id);
    }
    let input = KolInput {
        handle,
        name: author.name.clone(),
        avatar: String::new(),
        bios: HashMap::new(),
        follower_count: 0,
    };
    upsert_kol(db, &input).await
}
