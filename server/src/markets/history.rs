//! A token's chart over 1, 7 or 30 days. From the provider, fetched when a reader asks and kept
//! (a day's chart five minutes, longer ones an hour); a reader never waits for the provider: they
//! get what is kept, and the fetch happens beside their request, once however many ask. Without
//! a provider, the demo's history.

use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, Set};
use serde::Serialize;

use super::{Markets, demo};
use crate::ctx::Ctx;
use crate::entity::{price_history, token};
use crate::error::{AppError, AppResult};

/// The ranges a chart covers.
pub const RANGES: [i64; 3] = [1, 7, 30];

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct History {
    pub symbol: String,
    pub days: i64,
    /// `[unix seconds, usd]`, oldest first; empty while the first fetch is on its way.
    #[schemars(with = "Vec<[f64; 2]>")]
    pub points: Vec<(i64, f64)>,
    /// When the chart was fetched.
    pub as_of: Option<i64>,
    pub demo: bool,
}

/// How long a kept chart is fresh.
fn fresh_for(days: i64) -> i64 {
    if days == 1 { 300 } else { 3_600 }
}

pub async fn history(ctx: &Ctx, markets: &Markets, symbol: &str, days: i64) -> AppResult<History> {
    if !RANGES.contains(&days) {
        return Err(AppError::invalid("days must be 1, 7 or 30"));
    }
    let found = token::Entity::find()
        .filter(token::Column::Symbol.eq(symbol.to_uppercase()))
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::not_found("No such token"))?;
    let now = ctx.now();
    let mut answer = History {
        symbol: found.symbol.clone(),
        days,
        points: Vec::new(),
        as_of: None,
        demo: markets.provider.is_none(),
    };
    if found.price_id.is_empty() {
        return Ok(answer);
    }
    let Some(provider) = markets.provider.clone() else {
        if let Some(points) = demo::history(&found.price_id, days, now) {
            answer.points = points;
            answer.as_of = Some(now);
        }
        return Ok(answer);
    };
    let kept = kept_chart(ctx, found.id, days).await?;
    if let Some(kept) = &kept {
        answer.points = serde_json::from_str(&kept.points).map_err(AppError::internal)?;
        answer.as_of = Some(kept.fetched_at);
    }
    let stale = kept.is_none_or(|k| now - k.fetched_at >= fresh_for(days));
    let key = (found.id, days);
    let first = stale && markets.fetching.lock().is_ok_and(|mut f| f.insert(key));
    if first {
        let (ctx, markets) = (ctx.clone(), markets.clone());
        tokio::spawn(async move {
            // A fetch that ended after this request read the kept chart, and before it looked
            // for fetches under way, has kept a fresh one already.
            let fresh = kept_chart(&ctx, found.id, days)
                .await
                .ok()
                .flatten()
                .is_some_and(|k| ctx.now() - k.fetched_at < fresh_for(days));
            if !fresh {
                match provider.chart(&found.price_id, days).await {
                    Ok(points) => {
                        if let Err(e) = keep(&ctx, found.id, days, &points).await {
                            tracing::warn!("price chart of {}: {e:?}", found.symbol);
                        }
                    }
                    Err(e) => tracing::warn!("price chart of {}: {e}", found.symbol),
                }
            }
            if let Ok(mut fetching) = markets.fetching.lock() {
                fetching.remove(&key);
            }
        });
    }
    Ok(answer)
}

async fn kept_chart(
    ctx: &Ctx,
    token_id: i64,
    days: i64,
) -> AppResult<Option<price_history::Model>> {
    Ok(price_history::Entity::find()
        .filter(price_history::Column::TokenId.eq(token_id))
        .filter(price_history::Column::Days.eq(days))
        .one(&ctx.db)
        .await?)
}

async fn keep(ctx: &Ctx, token_id: i64, days: i64, points: &[(i64, f64)]) -> AppResult<()> {
    let row = price_history::ActiveModel {
        token_id: Set(token_id),
        days: Set(days),
        points: Set(serde_json::to_string(points).map_err(AppError::internal)?),
        fetched_at: Set(ctx.now()),
        ..Default::default()
    };
    price_history::Entity::insert(row)
        .on_conflict(
            OnConflict::columns([price_history::Column::TokenId, price_history::Column::Days])
                .update_columns([
                    price_history::Column::Points,
                    price_history::Column::FetchedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&ctx.db)
        .await?;
    Ok(())
}
