//! Calls: unwrapping the server's envelope, and checking a call against the endpoint list.

use js_sys::{JSON, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::{count, flag, from_js, text, to_js};
use crate::envelope;
use crate::surface::EndpointError;

#[wasm_bindgen(js_name = unwrapResponse, unchecked_return_type = "Unwrapped")]
pub fn unwrap_response(
    #[wasm_bindgen(unchecked_param_type = "number")] status: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] status_text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] body: JsValue,
) -> JsValue {
    // Only the head is read; `data` is handed back as the very same JS value, never copied.
    let field = |name: &str| {
        body.is_object()
            .then(|| Reflect::get(&body, &JsValue::from_str(name)).ok())
            .flatten()
            .filter(|v| !v.is_undefined())
    };
    let code = field("code")
        .and_then(|c| c.as_f64())
        .filter(|c| c.fract() == 0.0 && c.abs() < 1e15);
    let verdict = envelope::judge_response(
        u16::try_from(count(&status)).unwrap_or(0),
        &text(&status_text).unwrap_or_default(),
        code.map(|c| c as i64),
        field("msg").and_then(|m| m.as_string()).as_deref(),
    );
    let data = match verdict.data {
        envelope::DataFrom::Nothing => JsValue::NULL,
        envelope::DataFrom::Body => body.clone(),
        envelope::DataFrom::BodyData => field("data").unwrap_or(JsValue::NULL),
    };
    let object = |fields: &[(&str, JsValue)]| {
        let o = Object::new();
        for (key, value) in fields {
            let _ = Reflect::set(&o, &JsValue::from_str(key), value);
        }
        JsValue::from(o)
    };
    if verdict.ok {
        return object(&[("ok", JsValue::TRUE), ("data", data)]);
    }
    let error = object(&[
        ("code", JsValue::from(verdict.code)),
        ("message", JsValue::from_str(&verdict.message)),
        ("data", data),
    ]);
    object(&[
        ("ok", JsValue::FALSE),
        ("error", error),
        ("logout", JsValue::from_bool(verdict.logout)),
    ])
}

#[wasm_bindgen(js_name = checkEndpoint, unchecked_return_type = "EndpointError | null")]
pub fn check_endpoint(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] has_token: JsValue,
) -> JsValue {
    let path = text(&path).unwrap_or_default();
    to_js(&envelope::check_endpoint(&path, flag(&has_token)).map(EndpointError::from))
}

/// The locale key of an error code from the catalogue, if it is one.
#[wasm_bindgen(js_name = errorKey)]
pub fn error_key(#[wasm_bindgen(unchecked_param_type = "number")] code: JsValue) -> Option<String> {
    let code = i32::try_from(count(&code)).ok()?;
    envelope::ErrorKind::from_code(code).map(|k| k.key().to_owned())
}

#[wasm_bindgen(js_name = shouldRetry)]
pub fn should_retry(
    #[wasm_bindgen(unchecked_param_type = "number")] failure_count: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] status: JsValue,
) -> bool {
    let status = u16::try_from(count(&status)).unwrap_or(0);
    envelope::should_retry(count(&failure_count), status)
}

#[wasm_bindgen(js_name = deviceHeader)]
pub fn device_header(
    #[wasm_bindgen(unchecked_param_type = "DeviceInfo")] info: JsValue,
) -> Result<String, JsError> {
    // The JS engine writes the JSON: the module then needs no JSON serializer of its own.
    let header = to_js(&envelope::device_header_of(&from_js(info, "device info")?));
    JSON::stringify(&header)
        .map(String::from)
        .map_err(|_| JsError::new("Invalid device info"))
}
