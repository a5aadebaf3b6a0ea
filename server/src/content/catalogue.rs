//! Reading the catalogue: tags, tokens, channels, KOLs, topics, benefits, and the explore page.

use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::write::BenefitText;
use crate::ctx::Ctx;
use crate::entity::{benefit, channel, feed_link, kol, tag, token, topic};
use crate::error::{AppError, AppResult};
use crate::i18n::{localized, localized_lang};
use crate::markets::{self, quotes::MarketView};

fn not_found(what: &str) -> AppError {
    AppError::not_found(format!("No such {what}"))
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct TagView {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub description: String,
    pub logo: String,
    pub follower_count: i64,
    /// The token this tag stands for.
    pub token: Option<TokenView>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct TokenView {
    pub id: i64,
    pub symbol: String,
    pub name: String,
    pub chain: String,
    pub logo: String,
    pub follower_count: i64,
    /// Its market figures, on its own page (`/token/detail`) when it has a price.
    pub market: Option<MarketView>,
}

impl From<token::Model> for TokenView {
    fn from(t: token::Model) -> Self {
        Self {
            id: t.id,
            symbol: t.symbol,
            name: t.name,
            chain: t.chain,
            logo: t.logo,
            follower_count: t.follower_count,
            market: None,
        }
    }
}

async fn tag_views(ctx: &Ctx, tags: Vec<tag::Model>, locale: &str) -> AppResult<Vec<TagView>> {
    let token_ids: Vec<i64> = tags.iter().filter_map(|t| t.token_id).collect();
    let tokens = token::Entity::find()
        .filter(token::Column::Id.is_in(token_ids))
        .all(&ctx.db)
        .await?;
    Ok(tags
        .into_iter()
        .map(|t| TagView {
            token: t
                .token_id
                .and_then(|id| tokens.iter().find(|k| k.id == id))
                .cloned()
                .map(TokenView::from),
            id: t.id,
            name: localized(&t.names, locale),
            description: localized(&t.descriptions, locale),
            code: t.code,
            logo: t.logo,
            follower_count: t.follower_count,
        })
        .collect())
}

/// A tag by id or by code.
#[derive(schemars::JsonSchema, Debug, Deserialize)]
#[serde(untagged)]
pub enum TagKey {
    Id { id: i64 },
    Code { code: String },
}

/// No limits beyond its shape (the derive takes structs only).
impl Validate for TagKey {
    fn validate(&self) -> Result<(), validator::ValidationErrors> {
        Ok(())
    }
}

/// `ids` of the catalogue table `E` (by its `id` column), each once, when every one exists;
/// otherwise `InvalidParam` saying `missing` (a question's or a post's tags and tokens).
pub async fn known_ids<E: EntityTrait>(
    db: &impl sea_orm::ConnectionTrait,
    id: E::Column,
    ids: &[i64],
    missing: &str,
) -> AppResult<Vec<i64>>
where
    E::Model: Sync,
{
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let known = E::find().filter(id.is_in(ids.clone())).count(db).await?;
    if known != ids.len() as u64 {
        return Err(AppError::invalid(missing));
    }
    Ok(ids)
}

pub async fn tag(ctx: &Ctx, key: &TagKey, locale: &str) -> AppResult<TagView> {
    let query = match key {
        TagKey::Id { id } => tag::Entity::find_by_id(*id),
        TagKey::Code { code } => {
            tag::Entity::find().filter(tag::Column::Code.eq(code.to_lowercase()))
        }
    };
    let found = query.one(&ctx.db).await?.ok_or_else(|| not_found("tag"))?;
    tag_views(ctx, vec![found], locale)
        .await?
        .pop()
        .ok_or_else(|| not_found("tag"))
}

/// Trending tags: those on the most items of the last day (the search page's suggestions).
pub async fn trending_tags(ctx: &Ctx, limit: u64, locale: &str) -> AppResult<Vec<TagView>> {
    use sea_orm::sea_query::{Expr, Order};
    let ids: Vec<i64> = feed_link::Entity::find()
        .select_only()
        .column(feed_link::Column::TargetId)
        .filter(feed_link::Column::Kind.eq("tag"))
        .filter(feed_link::Column::PublishedAt.gte(ctx.now() - crate::time::DAY))
        .group_by(feed_link::Column::TargetId)
        .order_by(Expr::cust("COUNT(*)"), Order::Desc)
        .order_by_asc(feed_link::Column::TargetId)
        .limit(limit)
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let mut tags = tag::Entity::find()
        .filter(tag::Column::Id.is_in(ids.iter().copied()))
        .all(&ctx.db)
        .await?;
    tags.sort_by_key(|t| ids.iter().position(|id| *id == t.id));
    tag_views(ctx, tags, locale).await
}

/// Recommended tags: the editors' order, then the most followed; `q` narrows by code or name.
pub async fn recommended_tags(
    ctx: &Ctx,
    q: Option<&str>,
    limit: u64,
    locale: &str,
) -> AppResult<Vec<TagView>> {
    let ordered = tag::Entity::find()
        .order_by_asc(tag::Column::Sort)
        .order_by_desc(tag::Column::FollowerCount)
        .order_by_asc(tag::Column::Id);
    let tags = match q.map(str::trim).filter(|q| !q.is_empty()) {
        None => ordered.limit(limit).all(&ctx.db).await?,
        // Matched against the code and the names themselves, not the JSON text that holds the
        // names (where `en` or a quote would match every tag). The catalogue's tags are a few
        // hundred rows, read in order until the page is full.
        Some(q) => {
            let needle = q.to_lowercase();
            let matches = |t: &tag::Model| {
                t.code.contains(&needle)
                    || serde_json::from_str::<std::collections::HashMap<String, String>>(&t.names)
                        .is_ok_and(|names| {
                            names.values().any(|n| n.to_lowercase().contains(&needle))
                        })
            };
            let mut found = Vec::new();
            let mut rows = ordered.paginate(&ctx.db, 200);
            while let Some(page) = rows.fetch_and_next().await? {
                found.extend(page.into_iter().filter(|t| matches(t)));
                if found.len() as u64 >= limit {
                    break;
                }
            }
            found.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
            found
        }
    };
    tag_views(ctx, tags, locale).await
}

pub async fn token(ctx: &Ctx, symbol: &str) -> AppResult<TokenView> {
    let found = token::Entity::find()
        .filter(token::Column::Symbol.eq(symbol.to_uppercase()))
        .one(&ctx.db)
        .await?
        .ok_or_else(|| not_found("token"))?;
    let market = markets::quotes::market(&ctx.db, found.id).await?;
    Ok(TokenView {
        market,
        ..TokenView::from(found)
    })
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct ChannelView {
    pub id: i64,
    pub code: String,
    pub name: String,
}

pub async fn channels(ctx: &Ctx, locale: &str) -> AppResult<Vec<ChannelView>> {
    Ok(channel::Entity::find()
        .order_by_asc(channel::Column::Sort)
        .order_by_asc(channel::Column::Id)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|c| ChannelView {
            id: c.id,
            name: localized(&c.names, locale),
            code: c.code,
        })
        .collect())
}

pub async fn channel(ctx: &Ctx, code: &str, locale: &str) -> AppResult<ChannelView> {
    let c = channel::Entity::find()
        .filter(channel::Column::Code.eq(code))
        .one(&ctx.db)
        .await?
        .ok_or_else(|| not_found("channel"))?;
    Ok(ChannelView {
        id: c.id,
        name: localized(&c.names, locale),
        code: c.code,
    })
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct KolView {
    pub id: i64,
    pub handle: String,
    pub name: String,
    pub avatar: String,
    pub bio: String,
    pub follower_count: i64,
}

fn kol_view(k: kol::Model, locale: &str) -> KolView {
    KolView {
        id: k.id,
        bio: localized(&k.bios, locale),
        handle: k.handle,
        name: k.name,
        avatar: k.avatar,
        follower_count: k.follower_count,
    }
}

pub async fn popular_kols(ctx: &Ctx, limit: u64, locale: &str) -> AppResult<Vec<KolView>> {
    Ok(kol::Entity::find()
        .order_by_desc(kol::Column::FollowerCount)
        .order_by_asc(kol::Column::Id)
        .limit(limit)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|k| kol_view(k, locale))
        .collect())
}

pub async fn kol(ctx: &Ctx, id: i64, locale: &str) -> AppResult<KolView> {
    let k = kol::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| not_found("KOL"))?;
    Ok(kol_view(k, locale))
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct TopicView {
    pub id: i64,
    pub code: String,
    pub title: String,
    pub description: String,
    pub cover: String,
    pub heat: i64,
    pub follower_count: i64,
    /// The language of the title and description: the reader's, or the English they fall back to.
    pub lang: String,
}

fn topic_view(t: topic::Model, locale: &str) -> TopicView {
    TopicView {
        id: t.id,
        lang: localized_lang(&t.titles, locale),
        title: localized(&t.titles, locale),
        description: localized(&t.descriptions, locale),
        code: t.code,
        cover: t.cover,
        heat: t.heat,
        follower_count: t.follower_count,
    }
}

pub async fn trending_topics(ctx: &Ctx, limit: u64, locale: &str) -> AppResult<Vec<TopicView>> {
    Ok(topic::Entity::find()
        .order_by_desc(topic::Column::Heat)
        .order_by_asc(topic::Column::Id)
        .limit(limit)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|t| topic_view(t, locale))
        .collect())
}

pub async fn topic(ctx: &Ctx, id: i64, locale: &str) -> AppResult<TopicView> {
    let t = topic::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| not_found("topic"))?;
    Ok(topic_view(t, locale))
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct BenefitView {
    pub id: i64,
    pub project: String,
    pub logo: String,
    pub title: String,
    pub steps: Vec<String>,
    pub reward: String,
    pub deadline: i64,
    /// The deadline has passed.
    pub ended: bool,
    pub link: String,
    pub published_at: i64,
    /// The language of the title, steps and reward: the reader's, or the English they fall back to.
    pub lang: String,
}

fn benefit_view(b: benefit::Model, locale: &str, now: i64) -> BenefitView {
    let texts: std::collections::HashMap<String, BenefitText> =
        serde_json::from_str(&b.texts).unwrap_or_default();
    let (lang, text) = [locale, client_core::locale::DEFAULT_LOCALE]
        .into_iter()
        .find_map(|l| Some((l, texts.get(l)?.clone())))
        .unwrap_or((client_core::locale::DEFAULT_LOCALE, BenefitText::default()));
    BenefitView {
        id: b.id,
        project: b.project,
        logo: b.logo,
        title: text.title,
        steps: text.steps,
        // A reward label of the language where there is one (`500 USDC 獎池`), else the row's.
        reward: text.reward.unwrap_or(b.reward),
        lang: lang.to_owned(),
        ended: b.deadline <= now,
        deadline: b.deadline,
        link: b.link,
        published_at: b.published_at,
    }
}

/// Open campaigns first (nearest deadline first), then ended ones.
pub async fn benefits(ctx: &Ctx, locale: &str) -> AppResult<Vec<BenefitView>> {
    let now = ctx.now();
    let mut list: Vec<BenefitView> = benefit::Entity::find()
        .order_by_asc(benefit::Column::Deadline)
        .limit(200)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|b| benefit_view(b, locale, now))
        .collect();
    list.sort_by_key(|b| b.ended);
    Ok(list)
}

pub async fn benefit(ctx: &Ctx, id: i64, locale: &str) -> AppResult<BenefitView> {
    let b = benefit::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| not_found("benefit"))?;
    Ok(benefit_view(b, locale, ctx.now()))
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Explore {
    pub topics: Vec<TopicView>,
    pub tags: Vec<TagView>,
    pub channels: Vec<ChannelView>,
    pub kols: Vec<KolView>,
}

pub async fn explore(ctx: &Ctx, locale: &str) -> AppResult<Explore> {
    Ok(Explore {
        topics: trending_topics(ctx, 10, locale).await?,
        tags: recommended_tags(ctx, None, 12, locale).await?,
        channels: channels(ctx, locale).await?,
        kols: popular_kols(ctx, 8, locale).await?,
    })
}

/// Tags in the order of `ids` (a user's follows, newest first).
pub async fn tags_by_ids(ctx: &Ctx, ids: &[i64], locale: &str) -> AppResult<Vec<TagView>> {
    let rows = tag::Entity::find()
        .filter(tag::Column::Id.is_in(ids.to_vec()))
        .all(&ctx.db)
        .await?;
    let ordered = ids
        .iter()
        .filter_map(|id| rows.iter().find(|t| t.id == *id).cloned())
        .collect();
    tag_views(ctx, ordered, locale).await
}

/// KOLs in the order of `ids`.
pub async fn kols_by_ids(ctx: &Ctx, ids: &[i64], locale: &str) -> AppResult<Vec<KolView>> {
    let rows = kol::Entity::find()
        .filter(kol::Column::Id.is_in(ids.to_vec()))
        .all(&ctx.db)
        .await?;
    Ok(ids
        .iter()
        .filter_map(|id| rows.iter().find(|k| k.id == *id).cloned())
        .map(|k| kol_view(k, locale))
        .collect())
}
