//! Linking the recent items again once the catalogue changed (a new alias, a new token): one
//! server at a time (a lease), newest first, a batch per transaction. The change marked the work
//! due in its own transaction (`linking::mark_relink_due`), and the lease's cursor keeps the
//! position, so a crash or a restart resumes it, and a change during a run starts it over.
//! Only the linker's own links are replaced; an editor's and a source's stay.

use std::time::Duration;

use client_core::linking::Document;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use super::write::{inferred_links, insert_links, plain_text};
use crate::ctx::Ctx;
use crate::entity::{feed_item, feed_link, lease};
use crate::error::AppResult;
use crate::events::Event;
use crate::linking::{self, Compiled, RELINK_DAYS, RELINK_LEASE};

/// Items linked again per transaction.
const BATCH: u64 = 200;
/// How long a holder keeps the lease between two batches.
const LEASE_SECONDS: i64 = 60;
/// How often a server looks for due work.
const EVERY: Duration = Duration::from_secs(5);

/// What one call did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// Nothing is due, or another server holds the work.
    Idle,
    /// This many items were linked again; more may be due.
    Linked(usize),
}

/// Links the next batch of due items again, if this server may.
pub async fn relink_batch(ctx: &Ctx, holder: &str) -> AppResult<Round> {
    let now = ctx.now();
    if !crate::lease::hold(&ctx.db, RELINK_LEASE, holder, now, LEASE_SECONDS).await? {
        return Ok(Round::Idle);
    }
    let cursor = crate::lease::cursor(&ctx.db, RELINK_LEASE).await?;
    if cursor == 0 {
        return Ok(Round::Idle);
    }
    // Read afresh: this server may not have heard of the change that made the work due yet.
    let compiled = Compiled::new(linking::catalogue(&ctx.db).await?);
    let items = feed_item::Entity::find()
        .filter(feed_item::Column::Id.lt(cursor))
        .filter(feed_item::Column::PublishedAt.gte(now - RELINK_DAYS * crate::time::DAY))
        // Readers' posts carry the links their writer chose.
        .filter(feed_item::Column::UserId.is_null())
        .order_by_desc(feed_item::Column::Id)
        .limit(BATCH)
        .all(&ctx.db)
        .await?;
    let next = items.last().map_or(0, |item| item.id);
    let txn = crate::db::begin_write(&ctx.db).await?;
    let ids: Vec<i64> = items.iter().map(|item| item.id).collect();
    let given: Vec<(i64, String, i64)> = feed_link::Entity::find()
        .select_only()
        .columns([
            feed_link::Column::FeedId,
            feed_link::Column::Kind,
            feed_link::Column::TargetId,
        ])
        .filter(feed_link::Column::FeedId.is_in(ids.clone()))
        .filter(feed_link::Column::Inferred.eq(false))
        .into_tuple()
        .all(&txn)
        .await?;
    feed_link::Entity::delete_many()
        .filter(feed_link::Column::FeedId.is_in(ids))
        .filter(feed_link::Column::Inferred.eq(true))
        .exec(&txn)
        .await?;
    for item in &items {
        let mine: Vec<(&'static str, i64)> = given
            .iter()
            .filter(|(feed, _, _)| *feed == item.id)
            .filter_map(|(_, kind, target)| Some((link_kind(kind)?, *target)))
            .collect();
        let found = compiled.link(&Document {
            lang: &item.lang,
            title: &item.title,
            summary: &item.summary,
            body: &plain_text(&item.content),
        });
        let inferred = inferred_links(&compiled, &found, &mine, item.origin.is_none());
        insert_links(&txn, item.id, &inferred, true, item.published_at).await?;
    }
    // Moves on only from where this batch began: a catalogue change meanwhile set the cursor back
    // to the start, and this batch, linked with the old catalogue, is dropped.
    let moved = lease::Entity::update_many()
        .col_expr(lease::Column::Cursor, Expr::value(next))
        .filter(lease::Column::Name.eq(RELINK_LEASE))
        .filter(lease::Column::Holder.eq(holder))
        .filter(lease::Column::Cursor.eq(cursor))
        .exec(&txn)
        .await?;
    if moved.rows_affected != 1 {
        txn.rollback().await?;
        return Ok(Round::Linked(0));
    }
    txn.commit().await?;
    // Once, when the run is done: content caches live a second, so a batch's links show within
    // one anyway, and a 30-day run need not empty them hundreds of times.
    if items.is_empty() {
        ctx.events.publish(&Event::ContentChanged);
    }
    Ok(Round::Linked(items.len()))
}

/// The static name of a link kind as stored.
fn link_kind(kind: &str) -> Option<&'static str> {
    ["token", "tag", "topic"].into_iter().find(|k| *k == kind)
}

/// Relinks whatever is due, batch after batch, for as long as the server runs.
pub fn spawn(ctx: Ctx, holder: String) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            loop {
                match relink_batch(&ctx, &holder).await {
                    Ok(Round::Linked(n)) if n > 0 => tracing::info!(items = n, "relinked"),
                    Ok(Round::Linked(_)) => {}
                    Ok(Round::Idle) => break,
                    Err(e) => {
                        tracing::warn!("relinking failed: {e}");
                        break;
                    }
                }
            }
        }
    });
}
