//! Price alerts: a line a token's price may cross (`above`, `below`) or a move within a window
//! (`move_pct` over `window_minutes`), and when a crossing fires.
//!
//! Each line fires once when the price reaches it from the other side, then waits until the
//! price has gone back 1 % past it (for a move, until the move is 1 point smaller) before it
//! may fire again, so a price that hovers at the line does not alert on every tick. A line the
//! price is already past when first seen waits the same way: an alert fires on a crossing, not
//! on where the price stands.

use serde::{Deserialize, Serialize};

use crate::message::Message;

/// How far back past its line the price must go before a line fires again, in percent.
pub const REARM_PCT: f64 = 1.0;
/// The window a move is measured over when the rule names none.
pub const WINDOW_MINUTES_DEFAULT: u32 = 60;
pub const WINDOW_MINUTES_MIN: u32 = 5;
pub const WINDOW_MINUTES_MAX: u32 = 1440;
pub const MOVE_PCT_MAX: f64 = 1000.0;
pub const SYMBOL_MAX_CHARS: usize = 20;

pub const MSG_SYMBOL: Message = Message::new(
    "alert.priceSymbol",
    "A price alert names one token symbol (1 to 20 characters)",
);
pub const MSG_NO_LINE: Message = Message::new(
    "alert.priceNoLine",
    "Say when to alert you: a price above or below, or a move in percent",
);
pub const MSG_BAD_NUMBER: Message = Message::new(
    "alert.priceBadNumber",
    "Prices and moves are numbers above zero (a move at most 1000 %)",
);
pub const MSG_CROSSED_LINES: Message = Message::new(
    "alert.priceCrossedLines",
    "The price to rise above must be higher than the price to fall below",
);
pub const MSG_WINDOW: Message = Message::new(
    "alert.priceWindow",
    "A move is measured over 5 to 1440 minutes, and a window needs a move",
);

/// What price to alert on: a token and the lines its price may cross.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct PriceRule {
    /// The token's symbol (`BTC`).
    pub symbol: String,
    /// Fires when the price rises to this (USD).
    pub above: Option<f64>,
    /// Fires when the price falls to this (USD).
    pub below: Option<f64>,
    /// Fires when the price moves this many percent, up or down, within the window.
    pub move_pct: Option<f64>,
    /// The move's window in minutes (default 60).
    pub window_minutes: Option<u32>,
}

impl PriceRule {
    /// The symbol as the catalogue spells it.
    pub fn symbol(&self) -> String {
        self.symbol.trim().to_uppercase()
    }

    pub fn window_minutes(&self) -> u32 {
        self.window_minutes.unwrap_or(WINDOW_MINUTES_DEFAULT)
    }
}

/// Why a price rule cannot be kept, or `None`.
pub fn check_price_rule(rule: &PriceRule) -> Option<Message> {
    let symbol = rule.symbol.trim().chars().count();
    if symbol == 0 || symbol > SYMBOL_MAX_CHARS {
        return Some(MSG_SYMBOL);
    }
    let lines = [rule.above, rule.below, rule.move_pct];
    if lines.iter().all(Option::is_none) {
        return Some(MSG_NO_LINE);
    }
    let positive = |v: f64| v.is_finite() && v > 0.0;
    if lines.iter().flatten().any(|v| !positive(*v))
        || rule.move_pct.is_some_and(|m| m > MOVE_PCT_MAX)
    {
        return Some(MSG_BAD_NUMBER);
    }
    if let (Some(above), Some(below)) = (rule.above, rule.below)
        && above <= below
    {
        return Some(MSG_CROSSED_LINES);
    }
    if let Some(window) = rule.window_minutes
        && (rule.move_pct.is_none() || !(WINDOW_MINUTES_MIN..=WINDOW_MINUTES_MAX).contains(&window))
    {
        return Some(MSG_WINDOW);
    }
    None
}

/// Whether each line may fire now: `None` until the first price is seen (then it is armed only
/// if the price is on its near side).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PriceState {
    pub above: Option<bool>,
    pub below: Option<bool>,
    #[serde(rename = "move")]
    pub moved: Option<bool>,
}

/// A line crossed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Crossing {
    /// The price rose to `line`.
    Above { line: f64, usd: f64 },
    /// The price fell to `line`.
    Below { line: f64, usd: f64 },
    /// The price moved `pct` percent (signed) over the window, at least `line` either way.
    Move { line: f64, usd: f64, pct: f64 },
}

/// One line: whether `value` is past `line` (fire), or back past the re-arm point (arm).
fn watch(armed: Option<bool>, past: bool, back: bool) -> (Option<bool>, bool) {
    match armed {
        // First sight: armed only from the near side; no alert for where the price already is.
        None => (Some(!past), false),
        Some(true) if past => (Some(false), true),
        Some(false) if back => (Some(true), false),
        same => (same, false),
    }
}

/// The state after the price `usd`, and the crossings to alert on. `then_usd` is the price one
/// window ago (`None` when not known yet: a move cannot be measured).
pub fn step(
    rule: &PriceRule,
    state: PriceState,
    usd: f64,
    then_usd: Option<f64>,
) -> (PriceState, Vec<Crossing>) {
    let mut next = state;
    let mut crossings = Vec::new();
    if !usd.is_finite() || usd <= 0.0 {
        return (next, crossings);
    }
    let rearm = REARM_PCT / 100.0;
    if let Some(line) = rule.above {
        let (armed, fired) = watch(state.above, usd >= line, usd <= line * (1.0 - rearm));
        next.above = armed;
        if fired {
            crossings.push(Crossing::Above { line, usd });
        }
    }
    if let Some(line) = rule.below {
        let (armed, fired) = watch(state.below, usd <= line, usd >= line * (1.0 + rearm));
        next.below = armed;
        if fired {
            crossings.push(Crossing::Below { line, usd });
        }
    }
    if let (Some(line), Some(then)) = (rule.move_pct, then_usd.filter(|t| *t > 0.0)) {
        let pct = (usd - then) / then * 100.0;
        let (armed, fired) = watch(
            state.moved,
            pct.abs() >= line,
            pct.abs() <= line - REARM_PCT,
        );
        next.moved = armed;
        if fired {
            crossings.push(Crossing::Move { line, usd, pct });
        }
    }
    (next, crossings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `prices` through the rule from a fresh state; gives the crossings' kinds at each.
    fn run(rule: &PriceRule, prices: &[(f64, Option<f64>)]) -> Vec<Vec<&'static str>> {
        let mut state = PriceState::default();
        prices
            .iter()
            .map(|(usd, then)| {
                let (next, crossings) = step(rule, state, *usd, *then);
                state = next;
                crossings
                    .iter()
                    .map(|c| match c {
                        Crossing::Above { .. } => "above",
                        Crossing::Below { .. } => "below",
                        Crossing::Move { .. } => "move",
                    })
                    .collect()
            })
            .collect()
    }

    fn rule(above: Option<f64>, below: Option<f64>, move_pct: Option<f64>) -> PriceRule {
        PriceRule {
            symbol: "btc".to_owned(),
            above,
            below,
            move_pct,
            window_minutes: None,
        }
    }

    #[test]
    fn a_line_fires_once_per_crossing_and_again_only_after_going_back_one_percent() {
        let above = rule(Some(100.0), None, None);
        let p = |usd: f64| (usd, None);
        let none: Vec<&str> = Vec::new();
        assert_eq!(
            run(
                &above,
                &[
                    p(95.0),
                    p(100.0),
                    p(101.0),
                    p(99.5),
                    p(100.2),
                    p(98.9),
                    p(100.0)
                ]
            ),
            vec![
                none.clone(),
                vec!["above"],
                none.clone(),
                none.clone(),
                none.clone(),
                none.clone(),
                vec!["above"],
            ],
            "fires at the line, not again after a dip under 1 %, again after one past 1 %"
        );
        assert_eq!(
            run(&above, &[p(105.0), p(106.0), p(98.0), p(100.5)]),
            vec![none.clone(), none.clone(), none.clone(), vec!["above"]],
            "already past the line when first seen: waits for a crossing"
        );
        let below = rule(None, Some(50.0), None);
        assert_eq!(
            run(&below, &[p(60.0), p(49.0), p(50.4), p(50.6), p(50.0)]),
            vec![
                none.clone(),
                vec!["below"],
                none.clone(),
                none.clone(),
                vec!["below"]
            ]
        );
        let both = rule(Some(110.0), Some(90.0), None);
        assert_eq!(
            run(&both, &[p(100.0), p(89.0), p(111.0)]),
            vec![none.clone(), vec!["below"], vec!["above"]]
        );
        assert_eq!(
            run(&above, &[p(95.0), p(f64::NAN), p(-1.0), p(100.0)])[3],
            vec!["above"],
            "nonsense prices change nothing"
        );
    }

    #[test]
    fn a_move_fires_when_the_window_s_change_reaches_it_either_way() {
        let moves = rule(None, None, Some(5.0));
        let none: Vec<&str> = Vec::new();
        assert_eq!(
            run(
                &moves,
                &[
                    (100.0, None),
                    (102.0, Some(100.0)),
                    (105.0, Some(100.0)),
                    (104.5, Some(100.0)),
                    (103.9, Some(100.0)),
                    (94.0, Some(100.0)),
                ]
            ),
            vec![
                none.clone(),
                none.clone(),
                vec!["move"],
                none.clone(),
                none.clone(),
                vec!["move"]
            ]
        );
        let (_, crossings) = step(
            &moves,
            PriceState {
                moved: Some(true),
                ..PriceState::default()
            },
            90.0,
            Some(100.0),
        );
        assert_eq!(
            crossings,
            vec![Crossing::Move {
                line: 5.0,
                usd: 90.0,
                pct: -10.0
            }]
        );
    }
}
