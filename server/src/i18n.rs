//! Server-side messages in the user's language, from the same `locales/` files the web client uses.

use std::collections::HashMap;
use std::sync::OnceLock;

use client_core::locale::DEFAULT_LOCALE;
use serde_json::Value;

const SOURCES: [(&str, &str); 5] = [
    ("en", include_str!("../../locales/en/common.json")),
    ("zh-Hans", include_str!("../../locales/zh-Hans/common.json")),
    ("zh-Hant", include_str!("../../locales/zh-Hant/common.json")),
    ("vi", include_str!("../../locales/vi/common.json")),
    ("ko", include_str!("../../locales/ko/common.json")),
];

fn catalogues() -> &'static HashMap<&'static str, Value> {
    static CATALOGUES: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    CATALOGUES.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(locale, text)| (*locale, serde_json::from_str(text).unwrap_or(Value::Null)))
            .collect()
    })
}

fn lookup<'a>(catalogue: &'a Value, key: &str) -> Option<&'a str> {
    key.split('.')
        .try_fold(catalogue, |node, part| node.get(part))?
        .as_str()
}

/// The message for `key` in `locale` (falling back to English, then to the key itself), with
/// `{{name}}` placeholders filled in.
pub fn t(locale: &str, key: &str, vars: &[(&str, &str)]) -> String {
    let all = catalogues();
    let text = [locale, DEFAULT_LOCALE]
        .iter()
        .find_map(|l| all.get(l).and_then(|c| lookup(c, key)))
        .unwrap_or(key);
    vars.iter().fold(text.to_owned(), |acc, (name, value)| {
        acc.replace(&format!("{{{{{name}}}}}"), value)
    })
}

/// A language's name in `locale`'s words ("Korean"), or its code when we have none.
pub fn language_name(locale: &str, lang: &str) -> String {
    let key = format!("web.languageNames.{lang}");
    let name = t(locale, &key, &[]);
    if name == key { lang.to_owned() } else { name }
}

/// Every key path of a catalogue, for the completeness test.
pub fn keys(locale: &str) -> Vec<String> {
    fn walk(prefix: &str, node: &Value, out: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (k, v) in map {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, v, out);
                }
            }
            _ => out.push(prefix.to_owned()),
        }
    }
    let mut out = Vec::new();
    if let Some(catalogue) = catalogues().get(locale) {
        walk("", catalogue, &mut out);
    }
    out.sort();
    out
}

/// The language `localized` takes its text from: `locale` where the map has it, else English, else
/// the first there is (a reader is told when the text is not in their language).
pub fn localized_lang(json: &str, locale: &str) -> String {
    let Ok(map) = serde_json::from_str::<HashMap<String, String>>(json) else {
        return DEFAULT_LOCALE.to_owned();
    };
    [locale, DEFAULT_LOCALE]
        .into_iter()
        .find(|l| map.contains_key(*l))
        .map(str::to_owned)
        .or_else(|| map.keys().next().cloned())
        .unwrap_or_else(|| DEFAULT_LOCALE.to_owned())
}

/// Picks the text for `locale` from a JSON object keyed by locale, falling back to English and
/// then to any text at all (a row written in one language still shows).
pub fn localized(json: &str, locale: &str) -> String {
    let Ok(map) = serde_json::from_str::<HashMap<String, String>>(json) else {
        return String::new();
    };
    map.get(locale)
        .or_else(|| map.get(DEFAULT_LOCALE))
        .or_else(|| map.values().next())
        .cloned()
        .unwrap_or_default()
}
