//! The page: locales in paths, the theme, and the page head.

use wasm_bindgen::prelude::*;

use super::{de, text, to_js};
use crate::surface::LocalePath;
use crate::{locale, theme};

#[wasm_bindgen(js_name = normalizeLocale, unchecked_return_type = "Locale")]
pub fn normalize_locale(#[wasm_bindgen(unchecked_param_type = "string")] tag: JsValue) -> String {
    locale::normalize_locale(&text(&tag).unwrap_or_default()).to_owned()
}

#[wasm_bindgen(js_name = usesChineseType)]
pub fn uses_chinese_type(#[wasm_bindgen(unchecked_param_type = "Locale")] locale: JsValue) -> bool {
    locale::uses_chinese_type(&text(&locale).unwrap_or_default())
}

#[wasm_bindgen(js_name = splitLocalePath, unchecked_return_type = "LocalePath")]
pub fn split_locale_path(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
) -> JsValue {
    let (locale, path) = locale::split_locale_path(&text(&path).unwrap_or_default());
    to_js(&LocalePath { locale, path })
}

#[wasm_bindgen(js_name = initialTheme, unchecked_return_type = "Theme")]
pub fn initial_theme(
    #[wasm_bindgen(unchecked_param_type = "ThemeSources")] sources: JsValue,
) -> String {
    let sources = de::from_value(sources).unwrap_or_default();
    theme::initial_theme(&sources).as_str().to_owned()
}

#[wasm_bindgen(js_name = parseTheme, unchecked_return_type = "Theme")]
pub fn parse_theme(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<String, JsError> {
    let name = text(&name).unwrap_or_default();
    theme::parse_theme(&name)
        .map(|t| t.as_str().to_owned())
        .map_err(JsError::new)
}

#[wasm_bindgen(js_name = localePath)]
pub fn locale_path(
    #[wasm_bindgen(unchecked_param_type = "string")] locale: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
) -> String {
    locale::locale_path(
        &text(&locale).unwrap_or_default(),
        &text(&path).unwrap_or_default(),
    )
}

#[wasm_bindgen(js_name = pickLocale, unchecked_return_type = "Locale")]
pub fn pick_locale(
    #[wasm_bindgen(unchecked_param_type = "LocaleSources")] sources: JsValue,
) -> String {
    let sources = de::from_value(sources).unwrap_or_default();
    locale::pick_locale(&sources).to_owned()
}
