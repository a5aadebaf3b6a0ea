//! A signed-in reader's own marks on a page of feed items (liked, favorited, their votes), kept per reader
//! on each server (or read in one query for the whole page). Pages themselves are shared by every reader and cached as bytes,
//! so the marks are written into the cached answer, never into the cache.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use client_core::envelope::Envelope;
use client_core::vote::in_card_order;
use lru::LruCache;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QuerySelect, Statement,
};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::content::feeds::FeedView;
use crate::ctx::Ctx;
use crate::entity::{favorite, like, vote};
use crate::error::{AppError, AppResult};
use crate::events::Event;

/// Which feed items a reader likes, keeps and voted on.
#[derive(Default)]
struct Marks {
    liked: HashSet<i64>,
    kept: HashSet<i64>,
    /// The kinds of their votes by item.
    votes: HashMap<i64, Vec<String>>,
}

impl Marks {
    fn add_vote(&mut self, feed_id: i64, kind: String) {
        self.votes.entry(feed_id).or_default().push(kind);
    }

    fn votes_of(&self, feed_id: i64) -> Vec<String> {
        self.votes
            .get(&feed_id)
            .map_or_else(Vec::new, |kinds| in_card_order(kinds))
    }
}

/// Readers' marks kept on this server, so a signed-in page costs no query: each reader's whole
/// set, read once, forgotten when they like or keep something (`Event::MarksChanged`, heard
/// from every server). A reader with more marks than [`READER_MARKS_MAX`] is read per page
/// (`None` here says so, so their sets are not read again each time).
pub struct ReaderMarks {
    readers: Mutex<LruCache<i64, Option<Arc<Marks>>>>,
    /// Counts forgettings: a read begun before one does not put its answer in.
    forgotten: AtomicU64,
}

/// Marks of one kind a reader may have for their set to be kept here.
pub const READER_MARKS_MAX: u64 = 2_000;
const READERS_KEPT: usize = 20_000;

impl Default for ReaderMarks {
    fn default() -> Self {
        Self {
            readers: Mutex::new(LruCache::new(
                NonZeroUsize::new(READERS_KEPT).unwrap_or(NonZeroUsize::MIN),
            )),
            forgotten: AtomicU64::new(0),
        }
    }
}

impl ReaderMarks {
    pub fn heard(&self, event: &Event) {
        let Ok(mut readers) = self.readers.lock() else {
            return;
        };
        match event {
            Event::MarksChanged(user_id) => {
                readers.pop(user_id);
            }
            Event::Missed => readers.clear(),
            _ => return,
        }
        // Under the lock, so no read begun before this can put its answer in after it.
        self.forgotten.fetch_add(1, Ordering::SeqCst);
    }

    fn get(&self, user_id: i64) -> Option<Option<Arc<Marks>>> {
        self.readers.lock().ok()?.get(&user_id).cloned()
    }

    fn put(&self, user_id: i64, marks: Option<Arc<Marks>>, mark: u64) {
        if let Ok(mut readers) = self.readers.lock()
            && self.forgotten.load(Ordering::SeqCst) == mark
        {
            readers.put(user_id, marks);
        }
    }

    /// Which of `ids` the reader likes, and which they keep.
    async fn of(&self, ctx: &Ctx, user_id: i64, ids: &[i64]) -> AppResult<Marks> {
        if ids.is_empty() {
            return Ok(Marks::default());
        }
        let kept = match self.get(user_id) {
            Some(kept) => kept,
            None => {
                let mark = self.forgotten.load(Ordering::SeqCst);
                let kept = read_all(ctx, user_id).await?.map(Arc::new);
                self.put(user_id, kept.clone(), mark);
                kept
            }
        };
        let Some(all) = kept else {
            return read_some(ctx, user_id, ids).await;
        };
        let among =
            |set: &HashSet<i64>| ids.iter().copied().filter(|id| set.contains(id)).collect();
        Ok(Marks {
            liked: among(&all.liked),
            kept: among(&all.kept),
            votes: ids
                .iter()
                .filter_map(|id| Some((*id, all.votes.get(id)?.clone())))
                .collect(),
        })
    }
}

/// All of a reader's marks, or `None` when they have more of a kind than are kept.
async fn read_all(ctx: &Ctx, user_id: i64) -> AppResult<Option<Marks>> {
    let liked: Vec<i64> = like::Entity::find()
        .select_only()
        .column(like::Column::TargetId)
        .filter(like::Column::UserId.eq(user_id))
        .filter(like::Column::Kind.eq(like::FEED))
        .limit(READER_MARKS_MAX + 1)
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let kept: Vec<i64> = favorite::Entity::find()
        .select_only()
        .column(favorite::Column::FeedId)
        .filter(favorite::Column::UserId.eq(user_id))
        .limit(READER_MARKS_MAX + 1)
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let votes: Vec<(i64, String)> = vote::Entity::find()
        .select_only()
        .column(vote::Column::FeedId)
        .column(vote::Column::Kind)
        .filter(vote::Column::UserId.eq(user_id))
        .limit(READER_MARKS_MAX + 1)
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let max = READER_MARKS_MAX as usize;
    if liked.len() > max || kept.len() > max || votes.len() > max {
        return Ok(None);
    }
    let mut marks = Marks {
        liked: liked.into_iter().collect(),
        kept: kept.into_iter().collect(),
        votes: HashMap::new(),
    };
    for (feed_id, kind) in votes {
        marks.add_vote(feed_id, kind);
    }
    Ok(Some(marks))
}

#[derive(FromQueryResult)]
struct Mark {
    mark: String,
    feed_id: i64,
}

/// Which of `ids` the reader likes, keeps and voted on, in one query.
async fn read_some(ctx: &Ctx, user_id: i64, ids: &[i64]) -> AppResult<Marks> {
    let list = crate::db::placeholders(2, ids.len());
    let sql = format!(
        "SELECT 'like' AS mark, target_id AS feed_id FROM likes \
         WHERE user_id = $1 AND kind = 'feed' AND target_id IN ({list}) \
         UNION ALL SELECT 'favorite' AS mark, feed_id FROM favorites \
         WHERE user_id = $1 AND feed_id IN ({list}) \
         UNION ALL SELECT kind AS mark, feed_id FROM votes \
         WHERE user_id = $1 AND feed_id IN ({list})"
    );
    let mut values: Vec<sea_orm::Value> = vec![user_id.into()];
    values.extend(ids.iter().map(|id| sea_orm::Value::from(*id)));
    let backend = ctx.db.get_database_backend();
    let rows = Mark::find_by_statement(Statement::from_sql_and_values(backend, sql, values))
        .all(&ctx.db)
        .await?;
    let mut marks = Marks::default();
    for row in rows {
        match row.mark.as_str() {
            "like" => {
                marks.liked.insert(row.feed_id);
            }
            "favorite" => {
                marks.kept.insert(row.feed_id);
            }
            _ => marks.add_vote(row.feed_id, row.mark),
        }
    }
    Ok(marks)
}

/// Marks `views` for `user_id`.
pub async fn mark(
    ctx: &Ctx,
    readers: &ReaderMarks,
    user_id: i64,
    views: &mut [FeedView],
) -> AppResult<()> {
    let ids: Vec<i64> = views.iter().map(|v| v.id).collect();
    let marks = readers.of(ctx, user_id, &ids).await?;
    for view in views {
        view.liked = Some(marks.liked.contains(&view.id));
        view.favorited = Some(marks.kept.contains(&view.id));
        view.mine = Some(marks.votes_of(view.id));
    }
    Ok(())
}

/// An item of a cached page, its fields left as the JSON they are: marking one reads no more
/// of it than its `id` (a page parsed into `serde_json::Value` cost a signed-in reader several
/// times a visitor's whole request).
pub type Item = BTreeMap<String, Box<RawValue>>;

/// A cached envelope of a page (`data.list`), opened to write one reader's marks into its items;
/// the cache keeps the shared bytes.
pub struct OpenPage {
    envelope: Envelope<Item>,
    list: Vec<Item>,
}

impl OpenPage {
    pub fn open(body: &[u8]) -> AppResult<Self> {
        let mut envelope: Envelope<Item> =
            serde_json::from_slice(body).map_err(AppError::internal)?;
        let list = items(envelope.data.remove("list").as_deref())?;
        Ok(Self { envelope, list })
    }

    /// Calls `f` on each item of the page, and on each item listed under `nested` in it (a
    /// comment's replies).
    pub fn each(&mut self, nested: Option<&str>, f: &mut impl FnMut(&mut Item)) -> AppResult<()> {
        for item in &mut self.list {
            f(item);
            let Some(key) = nested else { continue };
            let mut children = items(item.get(key).map(AsRef::as_ref))?;
            if !children.is_empty() {
                children.iter_mut().for_each(&mut *f);
                item.insert(key.to_owned(), raw(&children)?);
            }
        }
        Ok(())
    }

    /// The ids of the items `each` visits.
    pub fn ids(&self, nested: Option<&str>) -> AppResult<Vec<i64>> {
        let mut ids = Vec::new();
        for item in &self.list {
            ids.extend(id_of(item));
            if let Some(key) = nested {
                ids.extend(
                    items(item.get(key).map(AsRef::as_ref))?
                        .iter()
                        .filter_map(id_of),
                );
            }
        }
        Ok(ids)
    }

    pub fn close(mut self) -> AppResult<bytes::Bytes> {
        self.envelope
            .data
            .insert("list".to_owned(), raw(&self.list)?);
        Ok(serde_json::to_vec(&self.envelope)
            .map_err(AppError::internal)?
            .into())
    }
}

/// The items of a list field (none where there is no such field).
fn items(list: Option<&RawValue>) -> AppResult<Vec<Item>> {
    list.map_or(Ok(Vec::new()), |raw| {
        serde_json::from_str(raw.get()).map_err(AppError::internal)
    })
}

fn raw(value: &impl serde::Serialize) -> AppResult<Box<RawValue>> {
    serde_json::value::to_raw_value(value).map_err(AppError::internal)
}

fn id_of(item: &Item) -> Option<i64> {
    item.get("id").and_then(|id| id.get().parse().ok())
}

/// Sets `field` of `item` to whether its id is in `set`.
pub fn mark_item(item: &mut Item, field: &str, set: &HashSet<i64>) {
    let on = id_of(item).is_some_and(|id| set.contains(&id));
    let value = if on { "true" } else { "false" };
    if let Ok(value) = RawValue::from_string(value.to_owned()) {
        item.insert(field.to_owned(), value);
    }
}

/// A cached envelope's list, each item borrowed from the bytes as they are.
#[derive(Deserialize)]
struct Listed<'a> {
    #[serde(borrow)]
    data: ListOnly<'a>,
}

#[derive(Deserialize)]
struct ListOnly<'a> {
    #[serde(borrow)]
    list: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
struct CardId {
    id: i64,
}

/// A card's id: its first field as `FeedView` writes it, else read from the whole card.
fn card_id(card: &str) -> Option<i64> {
    let quick = card.strip_prefix("{\"id\":").and_then(|rest| {
        let end = rest.find(|c: char| !c.is_ascii_digit())?;
        rest[..end].parse().ok()
    });
    quick.or_else(|| serde_json::from_str::<CardId>(card).ok().map(|c| c.id))
}

/// A cached envelope of a page of feed items (`data.list`), with `user_id`'s marks added. The
/// marks are spliced in before each card's closing brace and the rest is copied as it is:
/// opening each card into its fields and writing the page again cost a signed-in reader about
/// three times a visitor's whole request (`make bench-feed`).
pub async fn mark_page(
    ctx: &Ctx,
    readers: &ReaderMarks,
    user_id: i64,
    body: bytes::Bytes,
) -> AppResult<bytes::Bytes> {
    let page: Listed = serde_json::from_slice(&body).map_err(AppError::internal)?;
    let base = body.as_ptr() as usize;
    // Where each card's closing brace is in `body`, and its id.
    let cards: Vec<(usize, i64)> = page
        .data
        .list
        .iter()
        .filter_map(|card| {
            let text = card.get();
            let close = text.as_ptr() as usize - base + text.len().checked_sub(1)?;
            Some((close, card_id(text)?))
        })
        .collect();
    let ids: Vec<i64> = cards.iter().map(|(_, id)| *id).collect();
    let marks = readers.of(ctx, user_id, &ids).await?;
    let mut out = Vec::with_capacity(body.len() + cards.len() * 64);
    let mut copied = 0;
    for (close, id) in cards {
        out.extend_from_slice(&body[copied..close]);
        let liked = marks.liked.contains(&id);
        let favorited = marks.kept.contains(&id);
        out.extend_from_slice(
            format!(",\"liked\":{liked},\"favorited\":{favorited},\"mine\":").as_bytes(),
        );
        serde_json::to_writer(&mut out, &marks.votes_of(id)).map_err(AppError::internal)?;
        copied = close;
    }
    out.extend_from_slice(&body[copied..]);
    Ok(out.into())
}
