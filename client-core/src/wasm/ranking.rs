//! The hot and rising scores the server ranks feeds by, for tools and the shared cases.

use wasm_bindgen::prelude::*;

use super::{from_js, whole_seconds};
use crate::vote::{self, Signals};

#[wasm_bindgen(js_name = hotScore)]
pub fn hot_score(
    #[wasm_bindgen(unchecked_param_type = "Signals")] signals: JsValue,
    age_seconds: f64,
) -> Result<f64, JsError> {
    let signals: Signals = from_js(signals, "signals")?;
    Ok(vote::hot_score(&signals, whole_seconds(age_seconds)))
}

#[wasm_bindgen(js_name = risingScore)]
pub fn rising_score(
    #[wasm_bindgen(unchecked_param_type = "Signals")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Signals")] hour_ago: JsValue,
    age_seconds: f64,
) -> Result<f64, JsError> {
    let now: Signals = from_js(now, "signals")?;
    let hour_ago: Signals = from_js(hour_ago, "signals")?;
    Ok(vote::rising_score(
        &now,
        &hour_ago,
        whole_seconds(age_seconds),
    ))
}
