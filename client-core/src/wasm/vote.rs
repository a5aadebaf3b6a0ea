//! Votes for the cards: what setting one does to the reader's votes (shown at once, before the
//! server answers).

use wasm_bindgen::prelude::*;

use super::{flag, from_js, text, to_js};
use crate::vote;

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
