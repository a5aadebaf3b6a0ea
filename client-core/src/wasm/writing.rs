//! What readers write: comments (and how one is shown), posts, questions and answers with their
//! bounties, and profiles with the languages their owner reads.

use wasm_bindgen::prelude::*;

use super::{count, de, flag, seconds, text, to_js};
use crate::{comment, langs, post, profile, question};

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

#[wasm_bindgen(js_name = checkReadLangs, unchecked_return_type = "Message | null")]
pub fn check_read_langs(
    #[wasm_bindgen(unchecked_param_type = "string[]")] list: JsValue,
) -> JsValue {
    let given: Vec<String> = de::from_value(list).unwrap_or_default();
    to_js(&langs::check_read_langs(&given))
}
