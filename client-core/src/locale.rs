//! Locales and the page-head helpers.

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

/// A page description: at most [`DESCRIPTION_MAX_CHARS`] characters, plus `…` when cut.
pub fn cut_description(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(DESCRIPTION_MAX_CHARS) {
        Some((at, _)) => format!("{}…", s[..at].trim_end()),
        None => s.to_owned(),
    }
}
