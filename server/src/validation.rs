//! Request bodies declare their limits with `validator`'s derive (client-core's rules as custom
//! validators); `ApiJson` runs them, and this turns what failed into one envelope: the first
//! field's message, every field in `data.errors` as `{field, key, message}`, and the error kind a
//! rule names (`error.invalidEmail`) or `InvalidParam`.

use client_core::envelope::ErrorKind;
use client_core::feedback::FieldError;
use serde_json::json;
use validator::{ValidationError, ValidationErrors, ValidationErrorsKind};

use crate::error::AppError;

pub fn rejection(errors: &ValidationErrors) -> AppError {
    let mut fields = Vec::new();
    collect("", errors, &mut fields);
    fields.sort_by(|a, b| a.field.cmp(&b.field));
    let kind = fields
        .iter()
        .find_map(|f| ErrorKind::ALL.into_iter().find(|k| k.key() == f.key))
        .unwrap_or(ErrorKind::InvalidParam);
    let message = fields
        .first()
        .map(|f| f.message.clone())
        .unwrap_or_default();
    AppError::new(kind)
        .with_message(message)
        .with_data(json!({ "errors": fields }))
}

/// Every broken rule, nested fields named by their path (`author.name`, `images[2]`).
fn collect(prefix: &str, errors: &ValidationErrors, out: &mut Vec<FieldError>) {
    for (field, kind) in errors.errors() {
        let path = if prefix.is_empty() {
            field.to_string()
        } else {
            format!("{prefix}.{field}")
        };
        match kind {
            ValidationErrorsKind::Field(list) => {
                out.extend(list.iter().map(|e| field_error(&path, e)))
            }
            ValidationErrorsKind::Struct(inner) => collect(&path, inner, out),
            ValidationErrorsKind::List(items) => {
                for (index, inner) in items {
                    collect(&format!("{path}[{index}]"), inner, out);
                }
            }
        }
    }
}

/// A rule's own message, or one written from the built-in validator's parameters.
fn field_error(field: &str, error: &ValidationError) -> FieldError {
    let param = |name: &str| error.params.get(name).map(ToString::to_string);
    let message = match (&error.message, error.code.as_ref()) {
        (Some(message), _) => message.to_string(),
        (None, "range") => match (param("min"), param("max")) {
            (Some(min), Some(max)) => format!("{field} must be between {min} and {max}"),
            (Some(min), None) => format!("{field} must be at least {min}"),
            (None, Some(max)) => format!("{field} must be at most {max}"),
            (None, None) => format!("{field} is out of range"),
        },
        (None, "length") => match (param("min"), param("max")) {
            (Some(min), Some(max)) => format!("{field} must be {min} to {max} characters"),
            (Some(min), None) => format!("{field} must be at least {min} characters"),
            (None, Some(max)) => format!("{field} must be at most {max} characters"),
            (None, None) => format!("{field} has the wrong length"),
        },
        (None, _) => format!("{field} is not valid"),
    };
    FieldError {
        field: field.to_owned(),
        key: error.code.to_string(),
        message,
    }
}

/// A nickname as it is compared for uniqueness and mentions: in Unicode lower case, so "Đạt" and
/// "đạt" are one name on every database (SQLite's `lower()` folds ASCII only).
pub fn nickname_key(nickname: &str) -> String {
    nickname.to_lowercase()
}
