//! In-app links: the `blockbrief://` custom scheme mapped to web paths, the `external:` marker, and
//! the URL-safe base64 "ext" path segment that carries a link's extra query parameters.

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use serde::{Deserialize, Serialize};

use crate::constants::{EXTERNAL_LINK_MARKER, LINK_SCHEME};

/// Where a link leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LinkTarget {
    /// A path of this web app.
    Internal { path: String },
    /// Another site, opened in a new window.
    External { url: String },
}

/// Why a link or an ext segment was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkError {
    Empty,
    UnsupportedLink,
    BadScreen,
    BadExternalUrl,
    BadId,
    BadQuery,
    BadBase64,
}

impl LinkError {
    pub fn message(self) -> &'static str {
        match self {
            Self::Empty => "Empty link",
            Self::UnsupportedLink => "Unsupported link",
            Self::BadScreen => "Invalid screen name in link",
            Self::BadExternalUrl => "External link must be an absolute http(s) URL",
            Self::BadId => "Invalid id in link",
            Self::BadQuery => "Malformed query string",
            Self::BadBase64 => "Malformed base64 segment",
        }
    }
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for LinkError {}

/// Ordered query parameters; order matters because the ext segment encodes them in order.
pub type Params = Vec<(String, String)>;

/// Characters escaped in query keys and values: everything but RFC 3986 unreserved characters.
const QUERY_ESCAPE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Writing never pads; reading accepts padded and unpadded segments alike.
const EXT_ENGINE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Maps a link from content or the server to where the web client should go.
pub fn map_link(link: &str) -> Result<LinkTarget, LinkError> {
    let link = link.trim();
    if link.is_empty() {
        return Err(LinkError::Empty);
    }
    if let Some(url) = strip_prefix_ignore_case(link, EXTERNAL_LINK_MARKER) {
        return if is_absolute_http_url(url) {
            Ok(LinkTarget::External {
                url: url.to_owned(),
            })
        } else {
            Err(LinkError::BadExternalUrl)
        };
    }
    if is_absolute_http_url(link) {
        return Ok(LinkTarget::External {
            url: link.to_owned(),
        });
    }
    if let Some(rest) = strip_prefix_ignore_case(link, LINK_SCHEME) {
        return map_scheme_link(rest).map(|path| LinkTarget::Internal { path });
    }
    // A path of our own; `//host` would leave the site, and a backslash is read as `/` by browsers.
    if link.starts_with('/') && !link.starts_with("//") && !link.contains('\\') {
        return Ok(LinkTarget::Internal {
            path: link.to_owned(),
        });
    }
    Err(LinkError::UnsupportedLink)
}

/// `Screen[/Segment…]?query`: each segment's first letter lower-cased (`Feed/Detail` →
/// `/feed/detail`); `id` becomes the next path segment and the other parameters the ext segment.
fn map_scheme_link(rest: &str) -> Result<String, LinkError> {
    let (screen, query) = rest.split_once('?').unwrap_or((rest, ""));
    let screen = screen.trim_end_matches('/');
    let segment_ok =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !screen.split('/').all(segment_ok) {
        return Err(LinkError::BadScreen);
    }
    let mut path = match screen {
        "TabHome" => String::from("/"),
        "UserProfile" => String::from("/account"),
        _ => screen.split('/').fold(String::new(), |mut path, segment| {
            let mut chars = segment.chars();
            let first = chars.next().map(|c| c.to_ascii_lowercase());
            path.push('/');
            path.extend(first);
            path.push_str(chars.as_str());
            path
        }),
    };
    let mut params = parse_query(query)?;
    let id_at = params.iter().position(|(k, _)| k == "id");
    if let Some(at) = id_at {
        let (_, id) = params.remove(at);
        if id.is_empty() || params.iter().any(|(k, _)| k == "id") {
            return Err(LinkError::BadId);
        }
        push_segment(
            &mut path,
            &utf8_percent_encode(&id, QUERY_ESCAPE).to_string(),
        );
    }
    if !params.is_empty() {
        push_segment(&mut path, &encode_ext(&params));
    }
    Ok(path)
}

fn push_segment(path: &mut String, segment: &str) {
    if !path.ends_with('/') {
        path.push('/');
    }
    path.push_str(segment);
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Whether a link uses the app's own scheme (`blockbrief://…`), which only the app can open.
pub fn is_scheme_link(link: &str) -> bool {
    strip_prefix_ignore_case(link.trim(), LINK_SCHEME).is_some()
}

/// `http(s)://host…` with a non-empty host and nothing a browser would reinterpret.
pub fn is_absolute_http_url(url: &str) -> bool {
    let Some(rest) = strip_prefix_ignore_case(url, "https://")
        .or_else(|| strip_prefix_ignore_case(url, "http://"))
    else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    !host.is_empty()
        && !host.starts_with(':')
        && !url
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
}

/// Encodes parameters, in order, as a query string in URL-safe base64 without padding.
pub fn encode_ext(params: &[(String, String)]) -> String {
    EXT_ENGINE.encode(to_query(params))
}

/// Decodes an ext segment (padding optional) back into its ordered parameters.
pub fn decode_ext(segment: &str) -> Result<Params, LinkError> {
    let segment = segment.trim();
    // Padding is optional, but padding that is present must be complete.
    if segment.ends_with('=') && !segment.len().is_multiple_of(4) {
        return Err(LinkError::BadBase64);
    }
    let bytes = EXT_ENGINE
        .decode(segment)
        .map_err(|_| LinkError::BadBase64)?;
    let query = String::from_utf8(bytes).map_err(|_| LinkError::BadQuery)?;
    parse_query(&query)
}

/// The route query with the ext segment's parameters merged in; the link's own values win.
pub fn merge_ext_query(query: &[(String, String)], segment: &str) -> Result<Params, LinkError> {
    let mut merged: Params = query.to_vec();
    for (key, value) in decode_ext(segment)? {
        match merged.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => merged.push((key, value)),
        }
    }
    Ok(merged)
}

/// Serialises parameters as `k=v&k2=v2`, escaping everything but unreserved characters.
pub fn to_query(params: &[(String, String)]) -> String {
    let mut out = String::new();
    for (key, value) in params {
        if !out.is_empty() {
            out.push('&');
        }
        out.extend(utf8_percent_encode(key, QUERY_ESCAPE));
        out.push('=');
        out.extend(utf8_percent_encode(value, QUERY_ESCAPE));
    }
    out
}

/// A strict query parser: every pair has a non-empty key and `=`, escapes are valid hex, and the
/// decoded text is UTF-8. Anything else is an error rather than a silently partial result.
pub fn parse_query(query: &str) -> Result<Params, LinkError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut params = Params::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').ok_or(LinkError::BadQuery)?;
        let key = decode_component(key)?;
        if key.is_empty() {
            return Err(LinkError::BadQuery);
        }
        params.push((key, decode_component(value)?));
    }
    Ok(params)
}

fn decode_component(raw: &str) -> Result<String, LinkError> {
    let bytes = raw.as_bytes();
    for (i, _) in raw.match_indices('%') {
        let valid = bytes
            .get(i + 1..i + 3)
            .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
        if !valid {
            return Err(LinkError::BadQuery);
        }
    }
    let plus_as_space = raw.replace('+', " ");
    percent_decode_str(&plus_as_space)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| LinkError::BadQuery)
}

/// The origin (`scheme://host[:port]`, lower-case) of an absolute http(s) URL, if it has a plain
/// one: no user info, no backslashes, no percent-encoded or control characters in the authority.
fn plain_origin(url: &str) -> Option<String> {
    let lower = url.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://")?;
    if !matches!(scheme, "http" | "https") || url.chars().any(|c| c.is_control() || c == '\\') {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if authority.is_empty() || !authority.chars().all(host_ok) {
        return None;
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => (h, Some(p)),
        _ => (authority, None),
    };
    let default_port = if scheme == "https" { "443" } else { "80" };
    match port {
        Some(p) if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) => None,
        Some(p) if p == default_port => Some(format!("{scheme}://{host}")),
        Some(p) => Some(format!("{scheme}://{host}:{p}")),
        None => Some(format!("{scheme}://{host}")),
    }
}

/// Where a sign-in popup may send its result: the origin of `to` when it is exactly one of
/// `allowed` (themselves origins such as `https://blockbrief.io`), else `None`. Relative and
/// protocol-relative URLs, user info (`https://ours@evil.com`), look-alike hosts
/// (`https://ours.evil.com`), other schemes (`javascript:`), backslashes and encoded characters
/// all fail.
pub fn safe_redirect_origin(to: &str, allowed: &[String]) -> Option<String> {
    let origin = plain_origin(to.trim())?;
    allowed
        .iter()
        .filter_map(|a| plain_origin(a))
        .any(|a| a == origin)
        .then_some(origin)
}
