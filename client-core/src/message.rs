//! Messages the rules give to people: a locale key (every file in `locales/` has it) and the
//! English text, which is the spec's wording and what a caller without translations shows.

use serde::{Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    pub text: &'static str,
}

impl Message {
    pub const fn new(key: &'static str, text: &'static str) -> Self {
        Self { key, text }
    }
}

/// Written as `{key, message}`.
impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("Message", 2)?;
        out.serialize_field("key", self.key)?;
        out.serialize_field("message", self.text)?;
        out.end()
    }
}

#[cfg(feature = "ts")]
impl ts_rs::TS for Message {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;
    fn name(_: &ts_rs::Config) -> String {
        "Message".to_owned()
    }
    fn inline(_: &ts_rs::Config) -> String {
        "{ key: string, message: string }".to_owned()
    }
    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type Message = {};", Self::inline(cfg))
    }
}
