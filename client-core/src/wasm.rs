//! The JavaScript surface of the rules: glue only. Strings arrive as untyped values so a wrong
//! type reads as invalid input instead of failing inside the glue; validation results come back as
//! values, and only malformed objects (a programming fault on the caller's side) throw an `Error`.
//! One module per area, as CatColab's `catlog-wasm` has it; this file keeps the argument readers
//! they share.
//!
//! The areas make three WebAssembly modules, so that a first visit loads only what its page needs
//! (BENCHMARKS.md has their sizes):
//! - `client_core` (feature `wasm`): calls, pages and locales, feeds, time and votes, which every
//!   page uses;
//! - `client_core_more` (feature `wasm-more`): the rules only some pages use (what readers write,
//!   feedback, alert rules, the sign-in forms, tasks, links inside articles, the ranking scores),
//!   loaded with those pages;
//! - `client_core_link` (feature `wasm-link`): the entity linker, with its automaton and Unicode
//!   tables, which only the Write page and the alert editor load.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[cfg(feature = "wasm")]
mod calls;
mod de;
#[cfg(feature = "wasm")]
mod feeds;
#[cfg(feature = "wasm")]
mod page;
#[cfg(feature = "wasm")]
mod vote;

#[cfg(feature = "wasm-more")]
mod alert;
#[cfg(feature = "wasm-more")]
mod feedback;
#[cfg(feature = "wasm-link")]
mod linking;
#[cfg(feature = "wasm-more")]
mod links;
#[cfg(feature = "wasm-more")]
mod ranking;
#[cfg(feature = "wasm-more")]
mod tasks;
#[cfg(feature = "wasm-more")]
mod validation;
#[cfg(feature = "wasm-more")]
mod writing;

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
#[cfg(any(feature = "wasm", feature = "wasm-more"))]
fn text(value: &JsValue) -> Option<String> {
    value.as_string()
}

/// A non-negative whole number argument; anything else (wrong type, NaN, negative) reads as 0.
#[cfg(any(feature = "wasm", feature = "wasm-more"))]
fn count(value: &JsValue) -> u32 {
    match value.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => n.min(f64::from(u32::MAX)) as u32,
        _ => 0,
    }
}

/// Whole seconds from a JavaScript number; NaN and the infinities read as 0.
#[cfg(any(feature = "wasm", feature = "wasm-more"))]
fn whole_seconds(n: f64) -> i64 {
    if n.is_finite() { n as i64 } else { 0 }
}

/// Unix seconds; anything that is not a finite number reads as 0.
#[cfg(any(feature = "wasm", feature = "wasm-more"))]
fn seconds(value: &JsValue) -> i64 {
    value.as_f64().map_or(0, whole_seconds)
}

/// A boolean argument; anything but `true` reads as false.
#[cfg(any(feature = "wasm", feature = "wasm-more"))]
fn flag(value: &JsValue) -> bool {
    value.as_bool() == Some(true)
}
