//! Keeping prices: every `PRICE_INTERVAL_SECONDS`, one server (a lease, with the last poll's time
//! kept beside it, so several servers poll once an interval between them) asks the provider, or
//! the demo, for every catalogue token with a provider id and writes what makes sense. A fault
//! changes nothing: the last prices stay, with their time.

use std::collections::HashMap;
use std::time::Duration;

use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect, Set};

use super::provider::{BATCH, RawQuote};
use super::{DEMO_SOURCE, LIVE_SOURCE, Markets, demo};
use crate::ctx::Ctx;
use crate::entity::{token, token_price};
use crate::error::AppResult;
use crate::lease;

const LEASE: &str = "prices";
/// Rows written per statement.
const ROWS_AT_ONCE: usize = 500;
/// A price this far (a share of the last one) from the last is held until the next poll says
/// the same: a provider's glitch must not reach readers or fire price alerts.
pub const JUMP_LIMIT: f64 = 0.9;
/// How close the next poll must come to a held price to confirm it.
const CONFIRM_WITHIN: f64 = 0.1;

/// What to do with a new price, given the stored row.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Take it.
    Take,
    /// Keep the last price; hold this one for the next poll to confirm.
    Hold,
}

pub fn judge(last: Option<&token_price::Model>, usd: f64) -> Verdict {
    let Some(last) = last else {
        return Verdict::Take;
    };
    let off = (usd - last.usd).abs() / last.usd;
    let confirmed = last
        .pending_usd
        .is_some_and(|held| (usd - held).abs() / held <= CONFIRM_WITHIN);
    if off <= JUMP_LIMIT || confirmed {
        Verdict::Take
    } else {
        Verdict::Hold
    }
}

/// Between two looks at whether a poll is due (two small queries).
const TICK: Duration = Duration::from_secs(5);

/// Polls on this server for as long as it runs, whenever it holds the lease and an interval has
/// passed since the last poll of any server.
pub fn spawn(ctx: Ctx, markets: Markets, holder: String) {
    tokio::spawn(async move {
        loop {
            if let Err(e) = poll_if_due(&ctx, &markets, &holder).await {
                tracing::warn!("prices: {e:?}");
            }
            tokio::time::sleep(TICK).await;
        }
    });
}

/// One poll if this server holds the lease and the last poll is an interval old; how many
/// tokens' prices were written, or `None` when it was not this server's turn.
pub async fn poll_if_due(ctx: &Ctx, markets: &Markets, holder: &str) -> AppResult<Option<usize>> {
    let interval = markets.settings.price_interval_seconds.max(1) as i64;
    let now = ctx.now();
    if !lease::hold(&ctx.db, LEASE, holder, now, interval * 2 + 30).await? {
        return Ok(None);
    }
    if now - lease::cursor(&ctx.db, LEASE).await? < interval {
        return Ok(None);
    }
    let tokens: Vec<(i64, String)> = token::Entity::find()
        .select_only()
        .column(token::Column::Id)
        .column(token::Column::PriceId)
        .filter(token::Column::PriceId.ne(""))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    // Nothing to price yet (a catalogue still loading): the first priced token is polled at once.
    if tokens.is_empty() {
        return Ok(Some(0));
    }
    // The poll's time first: a provider that hangs is not asked again before the interval.
    lease::set_cursor(&ctx.db, LEASE, holder, now).await?;
    poll(ctx, markets, &tokens).await.map(Some)
}

/// Asks for `tokens` (id, provider id) and writes the answers; gives how many were written.
async fn poll(ctx: &Ctx, markets: &Markets, tokens: &[(i64, String)]) -> AppResult<usize> {
    let mut ids: Vec<String> = tokens.iter().map(|(_, id)| id.clone()).collect();
    ids.sort();
    ids.dedup();
    let now = ctx.now();
    let (quotes, source) = match &markets.provider {
        Some(provider) => {
            let mut quotes = HashMap::new();
            for batch in ids.chunks(BATCH) {
                match provider.quotes(batch).await {
                    Ok(answer) => quotes.extend(answer),
                    // This batch keeps its last prices; the others go on.
                    Err(e) => tracing::warn!("prices: {e}"),
                }
            }
            (quotes, LIVE_SOURCE)
        }
        None => (demo::quotes(&ids, now), DEMO_SOURCE),
    };
    let stored: HashMap<i64, token_price::Model> = token_price::Entity::find()
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|p| (p.token_id, p))
        .collect();
    let rows: Vec<token_price::ActiveModel> = tokens
        .iter()
        .filter_map(|(token_id, price_id)| {
            let quote = quotes.get(price_id)?;
            Some(row(*token_id, stored.get(token_id), quote, source, now))
        })
        .collect();
    for chunk in rows.chunks(ROWS_AT_ONCE) {
        token_price::Entity::insert_many(chunk.to_vec())
            .on_conflict(
                OnConflict::column(token_price::Column::TokenId)
                    .update_columns([
                        token_price::Column::Usd,
                        token_price::Column::Change24hPct,
                        token_price::Column::MarketCap,
                        token_price::Column::Volume24h,
                        token_price::Column::AsOf,
                        token_price::Column::Source,
                        token_price::Column::PendingUsd,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(&ctx.db)
            .await?;
    }
    Ok(rows.len())
}

/// The row to write for a token: the new quote, or the last one with the new price held.
fn row(
    token_id: i64,
    last: Option<&token_price::Model>,
    quote: &RawQuote,
    source: &str,
    now: i64,
) -> token_price::ActiveModel {
    let taken = match (judge(last, quote.usd), last) {
        (Verdict::Hold, Some(last)) => token_price::Model {
            pending_usd: Some(quote.usd),
            ..last.clone()
        },
        _ => token_price::Model {
            token_id,
            usd: quote.usd,
            change_24h_pct: quote.change_24h_pct,
            market_cap: quote.market_cap,
            volume_24h: quote.volume_24h,
            // A provider's time in the future is ours.
            as_of: quote.as_of.map_or(now, |at| at.min(now)),
            source: source.to_owned(),
            pending_usd: None,
        },
    };
    token_price::ActiveModel {
        token_id: Set(taken.token_id),
        usd: Set(taken.usd),
        change_24h_pct: Set(taken.change_24h_pct),
        market_cap: Set(taken.market_cap),
        volume_24h: Set(taken.volume_24h),
        as_of: Set(taken.as_of),
        source: Set(taken.source),
        pending_usd: Set(taken.pending_usd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(usd: f64, pending_usd: Option<f64>) -> token_price::Model {
        token_price::Model {
            token_id: 1,
            usd,
            change_24h_pct: None,
            market_cap: None,
            volume_24h: None,
            as_of: 0,
            source: LIVE_SOURCE.to_owned(),
            pending_usd,
        }
    }

    #[test]
    fn a_jump_waits_for_the_next_poll() {
        assert_eq!(judge(None, 5.0), Verdict::Take);
        assert_eq!(judge(Some(&stored(100.0, None)), 150.0), Verdict::Take);
        assert_eq!(judge(Some(&stored(100.0, None)), 11.0), Verdict::Take);
        assert_eq!(judge(Some(&stored(100.0, None)), 5.0), Verdict::Hold);
        assert_eq!(judge(Some(&stored(100.0, None)), 250.0), Verdict::Hold);
        // Confirmed by the next poll (within 10 % of the held price), or not.
        assert_eq!(judge(Some(&stored(100.0, Some(5.0))), 5.2), Verdict::Take);
        assert_eq!(judge(Some(&stored(100.0, Some(5.0))), 300.0), Verdict::Hold);
    }
}
