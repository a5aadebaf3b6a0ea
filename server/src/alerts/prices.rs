//! Price alerts. When a poll has brought a token a newer quote, the server holding the alerts
//! lease steps each alert watching it with client-core's `price_alert::step`; the new state and
//! its crossings are written in one transaction that only succeeds from the state it read, so a
//! crossing is written once however many servers try, and none is lost to a crash. Then due
//! crossings go to the reader's browsers and email, after the alert's quiet hours. A move is
//! measured against `price_ticks`: watched tokens' prices, kept for a day.

use std::collections::{HashMap, HashSet};

use client_core::price_alert::{Crossing, PriceRule, PriceState, WINDOW_MINUTES_MAX, step};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use super::push::{Notice, Urgency, browsers};
use super::{Alerts, quiet};
use crate::ctx::Ctx;
use crate::entity::{
    account, price_alert_firing, price_alert_state, price_tick, token, token_price, user,
};
use crate::error::{AppError, AppResult};
use crate::i18n::t;
use crate::mail::Mailer;
use crate::time::HOUR;

/// Where price alerts go: the rest need an item to send.
pub const DELIVERIES: [&str; 2] = ["push", "email"];
const SENDS_AT_ONCE: u64 = 100;
/// How long ticks are kept: the longest window, and an hour to find a price just before it.
pub(super) const TICKS_KEPT: i64 = WINDOW_MINUTES_MAX as i64 * 60 + HOUR;

/// One reader's price alert, as the rule set keeps it.
pub struct Watch {
    pub alert_id: i64,
    pub user_id: i64,
    pub rule: PriceRule,
    pub deliver: String,
    /// Quiet hours, minutes after midnight in the reader's time zone.
    pub quiet: Option<(i64, i64)>,
}

/// Steps the alerts whose token has a newer quote; gives how many were stepped.
pub async fn check(ctx: &Ctx, alerts: &Alerts) -> AppResult<usize> {
    let rules = alerts.rules(ctx).await?;
    if rules.prices.is_empty() {
        return Ok(0);
    }
    let symbols: HashSet<String> = rules.prices.iter().map(|w| w.rule.symbol()).collect();
    let tokens: Vec<(i64, String)> = token::Entity::find()
        .select_only()
        .column(token::Column::Id)
        .column(token::Column::Symbol)
        .filter(token::Column::Symbol.is_in(symbols))
        .into_tuple()
        .all(&ctx.db)
        .await?;
    let quotes: HashMap<i64, token_price::Model> = token_price::Entity::find()
        .filter(token_price::Column::TokenId.is_in(tokens.iter().map(|t| t.0)))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|q| (q.token_id, q))
        .collect();
    let by_symbol: HashMap<String, &token_price::Model> = tokens
        .iter()
        .filter_map(|(id, symbol)| Some((symbol.clone(), quotes.get(id)?)))
        .collect();
    let states: HashMap<i64, price_alert_state::Model> = price_alert_state::Entity::find()
        .filter(price_alert_state::Column::AlertId.is_in(rules.prices.iter().map(|w| w.alert_id)))
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(|s| (s.alert_id, s))
        .collect();
    // Only alerts whose token has a quote newer than the one they last saw: most rounds none, and
    // then nothing is written.
    let stale: Vec<(&Watch, &token_price::Model)> = rules
        .prices
        .iter()
        .filter_map(|watch| {
            let quote = *by_symbol.get(&watch.rule.symbol())?;
            let seen = states.get(&watch.alert_id).map(|s| s.as_of);
            seen.is_none_or(|as_of| as_of < quote.as_of)
                .then_some((watch, quote))
        })
        .collect();
    let moving: HashMap<i64, &token_price::Model> = stale
        .iter()
        .filter(|(watch, _)| watch.rule.move_pct.is_some())
        .map(|(_, quote)| (quote.token_id, *quote))
        .collect();
    keep_ticks(ctx, moving.into_values()).await?;
    let mut stepped = 0;
    for (watch, quote) in stale {
        let last = states.get(&watch.alert_id);
        let state: PriceState = last
            .and_then(|s| serde_json::from_str(&s.state).ok())
            .unwrap_or_default();
        let then = match watch.rule.move_pct {
            Some(_) => {
                let window = i64::from(watch.rule.window_minutes()) * 60;
                price_then(ctx, quote.token_id, quote.as_of - window, window).await?
            }
            None => None,
        };
        let (next, crossings) = step(&watch.rule, state, quote.usd, then);
        if record(ctx, watch, last, quote.as_of, next, &crossings).await? {
            stepped += 1;
        }
    }
    Ok(stepped)
}

/// Keeps each quote as a tick (once per token and time).
async fn keep_ticks<'a>(
    ctx: &Ctx,
    quotes: impl Iterator<Item = &'a token_price::Model>,
) -> AppResult<()> {
    let rows: Vec<price_tick::ActiveModel> = quotes
        .map(|q| price_tick::ActiveModel {
            token_id: Set(q.token_id),
            at: Set(q.as_of),
            usd: Set(q.usd),
            ..Default::default()
        })
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    price_tick::Entity::insert_many(rows)
        .on_conflict(
            OnConflict::columns([price_tick::Column::TokenId, price_tick::Column::At])
                .do_nothing()
                .to_owned(),
        )
        .do_nothing()
        .exec(&ctx.db)
        .await?;
    Ok(())
}

/// The token's price at `at` (the latest tick at or before it, if no older than `window` more).
async fn price_then(ctx: &Ctx, token_id: i64, at: i64, window: i64) -> AppResult<Option<f64>> {
    Ok(price_tick::Entity::find()
        .filter(price_tick::Column::TokenId.eq(token_id))
        .filter(price_tick::Column::At.lte(at))
        .filter(price_tick::Column::At.gt(at - window))
        .order_by_desc(price_tick::Column::At)
        .one(&ctx.db)
        .await?
        .map(|t| t.usd))
}

/// Writes the alert's new state and its crossings, if its state is still `last` (another server
/// may have stepped it meanwhile); gives whether it wrote.
async fn record(
    ctx: &Ctx,
    watch: &Watch,
    last: Option<&price_alert_state::Model>,
    as_of: i64,
    next: PriceState,
    crossings: &[Crossing],
) -> AppResult<bool> {
    let state = serde_json::to_string(&next).map_err(AppError::internal)?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let written = match last {
        Some(last) => {
            price_alert_state::Entity::update_many()
                .col_expr(price_alert_state::Column::State, Expr::value(state))
                .col_expr(price_alert_state::Column::AsOf, Expr::value(as_of))
                .filter(price_alert_state::Column::AlertId.eq(watch.alert_id))
                .filter(price_alert_state::Column::AsOf.eq(last.as_of))
                .exec(&txn)
                .await?
                .rows_affected
        }
        None => {
            price_alert_state::Entity::insert(price_alert_state::ActiveModel {
                alert_id: Set(watch.alert_id),
                state: Set(state),
                as_of: Set(as_of),
            })
            .on_conflict(
                OnConflict::column(price_alert_state::Column::AlertId)
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&txn)
            .await?
        }
    };
    if written == 0 {
        txn.rollback().await?;
        return Ok(false);
    }
    let now = ctx.now();
    let due_at = match watch.quiet {
        Some((from, to)) => quiet::zones(ctx, std::iter::once(watch.user_id))
            .await?
            .remove(&watch.user_id)
            .and_then(|zone| quiet::held_until(now, &zone, from, to))
            .unwrap_or(now),
        None => now,
    };
    for crossing in crossings {
        price_alert_firing::ActiveModel {
            alert_id: Set(watch.alert_id),
            user_id: Set(watch.user_id),
            symbol: Set(watch.rule.symbol()),
            crossing: Set(serde_json::to_string(crossing).map_err(AppError::internal)?),
            window_minutes: Set(i64::from(watch.rule.window_minutes())),
            deliver: Set(watch.deliver.clone()),
            created_at: Set(now),
            due_at: Set(due_at),
            sent_at: Set(None),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(true)
}

/// `$97,000.50`; below a dollar, four significant digits (`$0.0001234`).
fn usd(value: f64) -> String {
    if value >= 1.0 {
        let cents = (value * 100.0).round() as u64;
        let whole = (cents / 100).to_string();
        let mut grouped = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        format!("${grouped}.{:02}", cents % 100)
    } else {
        let decimals = (3.0 - value.log10().floor()).clamp(2.0, 12.0) as usize;
        format!("${value:.decimals$}")
    }
}

/// The crossing as a notification's title and body, in `locale`.
fn words(locale: &str, symbol: &str, crossing: &Crossing, window_minutes: i64) -> (String, String) {
    let (title, now) = match crossing {
        Crossing::Above { line, usd: now } => (
            t(
                locale,
                "push.priceAbove",
                &[("symbol", symbol), ("line", &usd(*line))],
            ),
            now,
        ),
        Crossing::Below { line, usd: now } => (
            t(
                locale,
                "push.priceBelow",
                &[("symbol", symbol), ("line", &usd(*line))],
            ),
            now,
        ),
        Crossing::Move { usd: now, pct, .. } => (
            t(
                locale,
                "push.priceMove",
                &[
                    ("symbol", symbol),
                    ("pct", &format!("{pct:+.1}%")),
                    ("minutes", &window_minutes.to_string()),
                ],
            ),
            now,
        ),
    };
    (title, t(locale, "push.priceNow", &[("usd", &usd(*now))]))
}

/// Sends due crossings to the reader's browsers and email; gives how many went. Each is marked
/// sent after its sends (a server that dies midway sends it again, never not at all); an email
/// that fails is logged, not retried, so the browsers are not told twice.
pub async fn send_due(ctx: &Ctx, alerts: &Alerts, mailer: &Mailer) -> AppResult<usize> {
    let now = ctx.now();
    let due = price_alert_firing::Entity::find()
        .filter(price_alert_firing::Column::SentAt.is_null())
        .filter(price_alert_firing::Column::DueAt.lte(now))
        .order_by_asc(price_alert_firing::Column::Id)
        .limit(SENDS_AT_ONCE)
        .all(&ctx.db)
        .await?;
    for firing in &due {
        let reader = user::Entity::find_by_id(firing.user_id)
            .one(&ctx.db)
            .await?;
        let crossing = serde_json::from_str::<Crossing>(&firing.crossing);
        if let (Some(reader), Ok(crossing)) = (reader, crossing) {
            send(ctx, alerts, mailer, firing, &reader, &crossing).await?;
        }
        price_alert_firing::Entity::update_many()
            .col_expr(price_alert_firing::Column::SentAt, Expr::value(now))
            .filter(price_alert_firing::Column::Id.eq(firing.id))
            .exec(&ctx.db)
            .await?;
    }
    Ok(due.len())
}

async fn send(
    ctx: &Ctx,
    alerts: &Alerts,
    mailer: &Mailer,
    firing: &price_alert_firing::Model,
    reader: &user::Model,
    crossing: &Crossing,
) -> AppResult<()> {
    let locale = reader.locale.as_str();
    let (title, body) = words(locale, &firing.symbol, crossing, firing.window_minutes);
    let url = format!("{}/{locale}/token/{}", ctx.public_url(), firing.symbol);
    let wants = |place: &str| firing.deliver.split(',').any(|d| d == place);
    if wants("push") {
        let notice = Notice {
            title: title.clone(),
            body: body.clone(),
            url: url.clone(),
            feed_id: None,
        };
        for browser in &browsers(ctx, reader.id).await? {
            alerts
                .pusher
                .send(ctx, browser, &notice, Urgency::High)
                .await?;
        }
    }
    if wants("email") {
        let address = account::Entity::find()
            .filter(account::Column::UserId.eq(reader.id))
            .filter(account::Column::Kind.eq("email"))
            .one(&ctx.db)
            .await?;
        if let Some(address) = address
            && let Err(e) = mailer
                .send_notice(&address.identifier, locale, &title, &[body, url])
                .await
        {
            tracing::warn!("price alert {} not emailed: {e}", firing.id);
        }
    }
    Ok(())
}

/// Forgets where an alert's lines stood and its unsent crossings: it was changed or deleted.
pub async fn forget(ctx: &Ctx, alert_id: i64) -> AppResult<()> {
    price_alert_state::Entity::delete_by_id(alert_id)
        .exec(&ctx.db)
        .await?;
    price_alert_firing::Entity::delete_many()
        .filter(price_alert_firing::Column::AlertId.eq(alert_id))
        .filter(price_alert_firing::Column::SentAt.is_null())
        .exec(&ctx.db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::usd;

    #[test]
    fn prices_read_as_dollars() {
        assert_eq!(usd(97_000.5), "$97,000.50");
        assert_eq!(usd(1_234_567.891), "$1,234,567.89");
        assert_eq!(usd(3.0), "$3.00");
        assert_eq!(usd(0.5), "$0.5000");
        assert_eq!(usd(0.000_123_4), "$0.0001234");
    }
}
