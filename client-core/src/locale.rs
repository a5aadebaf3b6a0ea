//! Locales: which one a visitor gets, how a path carries it, and the page-head helpers.

use serde::{Deserialize, Serialize};

use crate::constants::DESCRIPTION_MAX_CHARS;

/// The supported locales, default first.
pub const LOCALES: [&str; 5] = ["en", "zh-Hans", "zh-Hant", "vi", "ko"];
pub const DEFAULT_LOCALE: &str = LOCALES[0];

/// Maps any language tag (`zh-TW`, `zh_hant_hk`, `EN-us`, …) to a supported locale.
pub fn normalize_locale(tag: &str) -> &'static str {
    let lower = tag.trim().to_ascii_lowercase().replace('_', "-");
    let mut subtags = lower.split('-');
    match subtags.next().unwrap_or_default() {
        "zh" => {
            let rest: Vec<&str> = subtags.collect();
            let traditional = |s: &&str| matches!(*s, "hant" | "tw" | "hk" | "mo");
            // A script subtag decides before a region does: zh-Hans-HK is simplified.
            if rest.contains(&"hans") {
                "zh-Hans"
            } else if rest.iter().any(traditional) {
                "zh-Hant"
            } else {
                "zh-Hans"
            }
        }
        "en" => "en",
        "vi" => "vi",
        "ko" => "ko",
        _ => DEFAULT_LOCALE,
    }
}

/// Whether a locale is set in Chinese type (the spec's taller line heights): the page's
/// `data-cjk` attribute, written by the server into the page and by the app when it switches.
pub fn uses_chinese_type(locale: &str) -> bool {
    locale.starts_with("zh")
}

/// The supported locale spelled exactly as the given URL segment, if it is one.
pub fn locale_segment(segment: &str) -> Option<&'static str> {
    LOCALES.into_iter().find(|l| *l == segment)
}

/// Splits a locale prefix off a path: `/zh-Hant/explore` → (`Some("zh-Hant")`, `/explore`).
pub fn split_locale_path(path: &str) -> (Option<&'static str>, String) {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let (first, rest) = trimmed.split_once('/').unwrap_or((trimmed, ""));
    match locale_segment(first) {
        Some(locale) => (Some(locale), format!("/{rest}")),
        None => (None, path.to_owned()),
    }
}

/// A path in `locale`: `/explore` → `/zh-Hant/explore`; the default locale (English) has no
/// prefix, and the home page of another is `/zh-Hant`.
pub fn locale_path(locale: &str, path: &str) -> String {
    match locale_segment(locale) {
        None | Some(DEFAULT_LOCALE) => path.to_owned(),
        Some(locale) if path == "/" || path.is_empty() => format!("/{locale}"),
        Some(locale) => format!("/{locale}{path}"),
    }
}

/// What a request says about the reader's language. Any may be missing or empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
#[serde(default, rename_all = "camelCase")]
pub struct LocaleSources {
    /// The page path (`/zh-Hant/explore`); API calls have none.
    pub path: Option<String>,
    /// The saved choice (the `NEXT_LOCALE` cookie).
    pub cookie: Option<String>,
    /// The device's language (`navigator.language`, or `X-BPARAM`'s `language`).
    pub device: Option<String>,
    /// The `Accept-Language` header; its first tag counts.
    pub accept_language: Option<String>,
}

/// The locale a visitor gets, in one order everywhere (the app, the page head, the API): the
/// path's prefix, then the saved choice, then the device, then `Accept-Language`, then English.
pub fn pick_locale(sources: &LocaleSources) -> &'static str {
    if let Some(locale) = given(&sources.path).and_then(|p| split_locale_path(p).0) {
        return locale;
    }
    let first_accepted = given(&sources.accept_language)
        .and_then(|v| v.split([',', ';']).next())
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "*");
    given(&sources.cookie)
        .or_else(|| given(&sources.device))
        .or(first_accepted)
        .map_or(DEFAULT_LOCALE, normalize_locale)
}

fn given(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// A page description: at most [`DESCRIPTION_MAX_CHARS`] characters, plus `…` when cut.
pub fn cut_description(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(DESCRIPTION_MAX_CHARS) {
        Some((at, _)) => format!("{}…", s[..at].trim_end()),
        None => s.to_owned(),
    }
}
