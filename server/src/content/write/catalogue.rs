//! The catalogue (tokens, channels, tags, KOLs, topics, benefits): upserted by code.

use std::collections::{BTreeMap, HashMap};
use validator::Validate;

use client_core::locale::LOCALES;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};

use crate::content::search;
use crate::ctx::Ctx;
use crate::entity::{benefit, channel, kol, tag, token, topic};
use crate::error::{AppError, AppResult};
use crate::events::Event;
use crate::linking;
use client_core::linking::Catalogue;
use sea_orm::sea_query::Expr;

use super::clean::*;

/// The catalogue as editors maintain it: `POST /admin/catalogue/upsert` and the demo set.
#[derive(schemars::JsonSchema, Debug, Default, Deserialize, Serialize, Validate)]
#[serde(default)]
pub struct CatalogueInput {
    pub tokens: Vec<TokenInput>,
    pub channels: Vec<ChannelInput>,
    pub tags: Vec<TagInput>,
    pub kols: Vec<KolInput>,
    pub topics: Vec<TopicInput>,
    pub benefits: Vec<BenefitInput>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
pub struct TokenInput {
    pub symbol: String,
    pub name: String,
    #[serde(default)]
    pub chain: String,
    #[serde(default)]
    pub logo: String,
    /// The token's id at the price provider (`bitcoin`): symbols collide, ids do not. Absent:
    /// kept as it is; empty: no price.
    #[serde(default)]
    pub price_id: Option<String>,
    /// Other names by locale, for the linker (`{"ko": ["비트코인"]}`); its symbol and name always
    /// count. Absent: kept as they are.
    #[serde(default)]
    pub aliases: Option<BTreeMap<String, Vec<String>>>,
    /// Its symbol is also a word (LINK, OP, NEAR): a bare symbol links only beside its name, a
    /// pair or a price. Absent: kept as it is.
    #[serde(default)]
    pub ambiguous: Option<bool>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
pub struct ChannelInput {
    pub code: String,
    pub names: HashMap<String, String>,
    #[serde(default)]
    pub sort: i64,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
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
    /// Words that say it, by locale, for the linker; its names always count. Absent: kept.
    #[serde(default)]
    pub keywords: Option<BTreeMap<String, Vec<String>>>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
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

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
pub struct TopicInput {
    pub code: String,
    pub titles: HashMap<String, String>,
    #[serde(default)]
    pub descriptions: HashMap<String, String>,
    #[serde(default)]
    pub cover: String,
    #[serde(default)]
    pub heat: i64,
    /// Words that say it, by locale, for the linker; its titles always count. Absent: kept.
    #[serde(default)]
    pub keywords: Option<BTreeMap<String, Vec<String>>>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Default, Deserialize, Serialize)]
pub struct BenefitText {
    pub title: String,
    #[serde(default)]
    pub steps: Vec<String>,
    /// The reward in this language (`500 USDC 獎池`); without one, the benefit's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward: Option<String>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize, Serialize)]
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

/// Inserts or updates every row of the catalogue in one transaction, and marks the recent items
/// to be linked again; gives the upserted tokens, tags and topics as the linker reads them.
pub async fn upsert_catalogue(ctx: &Ctx, input: &CatalogueInput) -> AppResult<Catalogue> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    let mut tokens = Vec::new();
    for t in &input.tokens {
        tokens.push(upsert_token(&txn, t).await?);
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
            .exec_without_returning(&txn)
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
        let id = upsert_tag_row(&txn, &code, &names, &descriptions, &t.logo, token, t.sort).await?;
        if let Some(keywords) = &t.keywords {
            tag::Entity::update_many()
                .col_expr(
                    tag::Column::Keywords,
                    Expr::value(words_map("tag keywords", keywords)?),
                )
                .filter(tag::Column::Id.eq(id))
                .exec(&txn)
                .await?;
        }
    }
    for k in &input.kols {
        upsert_kol(&txn, k).await?;
    }
    for t in &input.topics {
        let mut updated = vec![
            topic::Column::Titles,
            topic::Column::Descriptions,
            topic::Column::Cover,
            topic::Column::Heat,
        ];
        let mut row = topic::ActiveModel {
            code: Set(checked_code("topic code", &t.code)?.to_lowercase()),
            titles: Set(locale_map("topic titles", &t.titles, true)?),
            descriptions: Set(locale_map("topic descriptions", &t.descriptions, false)?),
            cover: Set(t.cover.clone()),
            heat: Set(t.heat),
            ..Default::default()
        };
        if let Some(keywords) = &t.keywords {
            row.keywords = Set(words_map("topic keywords", keywords)?);
            updated.push(topic::Column::Keywords);
        }
        topic::Entity::insert(row)
            .on_conflict(
                OnConflict::column(topic::Column::Code)
                    .update_columns(updated)
                    .to_owned(),
            )
            .exec_without_returning(&txn)
            .await?;
    }
    for b in &input.benefits {
        upsert_benefit(&txn, b).await?;
    }
    linking::mark_relink_due(&txn).await?;
    let mut upserted = linking::catalogue(&txn).await?;
    let code = |code: &String| code.trim().to_lowercase();
    let tag_codes: Vec<String> = input.tags.iter().map(|t| code(&t.code)).collect();
    let topic_codes: Vec<String> = input.topics.iter().map(|t| code(&t.code)).collect();
    upserted.tokens.retain(|t| tokens.contains(&t.id));
    upserted.tags.retain(|t| tag_codes.contains(&t.code));
    upserted.topics.retain(|t| topic_codes.contains(&t.code));
    upserted.kols.clear();
    txn.commit().await?;
    ctx.events.publish(&Event::CatalogueChanged);
    ctx.events.publish(&Event::ContentChanged);
    Ok(upserted)
}

pub(super) async fn upsert_tag_row(
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
        .exec_without_returning(db)
        .await?;
    let found = tag::Entity::find()
        .filter(tag::Column::Code.eq(code))
        .one(db)
        .await?
        .ok_or_else(|| AppError::internal("tag vanished after upsert"))?;
    search::index(db, &search::Document::tag(&found)).await?;
    Ok(found.id)
}

pub(super) async fn upsert_token(db: &impl ConnectionTrait, t: &TokenInput) -> AppResult<i64> {
    let symbol = checked_code("token symbol", &t.symbol)?.to_uppercase();
    let mut row = token::ActiveModel {
        symbol: Set(symbol.clone()),
        name: Set(checked_text("token name", &t.name, 128, true)?),
        chain: Set(checked_text("token chain", &t.chain, 64, false)?),
        logo: Set(t.logo.clone()),
        ..Default::default()
    };
    let mut updated = vec![
        token::Column::Name,
        token::Column::Chain,
        token::Column::Logo,
    ];
    if let Some(price_id) = &t.price_id {
        row.price_id = Set(checked_price_id(price_id)?);
        updated.push(token::Column::PriceId);
    }
    if let Some(aliases) = &t.aliases {
        row.aliases = Set(words_map("token aliases", aliases)?);
        updated.push(token::Column::Aliases);
    }
    if let Some(ambiguous) = t.ambiguous {
        row.ambiguous = Set(ambiguous);
        updated.push(token::Column::Ambiguous);
    }
    token::Entity::insert(row)
        .on_conflict(
            OnConflict::column(token::Column::Symbol)
                .update_columns(updated)
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    let found = token::Entity::find()
        .filter(token::Column::Symbol.eq(symbol.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| AppError::internal("token vanished after upsert"))?;
    search::index(db, &search::Document::token(&found)).await?;
    Ok(found.id)
}

/// A provider's coin id as CoinGecko spells them: lowercase letters, digits, `-`, `_`, `.`.
fn checked_price_id(id: &str) -> AppResult<String> {
    let id = id.trim();
    let fine = id.len() <= 100
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b));
    if fine {
        Ok(id.to_owned())
    } else {
        Err(AppError::invalid(format!(
            "price_id \"{id}\" is not a provider id (lowercase letters, digits, - _ . and at most 100)"
        )))
    }
}

pub(super) async fn upsert_kol(db: &impl ConnectionTrait, k: &KolInput) -> AppResult<i64> {
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
        .exec_without_returning(db)
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
        let reward = text
            .reward
            .as_deref()
            .map(|r| checked_text("benefit reward", r, 128, true))
            .transpose()?;
        texts.insert(
            locale.clone(),
            BenefitText {
                title,
                steps,
                reward,
            },
        );
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
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// The token with `symbol`, added with only its symbol when the catalogue lacks it.
pub(super) async fn token_id(db: &impl ConnectionTrait, symbol: &str) -> AppResult<i64> {
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
        price_id: None,
        aliases: None,
        ambiguous: None,
    };
    upsert_token(db, &input).await
}
