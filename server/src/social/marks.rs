//! A signed-in reader's own marks on a page of feed items (liked, favorited), read in one
//! query for the whole page. Pages themselves are shared by every reader and cached as bytes,
//! so the marks are written into the cached answer, never into the cache.

use std::collections::HashSet;

use sea_orm::{ConnectionTrait, FromQueryResult, Statement};
use serde_json::Value;

use crate::content::feeds::FeedView;
use crate::error::{AppError, AppResult};
use crate::state::AppState;

#[derive(FromQueryResult)]
struct Mark {
    mark: String,
    feed_id: i64,
}

/// Which of `ids` the reader likes, and which they keep.
async fn marks(
    state: &AppState,
    user_id: i64,
    ids: &[i64],
) -> AppResult<(HashSet<i64>, HashSet<i64>)> {
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
    let backend = state.db.get_database_backend();
    let rows = Mark::find_by_statement(Statement::from_sql_and_values(backend, sql, values))
        .all(&state.db)
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
pub async fn mark(state: &AppState, user_id: i64, views: &mut [FeedView]) -> AppResult<()> {
    let ids: Vec<i64> = views.iter().map(|v| v.id).collect();
    let (liked, kept) = marks(state, user_id, &ids).await?;
    for view in views {
        view.liked = Some(liked.contains(&view.id));
        view.favorited = Some(kept.contains(&view.id));
    }
    Ok(())
}

/// A cached envelope of a page of feed items (`data.list`), with `user_id`'s marks added.
pub async fn mark_page(
    state: &AppState,
    user_id: i64,
    body: bytes::Bytes,
) -> AppResult<bytes::Bytes> {
    let mut envelope: Value = serde_json::from_slice(&body).map_err(AppError::internal)?;
    let Some(items) = envelope
        .pointer_mut("/data/list")
        .and_then(Value::as_array_mut)
    else {
        return Ok(body);
    };
    let ids: Vec<i64> = items
        .iter()
        .filter_map(|item| item.get("id").and_then(Value::as_i64))
        .collect();
    let (liked, kept) = marks(state, user_id, &ids).await?;
    for item in items.iter_mut() {
        let id = item.get("id").and_then(Value::as_i64).unwrap_or_default();
        if let Some(item) = item.as_object_mut() {
            item.insert("liked".to_owned(), liked.contains(&id).into());
            item.insert("favorited".to_owned(), kept.contains(&id).into());
        }
    }
    Ok(serde_json::to_vec(&envelope)
        .map_err(AppError::internal)?
        .into())
}
