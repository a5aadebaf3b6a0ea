//! Feeds and tracking: tabs, card layouts, comments, posts, questions, languages read, feeds' addresses and stream subjects.

use wasm_bindgen::prelude::*;

use super::{count, de, flag, text, to_js};
use crate::surface::{self, Outcome};
use crate::{comment, feed, langs, locale, post, profile, question, stream, syndication, track};

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

/// Unix seconds; anything that is not a finite number reads as 0.
fn seconds(value: &JsValue) -> i64 {
    value
        .as_f64()
        .filter(|n| n.is_finite())
        .map_or(0, |n| n as i64)
}

#[wasm_bindgen(js_name = checkComment, unchecked_return_type = "CommentCheck")]
pub fn check_comment(#[wasm_bindgen(unchecked_param_type = "string")] content: JsValue) -> JsValue {
    to_js(&comment::check_comment(&text(&content).unwrap_or_default()))
}

#[wasm_bindgen(js_name = mentionQuery, unchecked_return_type = "string | null")]
pub fn mention_query(
    #[wasm_bindgen(unchecked_param_type = "string")] before_caret: JsValue,
) -> JsValue {
    to_js(&comment::mention_query(
        &text(&before_caret).unwrap_or_default(),
    ))
}

#[wasm_bindgen(js_name = canEditComment)]
pub fn can_edit_comment(
    #[wasm_bindgen(unchecked_param_type = "number")] created_at: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
) -> bool {
    comment::can_edit_comment(seconds(&created_at), seconds(&now))
}

#[wasm_bindgen(js_name = commentSegments, unchecked_return_type = "Segment[]")]
pub fn comment_segments(
    #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
) -> JsValue {
    to_js(&comment::comment_segments(
        &text(&content).unwrap_or_default(),
    ))
}

#[wasm_bindgen(js_name = checkNickname, unchecked_return_type = "Message | null")]
pub fn check_nickname(
    #[wasm_bindgen(unchecked_param_type = "string")] nickname: JsValue,
) -> JsValue {
    to_js(&profile::check_nickname(
        &text(&nickname).unwrap_or_default(),
    ))
}

#[wasm_bindgen(js_name = checkBio, unchecked_return_type = "Message | null")]
pub fn check_bio(#[wasm_bindgen(unchecked_param_type = "string")] bio: JsValue) -> JsValue {
    to_js(&profile::check_bio(&text(&bio).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkQuestion, unchecked_return_type = "Message | null")]
pub fn check_question(
    #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tags: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null")] bounty: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] balance: JsValue,
) -> JsValue {
    let bounty = bounty.as_f64().filter(|b| b.is_finite()).map(|b| b as i64);
    to_js(&question::check_question(
        &text(&title).unwrap_or_default(),
        &text(&content).unwrap_or_default(),
        count(&tags) as usize,
        bounty,
        seconds(&balance),
    ))
}

#[wasm_bindgen(js_name = checkAnswer, unchecked_return_type = "Message | null")]
pub fn check_answer(#[wasm_bindgen(unchecked_param_type = "string")] answer: JsValue) -> JsValue {
    to_js(&question::check_answer(&text(&answer).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkPost, unchecked_return_type = "Message | null")]
pub fn check_post(
    #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tags: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tokens: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] images: JsValue,
) -> JsValue {
    to_js(&post::check_post(
        &text(&title).unwrap_or_default(),
        &text(&content).unwrap_or_default(),
        count(&tags) as usize,
        count(&tokens) as usize,
        count(&images) as usize,
    ))
}

#[wasm_bindgen(js_name = settleBounty, unchecked_return_type = "Settlement")]
pub fn settle_bounty(
    #[wasm_bindgen(unchecked_param_type = "number")] bounty: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] has_answer: JsValue,
) -> JsValue {
    to_js(&question::settle_bounty(
        seconds(&bounty),
        flag(&has_answer),
    ))
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

#[wasm_bindgen(js_name = checkReadLangs, unchecked_return_type = "Message | null")]
pub fn check_read_langs(
    #[wasm_bindgen(unchecked_param_type = "string[]")] list: JsValue,
) -> JsValue {
    let given: Vec<String> = de::from_value(list).unwrap_or_default();
    to_js(&langs::check_read_langs(&given))
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
