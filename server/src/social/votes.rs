//! Readers' votes on items: bullish, bearish, important, lol and toxic (client-core's `vote`).
//! A vote is a row unique per reader, item and kind, and the item's count for a kind moves only
//! when a row really came or went, so a repeated call, or twenty at once, counts once. Accounts
//! younger than `VOTER_MIN_AGE_HOURS` (a day) do not vote.

use client_core::envelope::ErrorKind;
use client_core::vote::{VOTE_KINDS, VoteCounts, apply_vote, in_card_order};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QuerySelect, Set,
    Statement,
};
use serde::Serialize;

use crate::content::feeds::vote_counts;
use crate::ctx::Ctx;
use crate::entity::{feed_item, user, vote};
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct VoteState {
    #[ts(type = "VoteCounts")]
    pub votes: VoteCounts,
    /// The reader's votes on the item, in card order.
    pub mine: Vec<String>,
}

/// The count column of a vote kind.
fn column(kind: &str) -> Option<feed_item::Column> {
    use feed_item::Column as C;
    Some(match kind {
        "bullish" => C::VoteBullish,
        "bearish" => C::VoteBearish,
        "important" => C::VoteImportant,
        "lol" => C::VoteLol,
        "toxic" => C::VoteToxic,
        _ => return None,
    })
}

/// `user_id`'s votes on `feed_id`, in card order.
async fn mine(db: &impl ConnectionTrait, user_id: i64, feed_id: i64) -> AppResult<Vec<String>> {
    let kinds: Vec<String> = vote::Entity::find()
        .select_only()
        .column(vote::Column::Kind)
        .filter(vote::Column::UserId.eq(user_id))
        .filter(vote::Column::FeedId.eq(feed_id))
        .into_tuple()
        .all(db)
        .await?;
    Ok(in_card_order(&kinds))
}

/// A vote: whose, on which item, which kind, set or cleared.
pub struct Cast<'a> {
    pub user_id: i64,
    pub feed_id: i64,
    pub kind: &'a str,
    pub on: bool,
}

/// Sets a vote on or off (bullish and bearish clear each other) if the voter's account is at
/// least `min_age` seconds old; gives the item's counts and the reader's votes.
pub async fn set(ctx: &Ctx, cast: Cast<'_>, min_age: i64) -> AppResult<VoteState> {
    let Cast {
        user_id,
        feed_id,
        kind,
        on,
    } = cast;
    if column(kind).is_none() {
        return Err(AppError::invalid(format!(
            "kind must be one of {}",
            VOTE_KINDS.join(", ")
        )));
    }
    let now = ctx.now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    // The reader's row, locked on PostgreSQL (SQLite writes one at a time anyway): their
    // concurrent bullish and bearish cannot both read "neither" and both be kept.
    let voter = user::Entity::find_by_id(user_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(ErrorKind::LoginRequired)?;
    if now - voter.created_at < min_age {
        return Err(AppError::new(ErrorKind::Forbidden)
            .with_message("New accounts can vote a day after signing up"));
    }
    if feed_item::Entity::find_by_id(feed_id)
        .one(&txn)
        .await?
        .is_none()
    {
        return Err(AppError::not_found("No such news item"));
    }
    let before = mine(&txn, user_id, feed_id).await?;
    let after = apply_vote(&before, kind, on).unwrap_or_else(|| before.clone());
    let mut changed = false;
    for gone in before.iter().filter(|k| !after.contains(k)) {
        let removed = vote::Entity::delete_many()
            .filter(vote::Column::FeedId.eq(feed_id))
            .filter(vote::Column::UserId.eq(user_id))
            .filter(vote::Column::Kind.eq(gone.as_str()))
            .exec(&txn)
            .await?
            .rows_affected;
        changed |= count(&txn, feed_id, gone, -(removed as i64)).await?;
    }
    for came in after.iter().filter(|k| !before.contains(k)) {
        let row = vote::ActiveModel {
            feed_id: Set(feed_id),
            user_id: Set(user_id),
            kind: Set(came.clone()),
            created_at: Set(now),
            ..Default::default()
        };
        use vote::Column as V;
        let added = crate::db::insert_once(&txn, row, [V::FeedId, V::UserId, V::Kind]).await?;
        changed |= count(&txn, feed_id, came, i64::from(added)).await?;
    }
    let row = feed_item::Entity::find_by_id(feed_id)
        .one(&txn)
        .await?
        .ok_or_else(|| AppError::not_found("No such news item"))?;
    let mine = mine(&txn, user_id, feed_id).await?;
    txn.commit().await?;
    ctx.events.publish(&Event::MarksChanged(user_id));
    if changed {
        ctx.events.publish(&Event::Live(Live::Counts(feed_id)));
    }
    Ok(VoteState {
        votes: vote_counts(&row),
        mine,
    })
}

/// Moves the item's count of `kind` by `by`; gives whether it moved.
async fn count(db: &impl ConnectionTrait, feed_id: i64, kind: &str, by: i64) -> AppResult<bool> {
    let Some(column) = column(kind).filter(|_| by != 0) else {
        return Ok(false);
    };
    feed_item::Entity::update_many()
        .col_expr(column, Expr::col(column).add(by))
        .filter(feed_item::Column::Id.eq(feed_id))
        .exec(db)
        .await?;
    Ok(true)
}

/// Bullish and bearish votes on the items naming a token, cast in the last hours.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Sentiment {
    pub bullish: i64,
    pub bearish: i64,
    /// Shares of the two, 0 to 1 (both 0 when nobody voted).
    pub bullish_share: f64,
    pub bearish_share: f64,
    pub hours: i64,
}

#[derive(FromQueryResult)]
struct KindCount {
    kind: String,
    n: i64,
}

/// The token's sentiment over the last `hours`.
pub async fn sentiment(ctx: &Ctx, token_id: i64, hours: i64) -> AppResult<Sentiment> {
    let since = ctx.now() - hours * 3600;
    let rows = KindCount::find_by_statement(Statement::from_sql_and_values(
        ctx.db.get_database_backend(),
        "SELECT v.kind AS kind, COUNT(*) AS n FROM votes v \
         JOIN feed_links l ON l.feed_id = v.feed_id AND l.kind = 'token' AND l.target_id = $1 \
         WHERE v.created_at > $2 AND v.kind IN ('bullish', 'bearish') GROUP BY v.kind",
        [token_id.into(), since.into()],
    ))
    .all(&ctx.db)
    .await?;
    let of = |kind: &str| rows.iter().find(|r| r.kind == kind).map_or(0, |r| r.n);
    let (bullish, bearish) = (of("bullish"), of("bearish"));
    let total = (bullish + bearish).max(1) as f64;
    Ok(Sentiment {
        bullish,
        bearish,
        bullish_share: bullish as f64 / total,
        bearish_share: bearish as f64 / total,
        hours,
    })
}
