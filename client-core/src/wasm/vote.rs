//! Votes for the cards: what setting one does to the reader's votes (shown at once, before the
//! server answers), and the hot and rising scores.

use wasm_bindgen::prelude::*;

use super::{flag, from_js, text, to_js};
use crate::vote::{self, Signals};

/// The reader's votes on an item after setting `kind` on or off; `null` for an unknown kind.
#[wasm_bindgen(js_name = applyVote, unchecked_return_type = "string[] | null")]
pub fn apply_vote(
    #[wasm_bindgen(unchecked_param_type = "string[]")] mine: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] on: JsValue,
) -> JsValue {
    let mine: Vec<String> = from_js(mine, "votes").unwrap_or_default();
    let kind = text(&kind).unwrap_or_default();
    to_js(&vote::apply_vote(&mine, &kind, flag(&on)))
}

#[wasm_bindgen(js_name = hotScore)]
pub fn hot_score(
    #[wasm_bindgen(unchecked_param_type = "Signals")] signals: JsValue,
    age_seconds: f64,
) -> Result<f64, JsError> {
    let signals: Signals = from_js(signals, "signals")?;
    Ok(vote::hot_score(&signals, seconds(age_seconds)))
}

#[wasm_bindgen(js_name = risingScore)]
pub fn rising_score(
    #[wasm_bindgen(unchecked_param_type = "Signals")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Signals")] hour_ago: JsValue,
    age_seconds: f64,
) -> Result<f64, JsError> {
    let now: Signals = from_js(now, "signals")?;
    let hour_ago: Signals = from_js(hour_ago, "signals")?;
    Ok(vote::rising_score(&now, &hour_ago, seconds(age_seconds)))
}

/// Whole seconds from a JavaScript number (NaN reads as 0).
fn seconds(n: f64) -> i64 {
    if n.is_finite() { n as i64 } else { 0 }
}
