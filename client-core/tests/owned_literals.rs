//! The rules client-core owns are written once: a test fails when one of their literals is
//! written again in the web app or the server instead of being taken from here.

use std::path::{Path, PathBuf};

/// (what is written again, the client-core name to use instead)
const OWNED: &[(&str, &str)] = &[
    ("startsWith(\"blockbrief://\")", "isSchemeLink"),
    ("starts_with(\"blockbrief://\")", "link::is_scheme_link"),
    ("startsWith(\"zh\")", "usesChineseType"),
    ("starts_with(\"zh\")", "locale::uses_chinese_type"),
    ("=== 4040", "C.errorCodes.notFound"),
    ("maxLength={100}", "C.searchQueryMaxChars"),
    ("splice(0, 500)", "trackBatchLen"),
    ("< 240", "feed::card_shows_summary"),
    ("take(3)", "feed::card_tag_count"),
    ("slice(0, 3)", "cardLayout(…).tagCount"),
    (
        "\"NEXT_LOCALE\"",
        "constants::LOCALE_COOKIE / C.localeCookie",
    ),
    ("\"for_you\", \"news\"", "feed::FEED_TABS / C.feedTabs"),
    ("\"flash\", \"article\"", "feed::FEED_KINDS"),
    ("? path : `/${locale}", "localePath"),
    ("accept-language\").and_then", "locale::pick_locale"),
    ("\"web.time.", "feed::time_ago / timeAgo"),
];

/// Generated from the Rust types, so they may spell the rules' values out.
const GENERATED: &[&str] = &["api-types.ts"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e == "rs" || e == "ts" || e == "tsx")
        {
            out.push(path);
        }
    }
}

#[test]
fn literals_client_core_owns_are_not_written_again() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    sources(&root.join("web/src"), &mut files);
    sources(&root.join("server/src"), &mut files);
    assert!(files.len() > 50, "only {} source files found", files.len());
    let mut found = Vec::new();
    for file in files {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if GENERATED.contains(&name) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable source");
        for (literal, instead) in OWNED {
            if text.contains(literal) {
                found.push(format!("{}: `{literal}` (use {instead})", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "rules written again:\n{}",
        found.join("\n")
    );
}
