//! Stories: items that report the same event, across sources and languages, shown as one card.
//!
//! Grouping is decided when an item is stored, in the same transaction: its fingerprint
//! ([`print`]) is filed under its keys in `story_keys`, the items sharing keys with it in a
//! 48-hour window are its candidates (the most keys shared first), and the first that
//! [`Print::same_event`] accepts brings it into its story. No pair of stored items is ever
//! scanned. A story's card is its most important item, then its earliest; its other items are
//! `story_hidden`, left out of home and subject feeds. An item no story took is filed again when
//! a machine translation of it comes ([`reconsider`]): in that language it may match a report
//! it could not be compared with before. An admin may split an item off; it then joins no story
//! again.

pub mod breaking;
pub mod print;

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set, Statement,
};
use serde::Serialize;

use self::print::{Print, Text};
use super::feeds::{self, FeedView, Reading};
use crate::ctx::Ctx;
use crate::entity::{feed_item, feed_translation, story, story_key, story_print};
use crate::error::{AppError, AppResult};
use crate::events::Event;
use crate::time::{DAY, HOUR};

/// Items further apart than this are not one story.
pub const WINDOW_SECONDS: i64 = 48 * HOUR;
/// A story gathers items within this long of its first report: a report of a later event that
/// reads the same ("SEC approves first spot SOL ETF", after "Hong Kong approves first spot
/// Solana ETF" a day and a half before) starts its own.
pub const STORY_WINDOW_SECONDS: i64 = 24 * HOUR;
/// Fingerprints are kept this long after publication, so an item that arrives late still finds
/// its story; an item older than this when it arrives is not grouped.
const KEPT_SECONDS: i64 = 7 * DAY;
/// The PostgreSQL advisory lock that serialises grouping (any number; this one is grouping's).
const GROUPING_LOCK: i64 = 0x5354_4f52;
/// Candidates compared, the most keys shared first.
const CANDIDATES_MAX: u64 = 40;
/// Items a key brings as candidates, the latest first: a key that thousands of items share (a
/// pair of common tokens, a stock phrase) would otherwise make every lookup count them all.
const ITEMS_PER_KEY_MAX: u64 = 20;

/// A new item, as grouping sees it.
pub struct NewItem<'a> {
    pub id: i64,
    pub published_at: i64,
    /// Its original first, then the translations it came with.
    pub texts: Vec<Text<'a>>,
    pub tokens: &'a [String],
}

/// Files a new item's fingerprint and brings it into the story of the first candidate reporting
/// the same event; run in the transaction that stores the item.
pub async fn assign(db: &impl ConnectionTrait, item: &NewItem<'_>, now: i64) -> AppResult<()> {
    if item.published_at < now - KEPT_SECONDS {
        return Ok(());
    }
    // One item's grouping at a time: two reports of one event stored at the same moment would
    // each look for the other before either is committed, and both stay alone. SQLite writes one
    // transaction at a time already; on PostgreSQL the lock lasts until this transaction ends,
    // so the next one's lookups see what this one filed.
    if db.get_database_backend() == sea_orm::DatabaseBackend::Postgres {
        db.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({GROUPING_LOCK})"))
            .await?;
    }
    let print = Print::of(&item.texts, item.tokens);
    let keys = print.keys();
    if keys.is_empty() {
        return Ok(());
    }
    let candidates = candidates(db, &keys, item.published_at).await?;
    let mut found = None;
    if !candidates.is_empty() {
        let prints = story_print::Entity::find()
            .filter(story_print::Column::FeedId.is_in(candidates.iter().map(|(id, _)| *id)))
            .filter(story_print::Column::Split.eq(false))
            .all(db)
            .await?;
        let starts = story_starts(db, &candidates).await?;
        found = candidates.iter().find_map(|(id, _)| {
            let start = starts.get(id)?;
            if (item.published_at - start).abs() > STORY_WINDOW_SECONDS {
                return None;
            }
            let stored = prints.iter().find(|p| p.feed_id == *id)?;
            let other: Print = serde_json::from_str(&stored.print).ok()?;
            let gap = item.published_at - stored.published_at;
            print.same_event(&other, gap).then_some(*id)
        });
    }
    story_print::ActiveModel {
        feed_id: Set(item.id),
        published_at: Set(item.published_at),
        print: Set(serde_json::to_string(&print).map_err(AppError::internal)?),
        split: Set(false),
    }
    .insert(db)
    .await?;
    let rows = keys.iter().map(|key| story_key::ActiveModel {
        key: Set(*key),
        feed_id: Set(item.id),
        published_at: Set(item.published_at),
    });
    story_key::Entity::insert_many(rows).exec(db).await?;
    if let Some(other) = found {
        join(db, item.id, other).await?;
    }
    Ok(())
}

/// When each candidate's story began: its story's first report, or the candidate itself.
async fn story_starts(
    db: &impl ConnectionTrait,
    candidates: &[(i64, i64)],
) -> AppResult<std::collections::HashMap<i64, i64>> {
    let rows: Vec<(i64, i64, Option<i64>)> = feed_item::Entity::find()
        .select_only()
        .columns([
            feed_item::Column::Id,
            feed_item::Column::PublishedAt,
            feed_item::Column::StoryId,
        ])
        .filter(feed_item::Column::Id.is_in(candidates.iter().map(|(id, _)| *id)))
        .into_tuple()
        .all(db)
        .await?;
    let stories = story::Entity::find()
        .filter(story::Column::Id.is_in(rows.iter().filter_map(|(_, _, s)| *s)))
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, published_at, story_id)| {
            let first = story_id
                .and_then(|s| stories.iter().find(|st| st.id == s))
                .map_or(published_at, |st| st.first_at);
            (id, first)
        })
        .collect())
}

/// The items within the window that share the most of `keys`, as (id, keys shared). One
/// statement: each key's latest items (an index range of `story_keys_in_time`), counted by item.
async fn candidates(
    db: &impl ConnectionTrait,
    keys: &[i64],
    published_at: i64,
) -> AppResult<Vec<(i64, i64)>> {
    let per_key = (0..keys.len())
        .map(|i| {
            format!(
                "SELECT * FROM (SELECT feed_id FROM story_keys WHERE key = ${} AND published_at \
                 BETWEEN $1 AND $2 ORDER BY published_at DESC LIMIT {ITEMS_PER_KEY_MAX}) AS k{i}",
                i + 3
            )
        })
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let sql = format!(
        "SELECT feed_id, COUNT(*) AS shared FROM ({per_key}) AS keyed GROUP BY feed_id \
         ORDER BY shared DESC, feed_id DESC LIMIT {CANDIDATES_MAX}"
    );
    let values = [published_at - WINDOW_SECONDS, published_at + WINDOW_SECONDS]
        .into_iter()
        .chain(keys.iter().copied())
        .map(sea_orm::Value::from);
    let rows = db
        .query_all(Statement::from_sql_and_values(
            db.get_database_backend(),
            sql,
            values,
        ))
        .await?;
    rows.iter()
        .map(|row| Ok((row.try_get("", "feed_id")?, row.try_get("", "shared")?)))
        .collect()
}

/// Files again, with the translations it has now, an item no story took: a machine translation
/// may show that it reports an event another language already has. Its tokens are those it was
/// filed with.
pub async fn reconsider(
    db: &impl ConnectionTrait,
    id: i64,
    translations: &[feed_translation::Model],
    now: i64,
) -> AppResult<()> {
    let item = feeds::find_in(db, id).await?;
    let filed = story_print::Entity::find_by_id(id).one(db).await?;
    if item.story_id.is_some() || filed.as_ref().is_some_and(|p| p.split) {
        return Ok(());
    }
    let tokens = filed
        .and_then(|p| serde_json::from_str::<Print>(&p.print).ok())
        .map(|p| p.tokens)
        .unwrap_or_default();
    story_key::Entity::delete_many()
        .filter(story_key::Column::FeedId.eq(id))
        .exec(db)
        .await?;
    story_print::Entity::delete_by_id(id).exec(db).await?;
    let original = Text {
        lang: &item.lang,
        title: &item.title,
        summary: &item.summary,
    };
    let texts = std::iter::once(original)
        .chain(translations.iter().map(|t| Text {
            lang: &t.locale,
            title: &t.title,
            summary: &t.summary,
        }))
        .collect();
    let item = NewItem {
        id,
        published_at: item.published_at,
        texts,
        tokens: &tokens,
    };
    assign(db, &item, now).await
}

/// Brings item `id` into the story of `other` (a new story of the two if `other` has none).
async fn join(db: &impl ConnectionTrait, id: i64, other: i64) -> AppResult<()> {
    let other = feeds::find_in(db, other).await?;
    let story_id = match other.story_id {
        Some(story_id) => story_id,
        None => {
            let made = story::ActiveModel {
                lead_id: Set(other.id),
                size: Set(1),
                first_id: Set(other.id),
                first_lang: Set(other.lang.clone()),
                first_at: Set(other.published_at),
                ..Default::default()
            }
            .insert(db)
            .await?;
            set_story(db, other.id, Some(made.id)).await?;
            made.id
        }
    };
    set_story(db, id, Some(story_id)).await?;
    refresh(db, story_id).await
}

async fn set_story(db: &impl ConnectionTrait, id: i64, story_id: Option<i64>) -> AppResult<()> {
    feed_item::Entity::update_many()
        .col_expr(feed_item::Column::StoryId, Expr::value(story_id))
        .col_expr(feed_item::Column::StoryHidden, Expr::value(false))
        .filter(feed_item::Column::Id.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// Recounts a story from its items: its size, first report and card; a story left with one
/// item is no story.
async fn refresh(db: &impl ConnectionTrait, story_id: i64) -> AppResult<()> {
    let members: Vec<(i64, String, i64, bool)> = feed_item::Entity::find()
        .select_only()
        .columns([
            feed_item::Column::Id,
            feed_item::Column::Lang,
            feed_item::Column::PublishedAt,
            feed_item::Column::Important,
        ])
        .filter(feed_item::Column::StoryId.eq(story_id))
        .into_tuple()
        .all(db)
        .await?;
    let (Some(first), Some(lead)) = (
        members.iter().min_by_key(|m| (m.2, m.0)),
        members.iter().min_by_key(|m| (!m.3, m.2, m.0)),
    ) else {
        story::Entity::delete_by_id(story_id).exec(db).await?;
        return Ok(());
    };
    if members.len() < 2 {
        set_story(db, first.0, None).await?;
        story::Entity::delete_by_id(story_id).exec(db).await?;
        return Ok(());
    }
    story::ActiveModel {
        id: Set(story_id),
        lead_id: Set(lead.0),
        size: Set(members.len() as i64),
        first_id: Set(first.0),
        first_lang: Set(first.1.clone()),
        first_at: Set(first.2),
    }
    .update(db)
    .await?;
    feed_item::Entity::update_many()
        .col_expr(
            feed_item::Column::StoryHidden,
            Expr::col(feed_item::Column::Id).ne(lead.0),
        )
        .filter(feed_item::Column::StoryId.eq(story_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Splits a misgrouped item off its story; it joins no story again.
pub async fn split(ctx: &Ctx, feed_id: i64) -> AppResult<()> {
    let txn = crate::db::begin_write(&ctx.db).await?;
    let item = feeds::find_in(&txn, feed_id).await?;
    let Some(story_id) = item.story_id else {
        return Err(AppError::invalid("This item is in no story"));
    };
    set_story(&txn, feed_id, None).await?;
    story_print::Entity::update_many()
        .col_expr(story_print::Column::Split, Expr::value(true))
        .filter(story_print::Column::FeedId.eq(feed_id))
        .exec(&txn)
        .await?;
    refresh(&txn, story_id).await?;
    txn.commit().await?;
    ctx.events.publish(&Event::ContentChanged);
    Ok(())
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct StoryDetail {
    pub id: i64,
    pub size: i64,
    /// The item feeds show for the story.
    pub lead_id: i64,
    /// The language that reported it first, and when.
    pub first_lang: String,
    pub first_at: i64,
    /// How many minutes the first report came before the first in another language (absent
    /// when every report is in one language).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ahead_minutes: Option<i64>,
    /// Its items, earliest first.
    pub items: Vec<FeedView>,
}

/// A story and its items, earliest first.
pub async fn detail(ctx: &Ctx, id: i64, reading: Reading) -> AppResult<StoryDetail> {
    let found = story::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such story"))?;
    let rows = feed_item::Entity::find()
        .filter(feed_item::Column::StoryId.eq(id))
        .order_by_asc(feed_item::Column::PublishedAt)
        .order_by_asc(feed_item::Column::Id)
        .all(&ctx.db)
        .await?;
    let ahead_minutes = rows
        .iter()
        .find(|r| r.lang != found.first_lang)
        .map(|r| (r.published_at - found.first_at) / 60);
    Ok(StoryDetail {
        id: found.id,
        size: found.size,
        lead_id: found.lead_id,
        first_lang: found.first_lang,
        first_at: found.first_at,
        ahead_minutes,
        items: feeds::views(ctx, rows, reading).await?,
    })
}

/// Drops fingerprints no new item can join any more, for the cleanup job.
pub async fn forget_old(ctx: &Ctx) -> AppResult<u64> {
    let before = ctx.now() - KEPT_SECONDS - WINDOW_SECONDS;
    let keys = story_key::Entity::delete_many()
        .filter(story_key::Column::PublishedAt.lt(before))
        .exec(&ctx.db)
        .await?;
    let prints = story_print::Entity::delete_many()
        .filter(story_print::Column::PublishedAt.lt(before))
        .exec(&ctx.db)
        .await?;
    Ok(keys.rows_affected + prints.rows_affected)
}
