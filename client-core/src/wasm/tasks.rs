//! Tasks: what a task's button says and what pressing it does.

use wasm_bindgen::prelude::*;

use super::{from_js, text, to_js};
use crate::task;

#[wasm_bindgen(js_name = taskButton, unchecked_return_type = "TaskButton")]
pub fn task_button(
    #[wasm_bindgen(unchecked_param_type = "TaskContext")] ctx: JsValue,
) -> Result<JsValue, JsError> {
    Ok(to_js(&task::task_button(&from_js(ctx, "task context")?)))
}

#[wasm_bindgen(js_name = taskPress, unchecked_return_type = "TaskPress")]
pub fn task_press(
    #[wasm_bindgen(unchecked_param_type = "TaskContext")] ctx: JsValue,
) -> Result<JsValue, JsError> {
    Ok(to_js(&task::task_press(&from_js(ctx, "task context")?)))
}

#[wasm_bindgen(js_name = webTaskPress, unchecked_return_type = "TaskPress")]
pub fn web_task_press(
    #[wasm_bindgen(unchecked_param_type = "TaskContext")] ctx: JsValue,
) -> Result<JsValue, JsError> {
    Ok(to_js(&task::web_task_press(&from_js(ctx, "task context")?)))
}

#[wasm_bindgen(js_name = appLinkErrorKey)]
pub fn app_link_error_key(
    #[wasm_bindgen(unchecked_param_type = "string")] event_type: JsValue,
) -> String {
    task::app_link_error_key(&text(&event_type).unwrap_or_default())
}
