//! The shapes the JavaScript surface (`wasm.rs`) hands out that are not rule types of their own:
//! results and the constants table. Plain data compiled on every target, so their TypeScript is
//! generated from them with the rest (`typescript.rs`).

use serde::{Serialize, Serializer};

use crate::constants as c;
use crate::envelope::ErrorKind;
use crate::{feed, feedback, locale, task};

/// A link's target, or why it was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LinkResult {
    Internal { path: String },
    External { url: String },
    Invalid { error: String },
}

/// `{ok: true, value}` or `{ok: false, error}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum Outcome<T> {
    Ok {
        #[cfg_attr(feature = "ts", ts(type = "true"))]
        ok: bool,
        value: T,
    },
    Err {
        #[cfg_attr(feature = "ts", ts(type = "false"))]
        ok: bool,
        error: String,
    },
}

impl<T> Outcome<T> {
    pub fn of<E>(result: Result<T, E>, message: impl FnOnce(E) -> String) -> Self {
        match result {
            Ok(value) => Self::Ok { ok: true, value },
            Err(e) => Self::Err {
                ok: false,
                error: message(e),
            },
        }
    }
}

/// Why the client refuses a call before sending it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EndpointError {
    pub code: i32,
    pub message: &'static str,
    pub key: &'static str,
}

impl From<ErrorKind> for EndpointError {
    fn from(kind: ErrorKind) -> Self {
        Self {
            code: kind.code(),
            message: kind.message(),
            key: kind.key(),
        }
    }
}

/// A path split into its locale prefix and the rest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LocalePath {
    #[cfg_attr(feature = "ts", ts(type = "Locale | null"))]
    pub locale: Option<&'static str>,
    pub path: String,
}

/// The spec's numbers and lists that the interface needs (countdowns, limits, tabs, codes).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Constants {
    pub success_code: i32,
    pub otp_code_length: usize,
    pub otp_resend_seconds: i64,
    pub email_error_debounce_ms: u32,
    pub default_dial_code: &'static str,
    pub feedback_content_max_chars: usize,
    pub feedback_max_images: usize,
    pub feedback_image_max_bytes: u64,
    #[cfg_attr(feature = "ts", ts(type = "FeedbackType[]"))]
    pub feedback_types: &'static [&'static str],
    pub logout_throttle_ms: u32,
    pub track_flush_ms: u32,
    pub track_max_entries: usize,
    pub track_max_body_bytes: usize,
    pub search_query_max_chars: usize,
    /// A reader's post: its title's and text's lengths, and how many tags and images it takes.
    pub post_title_max_chars: usize,
    pub post_content_max_chars: usize,
    pub post_max_tags: usize,
    pub post_max_images: usize,
    pub locale_cookie: &'static str,
    #[cfg_attr(feature = "ts", ts(type = "Locale[]"))]
    pub locales: &'static [&'static str],
    #[cfg_attr(feature = "ts", ts(type = "Locale"))]
    pub default_locale: &'static str,
    pub event_types: &'static [&'static str],
    #[cfg_attr(feature = "ts", ts(type = "FeedTab[]"))]
    pub feed_tabs: &'static [&'static str],
    /// The orders a feed list takes (`new`, `hot`, `rising`).
    pub feed_sorts: &'static [&'static str],
    /// The votes, in the order cards show them.
    pub vote_kinds: &'static [&'static str],
    /// Each vote's mark, in `vote_kinds` order.
    pub vote_marks: &'static [&'static str],
    /// The app's pages (`pages::PAGES`) and the sign-in popup's page.
    pub pages: &'static [&'static str],
    pub oauth_callback_path: &'static str,
    /// Each catalogue error's code by its name (`notFound` → 4040).
    #[cfg_attr(feature = "ts", ts(type = "Record<ErrorName, number>"))]
    pub error_codes: ErrorCodes,
}

/// The catalogue's codes by name, written as an object straight from [`ErrorKind::ALL`] (a map
/// type would add its own code to the wasm module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorCodes;

impl Serialize for ErrorCodes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(ErrorKind::ALL.map(|k| (error_name(k), k.code())))
    }
}

/// The name of a catalogue error: its locale key without `error.`.
pub fn error_name(kind: ErrorKind) -> &'static str {
    kind.key().trim_start_matches("error.")
}

pub fn constants() -> Constants {
    Constants {
        success_code: c::SUCCESS_CODE,
        otp_code_length: c::OTP_CODE_LEN,
        otp_resend_seconds: c::OTP_RESEND_SECONDS,
        email_error_debounce_ms: c::EMAIL_ERROR_DEBOUNCE_MS,
        default_dial_code: c::DEFAULT_DIAL_CODE,
        feedback_content_max_chars: c::FEEDBACK_CONTENT_MAX_CHARS,
        feedback_max_images: c::FEEDBACK_MAX_IMAGES,
        feedback_image_max_bytes: c::FEEDBACK_IMAGE_MAX_BYTES,
        feedback_types: &feedback::FEEDBACK_TYPES,
        logout_throttle_ms: c::LOGOUT_THROTTLE_MS,
        track_flush_ms: c::TRACK_FLUSH_MS,
        track_max_entries: crate::track::TRACK_MAX_ENTRIES,
        track_max_body_bytes: crate::track::TRACK_MAX_BODY_BYTES,
        search_query_max_chars: c::SEARCH_QUERY_MAX_CHARS,
        post_title_max_chars: crate::post::POST_TITLE_MAX_CHARS,
        post_content_max_chars: crate::post::POST_CONTENT_MAX_CHARS,
        post_max_tags: crate::post::POST_MAX_TAGS,
        post_max_images: crate::post::POST_MAX_IMAGES,
        locale_cookie: c::LOCALE_COOKIE,
        locales: &locale::LOCALES,
        default_locale: locale::DEFAULT_LOCALE,
        event_types: &task::EVENT_TYPES,
        feed_tabs: &feed::FEED_TABS,
        feed_sorts: &crate::vote::FEED_SORTS,
        vote_kinds: &crate::vote::VOTE_KINDS,
        vote_marks: &crate::vote::VOTE_MARKS,
        pages: &crate::pages::PAGES,
        oauth_callback_path: crate::pages::OAUTH_CALLBACK_PATH,
        error_codes: ErrorCodes,
    }
}
