//! The Telegram and LINE bot guides: articles in every language that every database has (not
//! only the demo set), found by a stable name (`/guides/telegram`), not by an id.

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde::Deserialize;

use crate::content::write::{self, FeedInput};
use crate::ctx::Ctx;
use crate::entity::feed_item;
use crate::error::{AppError, AppResult};
use crate::linking::Linking;

const GUIDES: &str = include_str!("guides.json");

#[derive(Deserialize)]
struct Guide {
    name: String,
    #[serde(flatten)]
    item: FeedInput,
}

fn guides() -> AppResult<Vec<Guide>> {
    serde_json::from_str(GUIDES).map_err(AppError::internal)
}

/// Writes the guides a database lacks; returns how many were written.
pub async fn ensure(ctx: &Ctx, linking: &Linking) -> AppResult<usize> {
    let mut written = 0;
    for guide in guides()? {
        if find_url(ctx, &guide.item.source_url).await?.is_none() {
            write::upsert_feed(ctx, linking, guide.item).await?;
            written += 1;
        }
    }
    Ok(written)
}

async fn find_url(ctx: &Ctx, url: &str) -> AppResult<Option<i64>> {
    Ok(feed_item::Entity::find()
        .filter(feed_item::Column::SourceUrl.eq(url))
        .one(&ctx.db)
        .await?
        .map(|f| f.id))
}

/// The feed id of the guide `name` (`telegram`, `line`).
pub async fn find(ctx: &Ctx, name: &str) -> AppResult<Option<i64>> {
    let Some(guide) = guides()?.into_iter().find(|g| g.name == name) else {
        return Ok(None);
    };
    find_url(ctx, &guide.item.source_url).await
}
