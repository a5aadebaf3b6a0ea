//! The app's pages: one list for the app's router and for the server, which writes each page's
//! head and answers a path that is no page with HTTP 404 (the app still shows its not-found page).

use serde::{Serialize, Serializer};

/// Where sign-in providers send the popup back; a page of its own outside the app's router.
pub const OAUTH_CALLBACK_PATH: &str = "/oauth/by/web";

/// Every page, as paths without the locale prefix: `:name` takes one segment, a final `*` the
/// rest (possibly nothing).
pub const PAGES: [&str; 26] = [
    "/",
    "/explore",
    "/search",
    "/recommendTag",
    "/account",
    "/download",
    "/leaderboard",
    "/favorites",
    "/history",
    "/messages",
    "/alerts",
    "/markets",
    "/presales",
    "/user/:id",
    "/questions",
    "/question/:id",
    "/ask",
    "/write",
    "/write/:id",
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
    #[cfg_attr(feature = "ts", ts(type = "Record<string, string>"))]
    pub params: Params,
}

/// A page's parameters by name, written as an object. A list, not a map type: a `BTreeMap` cost
/// the wasm module about 4 KB gzipped (measured), for at most two entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(Vec<(&'static str, String)>);

impl Params {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// The page for `path` (locale prefix already removed), or `None` when it is no page.
pub fn match_page(path: &str) -> Option<PageMatch> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    PAGES.into_iter().find_map(|pattern| {
        let parts: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
        let mut params = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            if *part == "*" {
                params.push(("*", segments.get(i..).unwrap_or_default().join("/")));
                return Some(PageMatch {
                    pattern,
                    params: Params(params),
                });
            }
            let segment = segments.get(i)?;
            match part.strip_prefix(':') {
                Some(name) => {
                    let value = percent_encoding::percent_decode_str(segment)
                        .decode_utf8()
                        .ok()?;
                    params.push((name, value.into_owned()));
                }
                None if part == segment => {}
                None => return None,
            }
        }
        (parts.len() == segments.len()).then_some(PageMatch {
            pattern,
            params: Params(params),
        })
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
