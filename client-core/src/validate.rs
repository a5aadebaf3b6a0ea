//! Email, phone, area and one-time-code rules of the sign-in forms.

use crate::constants::{
    EMAIL_ERROR_MIN_CHARS, EMAIL_MAX_CHARS, OTP_CODE_LEN, PHONE_MAX_DIGITS, PHONE_MIN_DIGITS,
};
use crate::message::Message;

/// Shown under the email field when the address is invalid.
pub const EMAIL_ERROR: Message = Message::new(
    "rules.email.invalid",
    "Please input the correct email address",
);

/// The HTML living standard's "valid e-mail address": `atext` characters and dots before the
/// `@`, then one or more labels of letters, digits and inner hyphens, each at most 63 long.
/// Written by hand rather than with a regex engine so the wasm package stays small.
pub fn is_valid_email(s: &str) -> bool {
    if s.is_empty() || s.len() > EMAIL_MAX_CHARS {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty() && local.bytes().all(is_local_byte);
    local_ok && domain.split('.').all(is_domain_label)
}

fn is_local_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b)
}

fn is_domain_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            bytes.len() <= 63
                && first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

/// The email field's message: only once the user has typed enough for it to be fair.
pub fn email_error(s: &str) -> Option<Message> {
    (s.chars().count() >= EMAIL_ERROR_MIN_CHARS && !is_valid_email(s)).then_some(EMAIL_ERROR)
}

fn digits(s: &str, max: usize) -> String {
    s.chars().filter(char::is_ascii_digit).take(max).collect()
}

/// Keeps the digits of a phone number, at most [`PHONE_MAX_DIGITS`].
pub fn sanitize_phone(s: &str) -> String {
    digits(s, PHONE_MAX_DIGITS)
}

pub fn is_valid_phone(s: &str) -> bool {
    (PHONE_MIN_DIGITS..=PHONE_MAX_DIGITS).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_digit())
}

/// A dial code is 1 to 4 digits, written without `+`.
pub fn is_valid_dial_code(s: &str) -> bool {
    (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

/// The address an SMS code is sent to: `886-912345678`.
pub fn otp_phone_number(dial_code: &str, phone: &str) -> String {
    format!("{dial_code}-{phone}")
}

/// Keeps the digits of a one-time code, at most [`OTP_CODE_LEN`].
pub fn sanitize_code(s: &str) -> String {
    digits(s, OTP_CODE_LEN)
}

pub fn is_valid_code(s: &str) -> bool {
    s.len() == OTP_CODE_LEN && s.bytes().all(|b| b.is_ascii_digit())
}

pub fn can_send_email_code(email: &str) -> bool {
    is_valid_email(email)
}

pub fn can_login_with_email(email: &str, code: &str) -> bool {
    is_valid_email(email) && is_valid_code(code)
}

/// `dial_code` is `None` or empty when no area is chosen.
pub fn can_login_with_phone(dial_code: Option<&str>, phone: &str, code: &str) -> bool {
    dial_code.is_some_and(is_valid_dial_code) && is_valid_phone(phone) && is_valid_code(code)
}
