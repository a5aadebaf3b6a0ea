//! Searches in time or score order instead of relevance: the latest matching feeds (up to the
//! number a feed's ranking orders) newest first, keyset-paged on `(published_at, id)`, or hot or
//! rising as feeds are, cut from a ranking pinned for the query so paging stays stable.

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};
use sha2::{Digest, Sha256};

use super::{DocRow, SEARCH_PAGE, find_feeds};
use crate::content::feeds::Sort;
use crate::content::ranking::{self, CANDIDATES};
use crate::ctx::Ctx;
use crate::entity::feed_item;
use crate::error::AppResult;
use crate::pagination::{parse_pair, split_page};

/// One page of the feeds matching `terms` in `sort` order, and the cursor of the next.
pub async fn find_sorted(
    ctx: &Ctx,
    index: &impl ConnectionTrait,
    terms: &[String],
    langs: Option<&[&str]>,
    sort: Sort,
    cursor: Option<&str>,
) -> AppResult<(Vec<DocRow>, Option<String>)> {
    let docs = find_feeds(index, terms, langs, CANDIDATES).await?;
    let matching = || {
        feed_item::Entity::find().filter(feed_item::Column::Id.is_in(docs.iter().map(|d| d.ref_id)))
    };
    let (ids, next) = match sort {
        Sort::New => {
            // Their times alone, not 500 articles.
            let mut keys: Vec<(i64, i64)> = matching()
                .select_only()
                .columns([feed_item::Column::PublishedAt, feed_item::Column::Id])
                .into_tuple()
                .all(&ctx.db)
                .await?;
            keys.sort_unstable_by(|a, b| b.cmp(a));
            if let Some(cursor) = cursor.filter(|c| !c.is_empty()) {
                let after = parse_pair(cursor)?;
                keys.retain(|k| *k < after);
            }
            let (page, next) = split_page(keys, SEARCH_PAGE, |(at, id)| format!("{at}.{id}"));
            (page.into_iter().map(|(_, id)| id).collect(), next)
        }
        sort => {
            let query = format!("{terms:?}|{langs:?}|{sort:?}");
            let key = format!("search|{}", hex::encode(Sha256::digest(query)));
            let rows = async { Ok(matching().all(&ctx.db).await?) };
            ranking::cut(ctx, &key, sort, cursor, SEARCH_PAGE, rows).await?
        }
    };
    let mut by_id: HashMap<i64, DocRow> = docs.into_iter().map(|d| (d.ref_id, d)).collect();
    Ok((ids.iter().filter_map(|id| by_id.remove(id)).collect(), next))
}
