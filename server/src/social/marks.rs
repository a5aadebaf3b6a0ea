//! A signed-in reader's own marks on a page of feed items (liked, favorited), read in one
//! query for the whole page. Pages themselves are shared by every reader and cached as bytes,
//! so the marks are written into the cached answer, never into the cache.

use std::collections::HashSet;

use sea_orm::{ConnectionTrait, FromQueryResult, Statement};
use serde_json::{Map, Value};

use crate::content::feeds::FeedView;
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};

#[derive(FromQueryResult)]
struct Mark {
    mark: String,
    feed_id: i64,
}

/// Which of `ids` the reader likes, and which they keep.
async fn marks(ctx: &Ctx, user_id: i64, ids: &[i64]) -> AppResult<(HashSet<i64>, HashSet<i64>)> {
    if ids.is_empty() {
        return Ok(Default::default());
    }
    let list = (2..ids.len() + 2)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT 'like' AS mark, target_id AS feed_id FROM likes \
         WHERE user_id = $1 AND kind = 'feed' AND target_id IN ({list}) \
         UNION ALL SELECT 'favorite' AS mark, feed_id FROM favorites \
         WHERE user_id = $1 AND feed_id IN ({list})"
    );
    let mut values: Vec<sea_orm::Value> = vec![user_id.into()];
    values.extend(ids.iter().map(|id| sea_orm::Value::from(*id)));
    let backend = ctx.db.get_database_backend();
    let rows = Mark::find_by_statement(Statement::from_sql_and_values(backend, sql, values))
        .all(&ctx.db)
        .await?;
    let (mut liked, mut kept) = (HashSet::new(), HashSet::new());
    for row in rows {
        match row.mark.as_str() {
            "like" => liked.insert(row.feed_id),
            _ => kept.insert(row.feed_id),
        };
    }
    Ok((liked, kept))
}

/// Marks `views` for `user_id`.
pub async fn mark(ctx: &Ctx, user_id: i64, views: &mut [FeedView]) -> AppResult<()> {
    let ids: Vec<i64> = views.iter().map(|v| v.id).collect();
    let (liked, kept) = marks(ctx, user_id, &ids).await?;
    for view in views {
        view.liked = Some(liked.contains(&view.id));
        view.favorited = Some(kept.contains(&view.id));
    }
    Ok(())
}

/// A cached envelope of a page (`data.list`), opened to write one reader's marks into its items;
/// the cache keeps the shared bytes.
pub struct OpenPage(Value);

impl OpenPage {
    pub fn open(body: &[u8]) -> AppResult<Self> {
        serde_json::from_slice(body)
            .map(Self)
            .map_err(AppError::internal)
    }

    /// Calls `f` on each item of the page, and on each item listed under `nested` in it (a
    /// comment's replies).
    pub fn each(&mut self, nested: Option<&str>, f: &mut impl FnMut(&mut Map<String, Value>)) {
        let items = self
            .0
            .pointer_mut("/data/list")
            .and_then(Value::as_array_mut);
        for item in items.into_iter().flatten() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            f(item);
            let inner = nested
                .and_then(|key| item.get_mut(key))
                .and_then(Value::as_array_mut);
            for child in inner.into_iter().flatten().filter_map(Value::as_object_mut) {
                f(child);
            }
        }
    }

    /// The ids of the items `each` visits.
    pub fn ids(&mut self, nested: Option<&str>) -> Vec<i64> {
        let mut ids = Vec::new();
        self.each(nested, &mut |item| {
            ids.extend(item.get("id").and_then(Value::as_i64));
        });
        ids
    }

    pub fn close(self) -> AppResult<bytes::Bytes> {
        Ok(serde_json::to_vec(&self.0)
            .map_err(AppError::internal)?
            .into())
    }
}

/// Sets `field` of `item` to whether its id is in `set`.
pub fn mark_item(item: &mut Map<String, Value>, field: &str, set: &HashSet<i64>) {
    let id = item.get("id").and_then(Value::as_i64).unwrap_or_default();
    item.insert(field.to_owned(), set.contains(&id).into());
}

/// A cached envelope of a page of feed items (`data.list`), with `user_id`'s marks added.
pub async fn mark_page(ctx: &Ctx, user_id: i64, body: bytes::Bytes) -> AppResult<bytes::Bytes> {
    let mut page = OpenPage::open(&body)?;
    let (liked, kept) = marks(ctx, user_id, &page.ids(None)).await?;
    page.each(None, &mut |item| {
        mark_item(item, "liked", &liked);
        mark_item(item, "favorited", &kept);
    });
    page.close()
}
