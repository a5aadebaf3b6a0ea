//! The JavaScript surface of the rules: glue only. Strings arrive as untyped values so a wrong
//! type reads as invalid input instead of failing inside the glue; validation results come back as
//! values, and only malformed objects (a programming fault on the caller's side) throw an `Error`.
//! One module per area, as CatColab's `catlog-wasm` has it; this file keeps the argument readers
//! they share.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

mod alert;
mod calls;
mod de;
mod feedback;
mod feeds;
mod links;
mod page;
mod tasks;
mod validation;
mod vote;

/// The TypeScript of every shape below, generated from the Rust types (`make types`).
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = include_str!("wasm/types.d.ts");

fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A malformed object is the caller's bug: thrown as an `Error` naming what was expected.
fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue, what: &str) -> Result<T, JsError> {
    de::from_value(value).map_err(|_| JsError::new(&format!("Invalid {what}")))
}

/// A string argument, or `None` for any other type.
fn text(value: &JsValue) -> Option<String> {
    value.as_string()
}

/// A non-negative whole number argument; anything else (wrong type, NaN, negative) reads as 0.
fn count(value: &JsValue) -> u32 {
    match value.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => n.min(f64::from(u32::MAX)) as u32,
        _ => 0,
    }
}

/// A boolean argument; anything but `true` reads as false.
fn flag(value: &JsValue) -> bool {
    value.as_bool() == Some(true)
}
