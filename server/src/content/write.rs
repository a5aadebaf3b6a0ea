//! Writing content: one upsert per kind of row, used alike by the admin API, RSS ingestion and
//! the demo set. Text from outside is cleaned here, once: HTML content through ammonia's allow
//! list, titles and summaries to plain text.

use std::collections::{BTreeMap, HashMap};
use validator::Validate;

use client_core::link::is_absolute_http_url;
use client_core::locale::LOCALES;
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, TransactionTrait,
};
use serde::{Deserialize, Serialize};

use super::search;
use crate::entity::{
    benefit, channel, feed_item, feed_link, feed_translation, kol, tag, token, topic,
};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use crate::validation;
use client_core::validation::feed_kind;

const TITLE_MAX_CHARS: usize = 300;
const SUMMARY_MAX_CHARS: usize = 2_000;
const CONTENT_MAX_BYTES: usize = 512 * 1024;
const URL_MAX_BYTES: usize = 1024;
const LINKS_MAX: usize = 20;

/// A time given as Unix seconds or as an RFC 3339 string.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Timestamp {
    Unix(i64),
    Text(String),
}

impl Timestamp {
    fn seconds(&self) -> AppResult<i64> {
        match self {
            Self::Unix(s) if *s >= 0 => Ok(*s),
            Self::Text(t) => chrono::DateTime::parse_from_rfc3339(t)
                .map(|d| d.timestamp())
                .map_err(|_| {
                    AppError::invalid("published_at must be Unix seconds or an RFC 3339 time")
                }),
            Self::Unix(_) => Err(AppError::invalid("published_at must not be negative")),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct TranslationInput {
    pub title: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub content: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AuthorInput {
    pub handle: String,
    pub name: String,
}

/// A feed item as editors and importers send it; `source_url` is its identity.
#[derive(Debug, Clone, Deserialize, Serialize, Validate)]
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

/// HTML an editor may use; scripts, event handlers, styles and `javascript:` links are removed.
pub fn clean_html(html: &str) -> String {
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer nofollow"))
        .clean(html)
        .to_string()
}

/// Plain text: tags removed, entities decoded, whitespace collapsed.
pub fn plain_text(text: &str) -> String {
    let stripped = ammonia::Builder::empty().clean(text).to_string();
    let decoded = html_escape::decode_html_entities(&stripped);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn checked_text(field: &str, text: &str, max_chars: usize, required: bool) -> AppResult<String> {
    let text = plain_text(text);
    if required && text.is_empty() {
        return Err(AppError::invalid(format!("{field} must not be empty")));
    }
    if text.chars().count() > max_chars {
        return Err(AppError::invalid(format!(
            "{field} is longer than {max_chars} characters"
        )));
    }
    Ok(text)
}

fn checked_content(text: &str) -> AppResult<String> {
    if text.len() > CONTENT_MAX_BYTES {
        return Err(AppError::invalid("content is larger than 512 KB"));
    }
    Ok(clean_html(text))
}

fn checked_url(field: &str, url: &str) -> AppResult<String> {
    let url = url.trim();
    if url.len() > URL_MAX_BYTES || !is_absolute_http_url(url) {
        return Err(AppError::invalid(format!("{field} must be an http(s) URL")));
    }
    Ok(url.to_owned())
}

fn checked_code(field: &str, code: &str) -> AppResult<String> {
    let code = code.trim();
    let ok = !code.is_empty()
        && code.len() <= 64
        && code
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !ok {
        return Err(AppError::invalid(format!(
            "{field} must be 1–64 letters, digits, _ - ."
        )));
    }
    Ok(code.to_owned())
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

/// Inserts or updates a feed item by its `source_url`; returns its id and whether it was new.
pub async fn upsert_feed(state: &AppState, input: FeedInput) -> AppResult<(i64, bool)> {
    let feed = clean_feed(input)?;
    let now = state.now();
    let txn = state.db.begin().await?;
    let result = store_feed(&txn, feed, now).await?;
    txn.commit().await?;
    state.content_changed();
    Ok(result)
}

/// Stores many items in one transaction (ingestion, the demo set); returns how many were new.
pub async fn upsert_feeds(state: &AppState, inputs: Vec<FeedInput>) -> AppResult<usize> {
    let now = state.now();
    let txn = state.db.begin().await?;
    let mut created = 0;
    for input in inputs {
        if store_feed(&txn, clean_feed(input)?, now).await?.1 {
            created += 1;
        }
    }
    txn.commit().await?;
    state.content_changed();
    Ok(created)
}

async fn store_feed(
    db: &impl ConnectionTrait,
    feed: CleanFeed,
    now: i64,
) -> AppResult<(i64, bool)> {
    let CleanFeed {
        input,
        published_at,
        translations,
    } = feed;
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
    let images = serde_json::to_string(&input.images).map_err(AppError::internal)?;
    let existing = feed_item::Entity::find()
        .filter(feed_item::Column::SourceUrl.eq(input.source_url.as_str()))
        .one(db)
        .await?;
    let mut row = feed_item::ActiveModel {
        source_url: Set(input.source_url.clone()),
        kind: Set(input.kind.clone()),
        lang: Set(input.lang.clone()),
        title: Set(input.title.clone()),
        summary: Set(input.summary.clone()),
        content: Set(input.content.clone()),
        source_name: Set(input.source_name.clone()),
        kol_id: Set(kol_id),
        channel_id: Set(channel_id),
        images: Set(images),
        important: Set(input.important),
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
        feed_link::Entity::delete_many()
            .filter(feed_link::Column::FeedId.eq(id))
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
    links.sort_unstable();
    links.dedup();
    if !links.is_empty() {
        let rows = links.iter().map(|(kind, target)| feed_link::ActiveModel {
            feed_id: Set(id),
            kind: Set((*kind).to_owned()),
            target_id: Set(*target),
            published_at: Set(published_at),
            ..Default::default()
        });
        feed_link::Entity::insert_many(rows).exec(db).await?;
    }
    let doc = search::Document::feed(
        id,
        &input.title,
        &input.summary,
        translations
            .iter()
            .map(|(locale, t)| (locale.as_str(), t.title.as_str(), t.summary.as_str())),
    );
    search::index(db, &doc).await?;
    Ok((id, created))
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

async fn token_id(db: &impl ConnectionTrait, symbol: &str) -> AppResult<i64> {
    if let Some(found) = token::Entity::find()
        .filter(token::Column::Symbol.eq(symbol))
        .one(db)
        .await?
    {
        return Ok(found.id);
    }
    let input = TokenInput {
        symbol: symbol.to_owned(),
        name: symbol.to_owned(),
        chain: String::new(),
        logo: String::new(),
    };
    upsert_token(db, &input).await
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

/// Text keyed by locale, checked and stored as one JSON object.
fn locale_map(field: &str, map: &HashMap<String, String>, required: bool) -> AppResult<String> {
    if required && !map.contains_key("en") {
        return Err(AppError::invalid(format!("{field} needs an en entry")));
    }
    let mut clean = BTreeMap::new();
    for (locale, text) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(AppError::invalid(format!(
                "{field} is keyed by {}",
                LOCALES.join(", ")
            )));
        }
        clean.insert(
            locale.clone(),
            checked_text(field, text, SUMMARY_MAX_CHARS, required)?,
        );
    }
    serde_json::to_string(&clean).map_err(AppError::internal)
}

/// The catalogue as editors maintain it: `POST /admin/catalogue/upsert` and the demo set.
#[derive(Debug, Default, Deserialize, Serialize, Validate)]
#[serde(default)]
pub struct CatalogueInput {
    pub tokens: Vec<TokenInput>,
    pub channels: Vec<ChannelInput>,
    pub tags: Vec<TagInput>,
    pub kols: Vec<KolInput>,
    pub topics: Vec<TopicInput>,
    pub benefits: Vec<BenefitInput>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TokenInput {
    pub symbol: String,
    pub name: String,
    #[serde(default)]
    pub chain: String,
    #[serde(default)]
    pub logo: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ChannelInput {
    pub code: String,
    pub names: HashMap<String, String>,
    #[serde(default)]
    pub sort: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TagInput {
    pub code: String,
    pub names: HashMap<String, String>,
    #[serde(default)]
    pub descriptions: HashMap<String, String>,
    #[serde(default)]
    pub logo: String,
    /// The symbol of the token this tag stands for.
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub sort: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct KolInput {
    pub handle: String,
    pub name: String,
    #[serde(default)]
    pub avatar: String,
    #[serde(default)]
    pub bios: HashMap<String, String>,
    #[serde(default)]
    pub follower_count: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct TopicInput {
    pub code: String,
    pub titles: HashMap<String, String>,
    #[serde(default)]
    pub descriptions: HashMap<String, String>,
    #[serde(default)]
    pub cover: String,
    #[serde(default)]
    pub heat: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct BenefitText {
    pub title: String,
    #[serde(default)]
    pub steps: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct BenefitInput {
    /// Where the campaign is joined; the benefit's identity.
    pub link: String,
    pub project: String,
    #[serde(default)]
    pub logo: String,
    pub reward: String,
    pub deadline: Timestamp,
    pub published_at: Timestamp,
    /// Keyed by locale; `en` is required.
    pub texts: HashMap<String, BenefitText>,
}

/// Inserts or updates every row of the catalogue in one transaction.
pub async fn upsert_catalogue(state: &AppState, input: &CatalogueInput) -> AppResult<()> {
    let txn = state.db.begin().await?;
    for t in &input.tokens {
        upsert_token(&txn, t).await?;
    }
    for c in &input.channels {
        let code = checked_code("channel code", &c.code)?;
        let names = locale_map("channel names", &c.names, true)?;
        let row = channel::ActiveModel {
            code: Set(code),
            names: Set(names),
            sort: Set(c.sort),
            ..Default::default()
        };
        channel::Entity::insert(row)
            .on_conflict(
                OnConflict::column(channel::Column::Code)
                    .update_columns([channel::Column::Names, channel::Column::Sort])
                    .to_owned(),
            )
            .exec(&txn)
            .await?;
    }
    for t in &input.tags {
        let code = checked_code("tag code", &t.code)?.to_lowercase();
        let names = locale_map("tag names", &t.names, true)?;
        let descriptions = locale_map("tag descriptions", &t.descriptions, false)?;
        let token = match &t.token {
            Some(symbol) => Some(token_id(&txn, &symbol.to_uppercase()).await?),
            None => None,
        };
        upsert_tag_row(&txn, &code, &names, &descriptions, &t.logo, token, t.sort).await?;
    }
    for k in &input.kols {
        upsert_kol(&txn, k).await?;
    }
    for t in &input.topics {
        let row = topic::ActiveModel {
            code: Set(checked_code("topic code", &t.code)?.to_lowercase()),
            titles: Set(locale_map("topic titles", &t.titles, true)?),
            descriptions: Set(locale_map("topic descriptions", &t.descriptions, false)?),
            cover: Set(t.cover.clone()),
            heat: Set(t.heat),
            ..Default::default()
        };
        topic::Entity::insert(row)
            .on_conflict(
                OnConflict::column(topic::Column::Code)
                    .update_columns([
                        topic::Column::Titles,
                        topic::Column::Descriptions,
                        topic::Column::Cover,
                        topic::Column::Heat,
                    ])
                    .to_owned(),
            )
            .exec(&txn)
            .await?;
    }
    for b in &input.benefits {
        upsert_benefit(&txn, b).await?;
    }
    txn.commit().await?;
    state.content_changed();
    Ok(())
}

async fn upsert_tag_row(
    db: &impl ConnectionTrait,
    code: &str,
    names: &str,
    descriptions: &str,
    logo: &str,
    token_id: Option<i64>,
    sort: i64,
) -> AppResult<i64> {
    let row = tag::ActiveModel {
        code: Set(code.to_owned()),
        names: Set(names.to_owned()),
        descriptions: Set(descriptions.to_owned()),
        logo: Set(logo.to_owned()),
        token_id: Set(token_id),
        follower_count: Set(0),
        sort: Set(sort),
        ..Default::default()
    };
    tag::Entity::insert(row)
        .on_conflict(
            OnConflict::column(tag::Column::Code)
                .update_columns([
                    tag::Column::Names,
                    tag::Column::Descriptions,
                    tag::Column::Logo,
                    tag::Column::TokenId,
                    tag::Column::Sort,
                ])
                .to_owned(),
        )
        .exec(db)
        .await?;
    let found = tag::Entity::find()
        .filter(tag::Column::Code.eq(code))
        .one(db)
        .await?
        .ok_or_else(|| AppError::internal("tag vanished after upsert"))?;
    search::index(db, &search::Document::tag(&found)).await?;
    Ok(found.id)
}

async fn upsert_token(db: &impl ConnectionTrait, t: &TokenInput) -> AppResult<i64> {
    let symbol = checked_code("token symbol", &t.symbol)?.to_uppercase();
    let row = token::ActiveModel {
        symbol: Set(symbol.clone()),
        name: Set(checked_text("token name", &t.name, 128, true)?),
        chain: Set(checked_text("token chain", &t.chain, 64, false)?),
        logo: Set(t.logo.clone()),
        ..Default::default()
    };
    token::Entity::insert(row)
        .on_conflict(
            OnConflict::column(token::Column::Symbol)
                .update_columns([
                    token::Column::Name,
                    token::Column::Chain,
                    token::Column::Logo,
                ])
                .to_owned(),
        )
        .exec(db)
        .await?;
    let found = token::Entity::find()
        .filter(token::Column::Symbol.eq(symbol.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| AppError::internal("token vanished after upsert"))?;
    search::index(db, &search::Document::token(&found)).await?;
    Ok(found.id)
}

async fn upsert_kol(db: &impl ConnectionTrait, k: &KolInput) -> AppResult<i64> {
    let handle = checked_code("KOL handle", &k.handle)?;
    let name = checked_text("KOL name", &k.name, 128, true)?;
    let row = kol::ActiveModel {
        handle: Set(handle.clone()),
        name: Set(name.clone()),
        avatar: Set(k.avatar.clone()),
        bios: Set(locale_map("KOL bios", &k.bios, false)?),
        follower_count: Set(k.follower_count.max(0)),
        ..Default::default()
    };
    kol::Entity::insert(row)
        .on_conflict(
            OnConflict::column(kol::Column::Handle)
                .update_columns([kol::Column::Name, kol::Column::Avatar, kol::Column::Bios])
                .to_owned(),
        )
        .exec(db)
        .await?;
    let found = kol::Entity::find()
        .filter(kol::Column::Handle.eq(handle.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| AppError::internal("KOL vanished after upsert"))?;
    search::index(db, &search::Document::kol(&found)).await?;
    Ok(found.id)
}

async fn upsert_benefit(db: &impl ConnectionTrait, b: &BenefitInput) -> AppResult<()> {
    if !b.texts.contains_key("en") {
        return Err(AppError::invalid("benefit texts need an en entry"));
    }
    let mut texts = BTreeMap::new();
    for (locale, text) in &b.texts {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(AppError::invalid(format!(
                "benefit texts are keyed by {}",
                LOCALES.join(", ")
            )));
        }
        let steps = text
            .steps
            .iter()
            .map(|s| checked_text("benefit step", s, 500, true))
            .collect::<AppResult<Vec<_>>>()?;
        let title = checked_text("benefit title", &text.title, TITLE_MAX_CHARS, true)?;
        texts.insert(locale.clone(), BenefitText { title, steps });
    }
    let row = benefit::ActiveModel {
        link: Set(checked_url("benefit link", &b.link)?),
        project: Set(checked_text("benefit project", &b.project, 128, true)?),
        logo: Set(b.logo.clone()),
        texts: Set(serde_json::to_string(&texts).map_err(AppError::internal)?),
        reward: Set(checked_text("benefit reward", &b.reward, 128, true)?),
        deadline: Set(b.deadline.seconds()?),
        published_at: Set(b.published_at.seconds()?),
        ..Default::default()
    };
    benefit::Entity::insert(row)
        .on_conflict(
            OnConflict::column(benefit::Column::Link)
                .update_columns([
                    benefit::Column::Project,
                    benefit::Column::Logo,
                    benefit::Column::Texts,
                    benefit::Column::Reward,
                    benefit::Column::Deadline,
                    benefit::Column::PublishedAt,
                ])
                .to_owned(),
        )
        .exec(db)
        .await?;
    Ok(())
}
