//! Sign-in fields: emails, phone numbers and codes, and when a sign-in may be asked for.

use wasm_bindgen::prelude::*;

use super::{text, to_js};
use crate::validate;

#[wasm_bindgen(js_name = isValidEmail)]
pub fn is_valid_email(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> bool {
    text(&s).is_some_and(|s| validate::is_valid_email(&s))
}

#[wasm_bindgen(js_name = emailError, unchecked_return_type = "Message | null")]
pub fn email_error(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> JsValue {
    to_js(&validate::email_error(&text(&s).unwrap_or_default()))
}

#[wasm_bindgen(js_name = sanitizePhone)]
pub fn sanitize_phone(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> String {
    validate::sanitize_phone(&text(&s).unwrap_or_default())
}

#[wasm_bindgen(js_name = isValidPhone)]
pub fn is_valid_phone(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> bool {
    text(&s).is_some_and(|s| validate::is_valid_phone(&s))
}

#[wasm_bindgen(js_name = otpPhoneNumber)]
pub fn otp_phone_number(
    #[wasm_bindgen(unchecked_param_type = "string")] dial_code: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] phone: JsValue,
) -> String {
    let dial = text(&dial_code).unwrap_or_default();
    validate::otp_phone_number(&dial, &text(&phone).unwrap_or_default())
}

#[wasm_bindgen(js_name = sanitizeCode)]
pub fn sanitize_code(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> String {
    validate::sanitize_code(&text(&s).unwrap_or_default())
}

#[wasm_bindgen(js_name = canSendEmailCode)]
pub fn can_send_email_code(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> bool {
    text(&s).is_some_and(|s| validate::can_send_email_code(&s))
}

#[wasm_bindgen(js_name = canLoginWithEmail)]
pub fn can_login_with_email(
    #[wasm_bindgen(unchecked_param_type = "string")] email: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] code: JsValue,
) -> bool {
    match (text(&email), text(&code)) {
        (Some(email), Some(code)) => validate::can_login_with_email(&email, &code),
        _ => false,
    }
}

#[wasm_bindgen(js_name = canLoginWithPhone)]
pub fn can_login_with_phone(
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] dial_code: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] phone: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] code: JsValue,
) -> bool {
    match (text(&phone), text(&code)) {
        (Some(phone), Some(code)) => {
            validate::can_login_with_phone(text(&dial_code).as_deref(), &phone, &code)
        }
        _ => false,
    }
}
