//! Feed cards as a reader sees them: the item in the reader's language, with its links, story,
//! prices and votes; and the reader's own marks where they are signed in.

use std::collections::HashMap;

use client_core::vote::VoteCounts;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};
use serde::Serialize;

use super::Reading;
use crate::auth::users::{UserRef, users_by_id};
use crate::ctx::Ctx;
use crate::entity::{channel, feed_item, feed_link, feed_translation, kol, story, tag, token};
use crate::error::AppResult;
use crate::i18n::localized;
use crate::markets::{self, quotes::Quote};

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct TagRef {
    pub id: i64,
    pub code: String,
    pub name: String,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct TokenRef {
    pub id: i64,
    pub symbol: String,
    /// Its latest price, if it has one.
    pub price: Option<Quote>,
}

/// The story a card stands for: `size` reports of one event, the first in `first_lang`.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct StoryRef {
    pub id: i64,
    pub size: i64,
    pub first_lang: String,
    pub first_at: i64,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct AuthorRef {
    pub id: i64,
    pub handle: String,
    pub name: String,
    pub avatar: String,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct FeedView {
    pub id: i64,
    #[ts(type = "FeedKind")]
    pub kind: String,
    pub title: String,
    pub summary: String,
    /// The language the item was written in.
    pub lang: String,
    /// The language of `title` and `summary` as returned.
    pub shown_lang: String,
    pub translated: bool,
    pub source_name: String,
    pub source_url: String,
    pub author: Option<AuthorRef>,
    /// The reader who wrote a `post`.
    pub user: Option<UserRef>,
    pub channel: Option<String>,
    pub images: Vec<String>,
    pub important: bool,
    /// Why it is important without an editor: its story broke (`client_core::breaking`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "ImportantReason")]
    pub important_reason: Option<client_core::breaking::ImportantReason>,
    pub published_at: i64,
    pub views: i64,
    pub like_count: i64,
    pub comment_count: i64,
    pub tags: Vec<TagRef>,
    pub tokens: Vec<TokenRef>,
    /// The story it reports with other items, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub story: Option<StoryRef>,
    /// Whether the signed-in reader likes it (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub liked: Option<bool>,
    /// Whether the signed-in reader keeps it in their favorites (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub favorited: Option<bool>,
    /// Readers' votes, by kind.
    #[ts(type = "VoteCounts")]
    pub votes: VoteCounts,
    /// The signed-in reader's votes on it, in card order (absent for visitors).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mine: Option<Vec<String>>,
    /// The text as written, when a translation is shown in its place: "Show original" needs
    /// no request.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub original: Option<Original>,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct Original {
    pub title: String,
    pub summary: String,
    /// The item's page only: its sanitized HTML.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content: Option<String>,
    /// Translated by a machine (the translation service), not the source or an editor.
    pub machine: bool,
}

/// An item's votes as its row counts them.
pub fn vote_counts(row: &feed_item::Model) -> VoteCounts {
    VoteCounts {
        bullish: row.vote_bullish,
        bearish: row.vote_bearish,
        important: row.vote_important,
        lol: row.vote_lol,
        toxic: row.vote_toxic,
    }
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct FeedDetail {
    #[serde(flatten)]
    pub item: FeedView,
    /// Sanitized HTML.
    pub content: String,
    pub related: Vec<FeedView>,
}

/// The reader's view of items: translated where wanted and available, with their links.
pub async fn views(
    ctx: &Ctx,
    rows: Vec<feed_item::Model>,
    reading: Reading,
) -> AppResult<Vec<FeedView>> {
    Ok(views_with_content(ctx, rows, reading, false)
        .await?
        .into_iter()
        .map(|(view, _)| view)
        .collect())
}

pub(super) async fn views_with_content(
    ctx: &Ctx,
    rows: Vec<feed_item::Model>,
    reading: Reading,
    with_content: bool,
) -> AppResult<Vec<(FeedView, String)>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let wants_translation: Vec<i64> = rows
        .iter()
        .filter(|r| reading.translates(&r.lang))
        .map(|r| r.id)
        .collect();
    let mut translations: HashMap<i64, feed_translation::Model> = HashMap::new();
    if !wants_translation.is_empty() {
        let mut query = feed_translation::Entity::find()
            .filter(feed_translation::Column::FeedId.is_in(wants_translation))
            .filter(feed_translation::Column::Locale.eq(reading.locale));
        if !with_content {
            // Content can be large; lists never show it.
            query = query
                .select_only()
                .columns([
                    feed_translation::Column::Id,
                    feed_translation::Column::FeedId,
                    feed_translation::Column::Locale,
                    feed_translation::Column::Title,
                    feed_translation::Column::Summary,
                    feed_translation::Column::Machine,
                ])
                .column_as(Expr::value(""), "content");
        }
        for t in query.all(&ctx.db).await? {
            translations.insert(t.feed_id, t);
        }
    }
    let links = if ids.is_empty() {
        Vec::new()
    } else {
        // By feed id only (topic links are few and skipped below): with a second IN on `kind`,
        // SQLite's planner picks the kind index and scans every link.
        feed_link::Entity::find()
            .filter(feed_link::Column::FeedId.is_in(ids.clone()))
            .all(&ctx.db)
            .await?
    };
    let target_ids = |kind: &str| -> Vec<i64> {
        links
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.target_id)
            .collect()
    };
    let tags: HashMap<i64, tag::Model> = by_id(
        tag::Entity::find()
            .filter(tag::Column::Id.is_in(target_ids("tag")))
            .all(&ctx.db)
            .await?,
        |t| t.id,
    );
    let tokens: HashMap<i64, token::Model> = by_id(
        token::Entity::find()
            .filter(token::Column::Id.is_in(target_ids("token")))
            .all(&ctx.db)
            .await?,
        |t| t.id,
    );
    let quotes = markets::quotes::quotes(&ctx.db, tokens.keys().copied()).await?;
    let kol_ids: Vec<i64> = rows.iter().filter_map(|r| r.kol_id).collect();
    let kols: HashMap<i64, kol::Model> = by_id(
        kol::Entity::find()
            .filter(kol::Column::Id.is_in(kol_ids))
            .all(&ctx.db)
            .await?,
        |k| k.id,
    );
    let users = users_by_id(&ctx.db, rows.iter().filter_map(|r| r.user_id)).await?;
    let story_ids: Vec<i64> = rows.iter().filter_map(|r| r.story_id).collect();
    let stories: HashMap<i64, story::Model> = if story_ids.is_empty() {
        HashMap::new()
    } else {
        by_id(
            story::Entity::find()
                .filter(story::Column::Id.is_in(story_ids))
                .all(&ctx.db)
                .await?,
            |s| s.id,
        )
    };
    let channel_ids: Vec<i64> = rows.iter().filter_map(|r| r.channel_id).collect();
    let channels: HashMap<i64, channel::Model> = by_id(
        channel::Entity::find()
            .filter(channel::Column::Id.is_in(channel_ids))
            .all(&ctx.db)
            .await?,
        |c| c.id,
    );
    Ok(rows
        .into_iter()
        .map(|row| {
            let own_links = links.iter().filter(|l| l.feed_id == row.id);
            let item_tags = own_links
                .clone()
                .filter(|l| l.kind == "tag")
                .filter_map(|l| tags.get(&l.target_id))
                .map(|t| TagRef {
                    id: t.id,
                    code: t.code.clone(),
                    name: localized(&t.names, reading.locale),
                })
                .collect();
            let item_tokens = own_links
                .filter(|l| l.kind == "token")
                .filter_map(|l| tokens.get(&l.target_id))
                .map(|t| TokenRef {
                    id: t.id,
                    symbol: t.symbol.clone(),
                    price: quotes.get(&t.id).cloned(),
                })
                .collect();
            let translation = translations.remove(&row.id);
            let translated = translation.is_some();
            let votes = vote_counts(&row);
            let (title, summary, content, shown_lang, original) = match translation {
                Some(t) => {
                    let original = Original {
                        title: row.title,
                        summary: row.summary,
                        content: with_content.then_some(row.content),
                        machine: t.machine,
                    };
                    let shown = reading.locale.to_owned();
                    (t.title, t.summary, t.content, shown, Some(original))
                }
                None => (row.title, row.summary, row.content, row.lang.clone(), None),
            };
            let view = FeedView {
                id: row.id,
                kind: row.kind,
                title,
                summary,
                lang: row.lang,
                shown_lang,
                translated,
                source_name: row.source_name,
                source_url: row.source_url,
                author: row.kol_id.and_then(|id| kols.get(&id)).map(|k| AuthorRef {
                    id: k.id,
                    handle: k.handle.clone(),
                    name: k.name.clone(),
                    avatar: k.avatar.clone(),
                }),
                user: row.user_id.and_then(|id| users.get(&id).cloned()),
                channel: row
                    .channel_id
                    .and_then(|id| channels.get(&id))
                    .map(|c| c.code.clone()),
                images: serde_json::from_str(&row.images).unwrap_or_default(),
                important: row.important,
                important_reason: row
                    .important_reason
                    .as_deref()
                    .and_then(|reason| serde_json::from_str(reason).ok()),
                published_at: row.published_at,
                views: row.views,
                like_count: row.likes,
                comment_count: row.comments,
                votes,
                tags: item_tags,
                tokens: item_tokens,
                story: row
                    .story_id
                    .and_then(|id| stories.get(&id))
                    .map(|s| StoryRef {
                        id: s.id,
                        size: s.size,
                        first_lang: s.first_lang.clone(),
                        first_at: s.first_at,
                    }),
                liked: None,
                favorited: None,
                mine: None,
                original,
            };
            (view, if with_content { content } else { String::new() })
        })
        .collect())
}

fn by_id<T>(rows: Vec<T>, id: impl Fn(&T) -> i64) -> HashMap<i64, T> {
    rows.into_iter().map(|r| (id(&r), r)).collect()
}
