//! Alert rules for the editor: why a rule cannot be kept, and how many items of a sample it
//! matches, counted in the browser as the reader types.

use wasm_bindgen::prelude::*;

use super::{from_js, to_js};
use crate::alert::{self, AlertItem, AlertRule};

#[wasm_bindgen(js_name = checkAlertRule, unchecked_return_type = "Message | null")]
pub fn check_alert_rule(
    #[wasm_bindgen(unchecked_param_type = "AlertRule")] rule: JsValue,
) -> Result<JsValue, JsError> {
    let rule: AlertRule = from_js(rule, "alert rule")?;
    Ok(to_js(&alert::check_rule(&rule)))
}

#[wasm_bindgen(js_name = countAlertMatches)]
pub fn count_alert_matches(
    #[wasm_bindgen(unchecked_param_type = "AlertRule")] rule: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AlertItem[]")] items: JsValue,
) -> Result<u32, JsError> {
    let rule: AlertRule = from_js(rule, "alert rule")?;
    let items: Vec<AlertItem> = from_js(items, "alert items")?;
    Ok(u32::try_from(alert::count_matches(&rule, &items)).unwrap_or(u32::MAX))
}
