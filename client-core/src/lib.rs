//! Blockbrief's shared rules. Every rule the browser and the server must agree on lives here,
//! compiled natively into the server and to WebAssembly (feature `wasm`) for the web client.
//! Nothing here does I/O, reads a clock or draws random numbers.

pub mod alert;
pub mod bot;
pub mod breaking;
pub mod comment;
pub mod constants;
pub mod envelope;
pub mod feed;
pub mod feedback;
pub mod langs;
pub mod link;
pub mod linking;
pub mod locale;
pub mod message;
pub mod pages;
pub mod post;
pub mod price_alert;
pub mod profile;
pub mod question;
pub mod script;
pub mod stream;
pub mod surface;
pub mod syndication;
pub mod task;
pub mod text;
pub mod theme;
pub mod track;
pub mod validate;
#[cfg(feature = "validate")]
pub mod validation;
pub mod vote;

#[cfg(feature = "ts")]
pub mod typescript;
#[cfg(feature = "wasm-glue")]
mod wasm;
