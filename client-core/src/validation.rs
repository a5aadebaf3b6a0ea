//! client-core's rules as `validator` custom validators and `Validate` impls (feature
//! `validate`), so the server checks request bodies with exactly the rules the browser runs.
//! Not in the wasm build: the browser calls the rules directly (see BENCHMARKS.md for the cost).
//!
//! A rule's `ValidationError` carries the message key as its code and the English text as its
//! message; a code that is an error kind's key (`error.invalidEmail`) makes the server answer
//! with that kind.

use std::borrow::Cow;

use validator::{Validate, ValidationError, ValidationErrors};

use crate::constants::SEARCH_QUERY_MAX_CHARS;
use crate::envelope::ErrorKind;
use crate::feed::NEWS_KINDS;
use crate::feedback::{FeedbackForm, validate_feedback};
use crate::message::Message;
use crate::validate::{is_valid_code, is_valid_email};

/// A rule's message as a validation error.
pub fn rule_error(message: Message) -> ValidationError {
    ValidationError::new(message.key).with_message(Cow::Borrowed(message.text))
}

/// A broken rule that the error catalogue has a code of its own for.
fn kind_error(kind: ErrorKind) -> ValidationError {
    ValidationError::new(kind.key()).with_message(Cow::Borrowed(kind.message()))
}

/// A broken rule that only needs saying.
fn said(code: &'static str, message: String) -> ValidationError {
    ValidationError::new(code).with_message(Cow::Owned(message))
}

/// An email address as the sign-in forms take it (trimmed, compared without case).
pub fn email(s: &str) -> Result<(), ValidationError> {
    if is_valid_email(&s.trim().to_lowercase()) {
        Ok(())
    } else {
        Err(kind_error(ErrorKind::InvalidEmail))
    }
}

/// A one-time code as the sign-in forms take it.
pub fn otp_code(s: &str) -> Result<(), ValidationError> {
    if is_valid_code(s) {
        Ok(())
    } else {
        Err(kind_error(ErrorKind::InvalidCode))
    }
}

/// A comment's text, by the rule its form counts with.
pub fn comment_content(s: &str) -> Result<(), ValidationError> {
    match crate::comment::check_comment(s).error {
        None => Ok(()),
        Some(message) => Err(rule_error(message)),
    }
}

/// An answer's text, by the question rule.
pub fn answer_content(s: &str) -> Result<(), ValidationError> {
    crate::question::check_answer(s).map_or(Ok(()), |m| Err(rule_error(m)))
}

/// A post's text as the editor previews it: empty is fine, too long is not.
pub fn post_draft(s: &str) -> Result<(), ValidationError> {
    if s.trim().chars().count() > crate::post::POST_CONTENT_MAX_CHARS {
        Err(rule_error(crate::post::MSG_POST_TOO_LONG))
    } else {
        Ok(())
    }
}

/// A nickname, by the profile rule (uniqueness is the server's to check).
pub fn nickname(s: &str) -> Result<(), ValidationError> {
    crate::profile::check_nickname(s).map_or(Ok(()), |m| Err(rule_error(m)))
}

/// A profile's bio.
pub fn bio(s: &str) -> Result<(), ValidationError> {
    crate::profile::check_bio(s).map_or(Ok(()), |m| Err(rule_error(m)))
}

/// A search box's text: at most `SEARCH_QUERY_MAX_CHARS` characters, as the input allows.
/// "Languages I read" as `langs::read_langs` takes them.
pub fn read_langs(langs: &[String]) -> Result<(), ValidationError> {
    crate::langs::check_read_langs(langs).map_or(Ok(()), |m| Err(rule_error(m)))
}

pub fn search_query(q: &str) -> Result<(), ValidationError> {
    if q.chars().count() <= SEARCH_QUERY_MAX_CHARS {
        Ok(())
    } else {
        Err(said(
            "length",
            format!("Search at most {SEARCH_QUERY_MAX_CHARS} characters"),
        ))
    }
}

/// One of the kinds editors and sources publish.
pub fn feed_kind(kind: &str) -> Result<(), ValidationError> {
    if NEWS_KINDS.contains(&kind) {
        Ok(())
    } else {
        Err(said(
            "kind",
            format!("kind must be one of {}", NEWS_KINDS.join(", ")),
        ))
    }
}

/// The feedback form's fields as its rules name them.
const FEEDBACK_FIELDS: [&str; 4] = ["type", "content", "contact", "images"];

/// The feedback form's rules, field by field, as the form shows them.
impl Validate for FeedbackForm {
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut errors = ValidationErrors::new();
        for error in validate_feedback(self).errors {
            let field = FEEDBACK_FIELDS
                .into_iter()
                .find(|f| *f == error.field)
                .unwrap_or("form");
            let mut broken = said("feedback", error.message);
            broken.code = Cow::Owned(error.key);
            errors.add(field, broken);
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_say_their_key_and_text() {
        let broken = email("not an email").expect_err("refused");
        assert_eq!(broken.code, ErrorKind::InvalidEmail.key());
        assert!(email("  Reader@Example.COM ").is_ok());
        assert!(otp_code("12a4").is_err());
        assert!(search_query(&"x".repeat(SEARCH_QUERY_MAX_CHARS)).is_ok());
        assert_eq!(
            search_query(&"x".repeat(SEARCH_QUERY_MAX_CHARS + 1))
                .expect_err("refused")
                .message
                .as_deref(),
            Some("Search at most 100 characters")
        );
        assert!(feed_kind("flash").is_ok() && feed_kind("poem").is_err());
    }

    #[test]
    fn feedback_form_errors_are_the_rules_errors() {
        let form = FeedbackForm {
            kind: "bug".into(),
            content: " ".into(),
            contact: None,
            images: vec![],
        };
        let errors = form.validate().expect_err("refused");
        let content = &errors.field_errors()["content"][0];
        let rule = &validate_feedback(&form).errors[0];
        assert_eq!(
            (content.code.as_ref(), content.message.as_deref()),
            (rule.key.as_str(), Some(rule.message.as_str()))
        );
    }
}
