//! The app's pages: one list for the app's router and for the server, which writes each page's
//! head and answers a path that is no page with HTTP 404 (the app still shows its not-found page).

use std::collections::BTreeMap;

use serde::Serialize;

/// Where sign-in providers send the popup back; a page of its own outside the app's router.
pub const OAUTH_CALLBACK_PATH: &str = "/oauth/by/web";

/// Every page, as paths without the locale prefix: `:name` takes one segment, a final `*` the
/// rest (possibly nothing).
pub const PAGES: [&str; 14] = [
    "/",
    "/explore",
    "/search",
    "/recommendTag",
    "/account",
    "/download",
    "/leaderboard",
    "/feed/:id",
    "/benefit/:benefitId/*",
    "/channel/:code",
    "/tag/:code",
    "/token/:symbol",
    "/topic/:id",
    "/kol/:id",
];

/// The page a path shows and its parameters (decoded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PageMatch {
    pub pattern: &'static str,
    pub params: BTreeMap<String, String>,
}

/// The page for `path` (locale prefix already removed), or `None` when it is no page.
pub fn match_page(path: &str) -> Option<PageMatch> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    PAGES.into_iter().find_map(|pattern| {
        let parts: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
        let mut params = BTreeMap::new();
        for (i, part) in parts.iter().enumerate() {
            if *part == "*" {
                params.insert(
                    "*".to_owned(),
                    segments.get(i..).unwrap_or_default().join("/"),
                );
                return Some(PageMatch { pattern, params });
            }
            let segment = segments.get(i)?;
            match part.strip_prefix(':') {
                Some(name) => {
                    let value = percent_encoding::percent_decode_str(segment)
                        .decode_utf8()
                        .ok()?;
                    params.insert(name.to_owned(), value.into_owned());
                }
                None if part == segment => {}
                None => return None,
            }
        }
        (parts.len() == segments.len()).then_some(PageMatch { pattern, params })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_pattern_matches_itself() {
        for pattern in PAGES {
            let path = pattern.replace(":id", "7").replace('*', "");
            let path = path
                .split('/')
                .map(|s| s.trim_start_matches(':'))
                .collect::<Vec<_>>()
                .join("/");
            assert_eq!(
                match_page(&path).map(|m| m.pattern),
                Some(pattern),
                "{path}"
            );
        }
    }
}
