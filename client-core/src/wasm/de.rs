//! Reading JavaScript values into the rules' types. Not serde-wasm-bindgen's deserializer: its
//! errors are messages formatted as they are made, which links Rust's float formatting into the
//! module (about a tenth of it), while every caller here only needs to know a value was invalid.

use js_sys::{Array, Object};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use wasm_bindgen::{JsCast, JsValue};

/// The value does not have the expected shape.
#[derive(Debug)]
pub struct Invalid;

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid value")
    }
}

impl std::error::Error for Invalid {}

impl de::Error for Invalid {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Invalid
    }
}

pub fn from_value<T: DeserializeOwned>(value: JsValue) -> Result<T, Invalid> {
    T::deserialize(JsDeserializer(value))
}

/// Largest integer a JavaScript number holds exactly (2^53).
const SAFE_INTEGER: f64 = 9_007_199_254_740_992.0;

struct JsDeserializer(JsValue);

impl<'de> IntoDeserializer<'de, Invalid> for JsDeserializer {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for JsDeserializer {
    type Error = Invalid;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        let value = self.0;
        if value.is_null() || value.is_undefined() {
            return visitor.visit_unit();
        }
        if let Some(b) = value.as_bool() {
            return visitor.visit_bool(b);
        }
        if let Some(n) = value.as_f64() {
            // Whole numbers as integers, so integer fields take them.
            return if n.fract() == 0.0 && n.abs() < SAFE_INTEGER {
                visitor.visit_i64(n as i64)
            } else {
                visitor.visit_f64(n)
            };
        }
        if let Some(s) = value.as_string() {
            return visitor.visit_string(s);
        }
        if Array::is_array(&value) {
            let items = Array::from(&value);
            return visitor.visit_seq(de::value::SeqDeserializer::new(
                items.iter().map(JsDeserializer),
            ));
        }
        if value.is_object() {
            // Own enumerable string keys, in the object's order.
            let entries = Object::entries(value.unchecked_ref());
            let pairs = entries.iter().map(|entry| {
                let pair = Array::from(&entry);
                let key = pair.get(0).as_string().unwrap_or_default();
                (key, JsDeserializer(pair.get(1)))
            });
            return visitor.visit_map(de::value::MapDeserializer::new(pairs));
        }
        Err(Invalid)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Invalid> {
        if self.0.is_null() || self.0.is_undefined() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// Unit variants, written as their names.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Invalid> {
        let name = self.0.as_string().ok_or(Invalid)?;
        visitor.visit_enum(IntoDeserializer::<Invalid>::into_deserializer(name))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Invalid> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}
