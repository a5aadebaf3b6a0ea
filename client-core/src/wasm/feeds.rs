//! Feeds and tracking: tabs, card layouts, time, languages read, feeds' addresses and stream subjects.

use wasm_bindgen::prelude::*;

use super::{count, de, seconds, text, to_js};
use crate::surface::{self, Outcome};
use crate::{feed, langs, locale, stream, syndication, track};

#[wasm_bindgen(js_name = tabKinds, unchecked_return_type = "FeedKind[] | null")]
pub fn tab_kinds(#[wasm_bindgen(unchecked_param_type = "FeedTab")] tab: JsValue) -> JsValue {
    to_js(&text(&tab).and_then(|t| feed::tab_kinds(&t)).flatten())
}

#[wasm_bindgen(js_name = cardLayout, unchecked_return_type = "CardLayout")]
pub fn card_layout(
    #[wasm_bindgen(unchecked_param_type = "string")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] summary: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tags: JsValue,
) -> JsValue {
    let tags = usize::try_from(count(&tags)).unwrap_or(usize::MAX);
    let (kind, summary) = (
        text(&kind).unwrap_or_default(),
        text(&summary).unwrap_or_default(),
    );
    to_js(&feed::card_layout(&kind, &summary, tags))
}

#[wasm_bindgen(js_name = matchPage, unchecked_return_type = "PageMatch | null")]
pub fn match_page(#[wasm_bindgen(unchecked_param_type = "string")] path: JsValue) -> JsValue {
    to_js(&text(&path).and_then(|p| crate::pages::match_page(&p)))
}

#[wasm_bindgen(js_name = timeAgo, unchecked_return_type = "TimeAgo")]
pub fn time_ago(
    #[wasm_bindgen(unchecked_param_type = "number")] published: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
) -> JsValue {
    to_js(&feed::time_ago(seconds(&published), seconds(&now)))
}

#[wasm_bindgen(js_name = trackBatchLen)]
pub fn track_batch_len(
    #[wasm_bindgen(unchecked_param_type = "number[]")] entry_bytes: JsValue,
) -> u32 {
    let sizes: Vec<usize> = de::from_value::<Vec<f64>>(entry_bytes)
        .unwrap_or_default()
        .into_iter()
        .map(|n| {
            if n.is_finite() && n >= 0.0 {
                n as usize
            } else {
                usize::MAX
            }
        })
        .collect();
    u32::try_from(track::batch_len(&sizes)).unwrap_or(u32::MAX)
}

#[wasm_bindgen(js_name = cutDescription)]
pub fn cut_description(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> String {
    locale::cut_description(&text(&s).unwrap_or_default())
}

/// The spec's numbers that the interface needs (countdowns, limits, lists, error codes).
#[wasm_bindgen(unchecked_return_type = "Constants")]
pub fn constants() -> JsValue {
    to_js(&surface::constants())
}

#[wasm_bindgen(js_name = defaultReadLangs, unchecked_return_type = "Locale[]")]
pub fn default_read_langs(#[wasm_bindgen(unchecked_param_type = "string")] ui: JsValue) -> JsValue {
    to_js(&langs::default_read_langs(&text(&ui).unwrap_or_default()))
}

#[wasm_bindgen(js_name = feedPath)]
pub fn feed_path(
    #[wasm_bindgen(unchecked_param_type = "string")] locale: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"tag\" | \"token\" | \"channel\" | null")]
    kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    atom: bool,
) -> String {
    syndication::feed_path(
        &text(&locale).unwrap_or_default(),
        text(&kind).as_deref(),
        &text(&name).unwrap_or_default(),
        atom,
    )
}

/// A stream's subjects as the server reads them (`home,tag:btc`), or why they cannot be.
#[wasm_bindgen(js_name = streamSubjects, unchecked_return_type = "Outcome<string>")]
pub fn stream_subjects(#[wasm_bindgen(unchecked_param_type = "string")] list: JsValue) -> JsValue {
    let result = stream::parse_subjects(&text(&list).unwrap_or_default());
    to_js(&Outcome::of(
        result.map(|subjects| stream::write_subjects(&subjects)),
        |e| e.text.to_owned(),
    ))
}
