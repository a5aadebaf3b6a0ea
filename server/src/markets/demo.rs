//! The demo price history `make run` plays when no price provider is set: for each coin in
//! `server/demo/prices.json` (shipped with the demo content), a price that wanders smoothly
//! around its base over hours, days and weeks, the same on every server and at every start, so a
//! new user sees prices, changes and charts move. Every quote from here is labelled demo.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::Deserialize;

use super::provider::RawQuote;

#[derive(Deserialize)]
struct DemoCoin {
    usd: f64,
    market_cap: f64,
    volume_24h: f64,
}

static COINS: LazyLock<HashMap<String, DemoCoin>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../demo/prices.json")).unwrap_or_default()
});

/// Waves of the walk: (period in seconds, amplitude of the log price).
const WAVES: [(f64, f64); 5] = [
    (3_600.0 * 5.0, 0.006),
    (86_400.0 * 0.8, 0.018),
    (86_400.0 * 3.3, 0.035),
    (86_400.0 * 11.0, 0.06),
    (86_400.0 * 29.0, 0.09),
];

/// A phase for each wave from the coin's id, so coins do not move together.
fn phases(id: &str) -> [f64; 5] {
    let mut seed = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    std::array::from_fn(|_| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 11) as f64 / (1u64 << 53) as f64 * std::f64::consts::TAU
    })
}

fn factor(id: &str, at: i64) -> f64 {
    let phases = phases(id);
    let walk: f64 = WAVES
        .iter()
        .zip(phases)
        .map(|((period, amplitude), phase)| {
            amplitude * (at as f64 / period * std::f64::consts::TAU + phase).sin()
        })
        .sum();
    walk.exp()
}

/// The coin's demo price at `at`, if the demo has it.
pub fn price(id: &str, at: i64) -> Option<f64> {
    COINS.get(id).map(|coin| coin.usd * factor(id, at))
}

/// Demo quotes at `now` for the ids the demo has.
pub fn quotes(ids: &[String], now: i64) -> HashMap<String, RawQuote> {
    ids.iter()
        .filter_map(|id| {
            let coin = COINS.get(id)?;
            let (usd, before) = (price(id, now)?, price(id, now - 86_400)?);
            let quote = RawQuote {
                usd,
                change_24h_pct: Some((usd / before - 1.0) * 100.0),
                market_cap: Some(coin.market_cap * usd / coin.usd),
                volume_24h: Some(coin.volume_24h * factor(&format!("{id}/volume"), now)),
                as_of: Some(now),
            };
            Some((id.clone(), quote))
        })
        .collect()
}

/// The demo chart of `id` over `days` days up to `now`: 288 points a day for one day, hourly for
/// a week, every four hours for a month.
pub fn history(id: &str, days: i64, now: i64) -> Option<Vec<(i64, f64)>> {
    let step = match days {
        1 => 300,
        7 => 3_600,
        _ => 14_400,
    };
    let start = now - days * 86_400;
    (0..=days * 86_400 / step)
        .map(|n| {
            let at = start + n * step;
            price(id, at).map(|usd| (at, usd))
        })
        .collect()
}
