//! Every number and fixed string of the product spec, named once. Both the server and the browser
//! read them from here, so a limit can never differ between the two sides.

/// Envelope code of a successful call.
pub const SUCCESS_CODE: i32 = 2000;
/// Message sent with a successful envelope.
pub const SUCCESS_MSG: &str = "success";

/// Digits in a one-time code.
pub const OTP_CODE_LEN: usize = 4;
/// Seconds a user waits before another code may be sent to the same address (the UI countdown).
pub const OTP_RESEND_SECONDS: i64 = 60;
/// Seconds a one-time code stays valid.
pub const OTP_TTL_SECONDS: i64 = 300;
/// Wrong tries one code survives; the next one kills it.
pub const OTP_MAX_TRIES_PER_CODE: i32 = 3;
/// Failed tries per address within [`OTP_FAILURE_WINDOW_SECONDS`] before OTP sign-in is refused.
pub const OTP_MAX_FAILURES_PER_WINDOW: i64 = 10;
/// The window over which failed tries are counted (24 h).
pub const OTP_FAILURE_WINDOW_SECONDS: i64 = 24 * 3600;
/// Codes that may be sent to one address per hour.
pub const OTP_MAX_SENDS_PER_HOUR: i64 = 5;
/// Codes that may be requested from one IP address per hour, whatever the addresses.
pub const OTP_MAX_SENDS_PER_IP_PER_HOUR: i64 = 20;

/// The email field shows its error only from this many characters on.
pub const EMAIL_ERROR_MIN_CHARS: usize = 5;
/// Longest email address accepted (RFC 5321 path limit).
pub const EMAIL_MAX_CHARS: usize = 254;
/// Delay before the email field's error appears, in milliseconds (the UI debounces).
pub const EMAIL_ERROR_DEBOUNCE_MS: u32 = 500;

/// Phone numbers keep at most this many digits.
pub const PHONE_MAX_DIGITS: usize = 11;
/// Phone numbers need at least this many digits.
pub const PHONE_MIN_DIGITS: usize = 7;
/// Area chosen when none is: Taiwan.
pub const DEFAULT_DIAL_CODE: &str = "886";

/// Feedback content limit, in Unicode code points.
pub const FEEDBACK_CONTENT_MAX_CHARS: usize = 300;
/// Longest optional contact accepted with feedback.
pub const FEEDBACK_CONTACT_MAX_CHARS: usize = 100;
/// Images one feedback may carry.
pub const FEEDBACK_MAX_IMAGES: usize = 3;
/// Largest image accepted: 5120 KB.
pub const FEEDBACK_IMAGE_MAX_BYTES: u64 = 5_242_880;

/// Longest search query, in characters (the search box and `/tag/list`'s `q` as well).
pub const SEARCH_QUERY_MAX_CHARS: usize = 100;
/// Tags a feed card shows at most.
pub const CARD_MAX_TAGS: usize = 3;
/// A flash item's card hides a summary of this many UTF-16 units or more.
pub const FLASH_SUMMARY_HIDDEN_FROM: usize = 240;

/// Page descriptions are cut to this many characters.
pub const DESCRIPTION_MAX_CHARS: usize = 200;

/// Version sent in the device header.
pub const APP_VERSION: &str = "3.1.0";
/// Attempts a failing query gets in all, the first one included.
pub const MAX_REQUEST_ATTEMPTS: u32 = 3;
/// Logout calls the server at most once per this many milliseconds.
pub const LOGOUT_THROTTLE_MS: u32 = 5000;
/// Tracking events are flushed at most this often, in milliseconds.
pub const TRACK_FLUSH_MS: u32 = 3000;

/// The cookie that keeps the reader's chosen language (the app writes it, the server reads it).
pub const LOCALE_COOKIE: &str = "NEXT_LOCALE";

/// The custom scheme of in-app links.
pub const LINK_SCHEME: &str = "blockbrief://";
/// Marker in front of an external link that must open in a new window.
pub const EXTERNAL_LINK_MARKER: &str = "external:";
/// The task group whose buttons ignore the server's `disabled` flag.
pub const EXCHANGE_REGISTER_GROUP: &str = "exchange_register";
/// User-agent fragment of the Bitverse app's web view.
pub const BITVERSE_AGENT: &str = "bitverse";
