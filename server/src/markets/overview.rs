//! The Markets page's tables: the day's biggest gainers and losers among the catalogue's priced
//! tokens, the tokens most named by the news of the last 24 hours beside their price move, and
//! (first, for a signed-in reader) the tokens they follow.

use std::collections::HashMap;

use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, FromQueryResult, QueryFilter, QueryOrder,
    QuerySelect, Statement,
};
use serde::Serialize;

use super::quotes::Quote;
use crate::ctx::Ctx;
use crate::entity::{follow, token, token_price};
use crate::error::AppResult;
use crate::time::DAY;

/// Rows in each table.
const ROWS: usize = 10;

#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct MarketToken {
    pub id: i64,
    pub symbol: String,
    pub name: String,
    pub logo: String,
    pub price: Quote,
    /// Feed items that named the token in the last 24 hours.
    pub mentions: i64,
}

#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct Overview {
    pub gainers: Vec<MarketToken>,
    pub losers: Vec<MarketToken>,
    pub most_mentioned: Vec<MarketToken>,
    /// The newest quote's time.
    pub as_of: Option<i64>,
}

#[derive(FromQueryResult)]
struct Mentions {
    target_id: i64,
    mentions: i64,
}

/// The priced tokens among `tokens` (all of them when `None`), with their day's mentions.
async fn market_tokens(ctx: &Ctx, tokens: Option<Vec<i64>>) -> AppResult<Vec<MarketToken>> {
    let prices: HashMap<i64, token_price::Model> = token_price::Entity::find()
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|p| (p.token_id, p))
        .collect();
    let mentions: HashMap<i64, i64> = Mentions::find_by_statement(Statement::from_sql_and_values(
        ctx.db.get_database_backend(),
        "SELECT target_id, COUNT(*) AS mentions FROM feed_links \
         WHERE kind = 'token' AND published_at >= $1 GROUP BY target_id",
        [(ctx.now() - DAY).into()],
    ))
    .all(&ctx.db)
    .await?
    .into_iter()
    .map(|m| (m.target_id, m.mentions))
    .collect();
    let mut query = token::Entity::find().order_by_asc(token::Column::Symbol);
    if let Some(ids) = tokens {
        query = query.filter(token::Column::Id.is_in(ids));
    }
    Ok(query
        .all(&ctx.db)
        .await?
        .into_iter()
        .filter_map(|t| {
            let price = prices.get(&t.id)?;
            Some(MarketToken {
                price: Quote::from(price),
                mentions: mentions.get(&t.id).copied().unwrap_or(0),
                id: t.id,
                symbol: t.symbol,
                name: t.name,
                logo: t.logo,
            })
        })
        .collect())
}

/// The tokens `user_id` follows that have a price, by symbol.
pub async fn followed(ctx: &Ctx, user_id: i64) -> AppResult<Vec<MarketToken>> {
    let ids: Vec<i64> = follow::Entity::find()
        .select_only()
        .column(follow::Column::TargetId)
        .filter(follow::Column::UserId.eq(user_id))
        .filter(follow::Column::Kind.eq("token"))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    market_tokens(ctx, Some(ids)).await
}

pub async fn overview(ctx: &Ctx) -> AppResult<Overview> {
    let tokens = market_tokens(ctx, None).await?;
    let change = |t: &MarketToken| t.price.change_24h_pct.unwrap_or(0.0);
    let top = |keep: &dyn Fn(&MarketToken) -> bool, key: &dyn Fn(&MarketToken) -> f64| {
        let mut rows: Vec<MarketToken> = tokens.iter().filter(|t| keep(t)).cloned().collect();
        rows.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.symbol.cmp(&b.symbol)));
        rows.truncate(ROWS);
        rows
    };
    Ok(Overview {
        gainers: top(&|t| change(t) > 0.0, &change),
        losers: top(&|t| change(t) < 0.0, &|t| -change(t)),
        most_mentioned: top(&|t| t.mentions > 0, &|t| t.mentions as f64),
        as_of: tokens.iter().map(|t| t.price.as_of).max(),
    })
}
