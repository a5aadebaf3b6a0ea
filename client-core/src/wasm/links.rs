//! Links: mapping a link in text to the app's own address, and the `ext` parameters of app links.

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wasm_bindgen::prelude::*;

use super::{de, from_js, text, to_js};
use crate::link;
use crate::surface::{LinkResult, Outcome};

/// Ordered string pairs read from and written to a plain object, keeping the object's key order.
struct OrderedParams(link::Params);

impl Serialize for OrderedParams {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de> Deserialize<'de> for OrderedParams {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = OrderedParams;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<String, String>()? {
                    pairs.push(pair);
                }
                Ok(OrderedParams(pairs))
            }
        }
        d.deserialize_map(PairsVisitor)
    }
}

fn outcome(result: Result<link::Params, link::LinkError>) -> JsValue {
    to_js(&Outcome::of(result.map(OrderedParams), |e| {
        e.message().to_owned()
    }))
}

#[wasm_bindgen(js_name = mapLink, unchecked_return_type = "LinkResult")]
pub fn map_link(#[wasm_bindgen(unchecked_param_type = "string")] link_text: JsValue) -> JsValue {
    let invalid = |e: link::LinkError| LinkResult::Invalid {
        error: e.message().to_owned(),
    };
    to_js(&match text(&link_text).as_deref().map(link::map_link) {
        Some(Ok(link::LinkTarget::Internal { path })) => LinkResult::Internal { path },
        Some(Ok(link::LinkTarget::External { url })) => LinkResult::External { url },
        Some(Err(e)) => invalid(e),
        None => invalid(link::LinkError::Empty),
    })
}

#[wasm_bindgen(js_name = isSchemeLink)]
pub fn is_scheme_link(#[wasm_bindgen(unchecked_param_type = "string")] link_text: JsValue) -> bool {
    text(&link_text).is_some_and(|l| link::is_scheme_link(&l))
}

#[wasm_bindgen(js_name = encodeExt)]
pub fn encode_ext(
    #[wasm_bindgen(unchecked_param_type = "Params")] params: JsValue,
) -> Result<String, JsError> {
    let params: OrderedParams = from_js(params, "params")?;
    Ok(link::encode_ext(&params.0))
}

#[wasm_bindgen(js_name = decodeExt, unchecked_return_type = "Outcome<Params>")]
pub fn decode_ext(#[wasm_bindgen(unchecked_param_type = "string")] segment: JsValue) -> JsValue {
    outcome(
        text(&segment)
            .ok_or(link::LinkError::BadBase64)
            .and_then(|s| link::decode_ext(&s)),
    )
}

#[wasm_bindgen(js_name = mergeExtQuery, unchecked_return_type = "Outcome<Params>")]
pub fn merge_ext_query(
    #[wasm_bindgen(unchecked_param_type = "Params")] query: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] segment: JsValue,
) -> JsValue {
    let query = de::from_value::<OrderedParams>(query).map_err(|_| link::LinkError::BadQuery);
    let segment = text(&segment).ok_or(link::LinkError::BadBase64);
    outcome(query.and_then(|q| link::merge_ext_query(&q.0, &segment?)))
}

#[wasm_bindgen(js_name = safeRedirectOrigin)]
pub fn safe_redirect_origin(
    #[wasm_bindgen(unchecked_param_type = "string")] to: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] allowed: JsValue,
) -> Option<String> {
    let allowed: Vec<String> = de::from_value(allowed).ok()?;
    link::safe_redirect_origin(&text(&to)?, &allowed)
}
