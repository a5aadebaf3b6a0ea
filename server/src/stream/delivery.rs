//! A logged event made ready for the streams once per server: what subjects need to know of a
//! new item, a thread's counts, a comment as threads show it. Item cards are built per language
//! on the first stream that wants one and shared by the rest.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use client_core::stream::ItemFacts;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;
use tokio::sync::OnceCell;

use crate::content::feeds::{self, Reading};
use crate::ctx::Ctx;
use crate::entity::{channel, feed_item, feed_link, feed_translation, tag, token};
use crate::error::{AppError, AppResult};
use crate::events::Live;
use crate::social::comments;

pub struct Delivery {
    /// The event's id in the log: its `id:` on every stream.
    pub id: i64,
    pub what: What,
}

/// An item's card as JSON, built once for the first stream that wants it (`None`: it could not
/// be built).
type Card = Arc<OnceCell<Option<Arc<str>>>>;

pub enum What {
    Item(Box<NewItem>),
    /// `{feed_id}` of an item taken down, as JSON: every stream hears it (pages drop its card).
    Removed(Arc<str>),
    /// `{feed_id, like_count, comment_count, votes}` as JSON.
    Counts {
        feed: i64,
        data: Arc<str>,
    },
    /// The comment as `/comment/list` returns it, as JSON.
    Comment {
        feed: i64,
        author: Option<i64>,
        data: Arc<str>,
    },
    Unread(Option<i64>),
}

pub struct NewItem {
    row: feed_item::Model,
    pub facts: ItemFacts,
    /// Cards by the reading (locale, translated) they were built for.
    cards: Mutex<HashMap<(&'static str, bool), Card>>,
}

impl Delivery {
    /// `None` when there is nothing to send (the item or comment is gone).
    pub async fn prepare(ctx: &Ctx, id: i64, live: Live) -> AppResult<Option<Self>> {
        let what = match live {
            Live::Item(feed) => {
                let Some(row) = feed_item::Entity::find_by_id(feed).one(&ctx.db).await? else {
                    return Ok(None);
                };
                let facts = facts(ctx, &row).await?;
                What::Item(Box::new(NewItem {
                    row,
                    facts,
                    cards: Mutex::default(),
                }))
            }
            Live::Removed(feed) => What::Removed(json!({ "feed_id": feed }).to_string().into()),
            Live::Counts(feed) => {
                let Some(row) = feed_item::Entity::find_by_id(feed).one(&ctx.db).await? else {
                    return Ok(None);
                };
                let data = json!({
                    "feed_id": feed,
                    "like_count": row.likes,
                    "comment_count": row.comments,
                    "votes": crate::content::feeds::vote_counts(&row),
                });
                What::Counts {
                    feed,
                    data: data.to_string().into(),
                }
            }
            Live::Comment { feed, comment } => {
                let Some(view) = comments::shown(ctx, comment).await? else {
                    return Ok(None);
                };
                What::Comment {
                    feed,
                    author: view.user.as_ref().map(|u| u.id),
                    data: serde_json::to_string(&view)
                        .map_err(AppError::internal)?
                        .into(),
                }
            }
            Live::Unread(user) => What::Unread(user),
        };
        Ok(Some(Self { id, what }))
    }

    /// A new item's card as the lists return it in `reading`, built once per reading.
    pub async fn card(&self, ctx: &Ctx, reading: Reading) -> Option<Arc<str>> {
        let What::Item(item) = &self.what else {
            return None;
        };
        let row = &item.row;
        let cell = item
            .cards
            .lock()
            .ok()?
            .entry((reading.locale, reading.translate))
            .or_default()
            .clone();
        cell.get_or_init(|| async {
            let view = feeds::views(ctx, vec![row.clone()], reading).await;
            match view.map(|mut v| v.pop()) {
                Ok(Some(view)) => serde_json::to_string(&view).ok().map(Into::into),
                Ok(None) => None,
                Err(e) => {
                    tracing::warn!("stream card of {}: {e:?}", row.id);
                    None
                }
            }
        })
        .await
        .clone()
    }
}

/// What subjects need to know of an item, read once.
async fn facts(ctx: &Ctx, row: &feed_item::Model) -> AppResult<ItemFacts> {
    let links = feed_link::Entity::find()
        .filter(feed_link::Column::FeedId.eq(row.id))
        .all(&ctx.db)
        .await?;
    let targets = |kind: &str| -> Vec<i64> {
        links
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.target_id)
            .collect()
    };
    let tags = tag::Entity::find()
        .filter(tag::Column::Id.is_in(targets("tag")))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|t| t.code)
        .collect();
    let tokens = token::Entity::find()
        .filter(token::Column::Id.is_in(targets("token")))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|t| t.symbol)
        .collect();
    let channel = match row.channel_id {
        Some(id) => channel::Entity::find_by_id(id)
            .one(&ctx.db)
            .await?
            .map(|c| c.code),
        None => None,
    };
    let mut langs = vec![row.lang.clone()];
    langs.extend(
        feed_translation::Entity::find()
            .filter(feed_translation::Column::FeedId.eq(row.id))
            .all(&ctx.db)
            .await?
            .into_iter()
            .map(|t| t.locale),
    );
    Ok(ItemFacts {
        kind: row.kind.clone(),
        important: row.important,
        langs,
        tags,
        tokens,
        topics: targets("topic"),
        channel,
        kol: row.kol_id,
        author: row.user_id,
    })
}
