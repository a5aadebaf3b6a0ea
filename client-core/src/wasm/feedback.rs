//! Feedback: its text, the character counter and the images.

use wasm_bindgen::prelude::*;

use super::{count, de, text, to_js};
use crate::feedback;

#[wasm_bindgen(js_name = validateFeedback, unchecked_return_type = "FeedbackCheck")]
pub fn validate_feedback(
    #[wasm_bindgen(unchecked_param_type = "FeedbackForm")] form: JsValue,
) -> JsValue {
    match de::from_value::<feedback::FeedbackForm>(form) {
        Ok(form) => to_js(&feedback::validate_feedback(&form)),
        Err(_) => to_js(&feedback::FeedbackCheck {
            ok: false,
            errors: vec![feedback::FieldError::new(
                "form",
                feedback::MSG_FORM_INVALID,
            )],
        }),
    }
}

#[wasm_bindgen(js_name = contentCounter, unchecked_return_type = "ContentCounter")]
pub fn content_counter(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> JsValue {
    to_js(&feedback::content_counter(&text(&s).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkImage, unchecked_return_type = "Message | null")]
pub fn check_image(
    #[wasm_bindgen(unchecked_param_type = "ImageFile")] file: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] already_selected: JsValue,
) -> JsValue {
    let already = usize::try_from(count(&already_selected)).unwrap_or(usize::MAX);
    let message = match de::from_value::<feedback::ImageFile>(file) {
        Ok(file) => feedback::check_image(&file, already),
        Err(_) => Some(feedback::MSG_IMAGE_BAD_TYPE),
    };
    to_js(&message)
}
