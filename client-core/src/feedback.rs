//! The feedback form and its image files.

use serde::{Deserialize, Serialize};

use crate::constants::{
    FEEDBACK_CONTACT_MAX_CHARS, FEEDBACK_CONTENT_MAX_CHARS, FEEDBACK_IMAGE_MAX_BYTES,
    FEEDBACK_MAX_IMAGES,
};
use crate::message::Message;

/// Feedback types, in the order the form offers them.
pub const FEEDBACK_TYPES: [&str; 3] = ["suggestion", "bug", "other"];

pub const MSG_TYPE_REQUIRED: Message = Message::new(
    "rules.feedback.typeRequired",
    "Please choose a feedback type",
);
pub const MSG_CONTENT_REQUIRED: Message = Message::new(
    "rules.feedback.contentRequired",
    "Please describe your feedback",
);
pub const MSG_CONTENT_TOO_LONG: Message = Message::new(
    "rules.feedback.contentTooLong",
    "Feedback can be at most 300 characters",
);
pub const MSG_CONTACT_TOO_LONG: Message = Message::new(
    "rules.feedback.contactTooLong",
    "Contact can be at most 100 characters",
);
pub const MSG_TOO_MANY_IMAGES: Message = Message::new(
    "rules.image.tooMany",
    "A maximum of three images are supported",
);
pub const MSG_IMAGE_TOO_LARGE: Message =
    Message::new("rules.image.tooLarge", "Only accept size less than 5MB.");
pub const MSG_IMAGE_BAD_TYPE: Message = Message::new(
    "rules.image.badType",
    "Only accept type of .png .jpeg .jpg .gif .",
);
pub const MSG_FORM_INVALID: Message =
    Message::new("rules.feedback.formInvalid", "Invalid feedback form");
pub const MSG_IMAGE_BAD_URL: Message = Message::new("rules.image.badUrl", "Invalid image");

/// The form as both sides see it; missing fields read as empty so they are reported, not fatal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FeedbackForm {
    #[serde(rename = "type")]
    pub kind: String,
    pub content: String,
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub contact: Option<String>,
    pub images: Vec<String>,
}

/// A form field's error: the field, the message's locale key and its English text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FieldError {
    pub field: String,
    pub key: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: &str, message: Message) -> Self {
        Self {
            field: field.to_owned(),
            key: message.key.to_owned(),
            message: message.text.to_owned(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FeedbackCheck {
    pub ok: bool,
    pub errors: Vec<FieldError>,
}

/// Code points, the unit both the browser counter and the server limit use.
pub fn char_count(s: &str) -> usize {
    s.chars().count()
}

pub fn validate_feedback(form: &FeedbackForm) -> FeedbackCheck {
    let mut errors = Vec::new();
    let mut flag = |field: &str, message: Message| errors.push(FieldError::new(field, message));
    if !FEEDBACK_TYPES.contains(&form.kind.as_str()) {
        flag("type", MSG_TYPE_REQUIRED);
    }
    if form.content.trim().is_empty() {
        flag("content", MSG_CONTENT_REQUIRED);
    } else if char_count(&form.content) > FEEDBACK_CONTENT_MAX_CHARS {
        flag("content", MSG_CONTENT_TOO_LONG);
    }
    if form
        .contact
        .as_deref()
        .is_some_and(|c| char_count(c) > FEEDBACK_CONTACT_MAX_CHARS)
    {
        flag("contact", MSG_CONTACT_TOO_LONG);
    }
    if form.images.len() > FEEDBACK_MAX_IMAGES {
        flag("images", MSG_TOO_MANY_IMAGES);
    } else if form.images.iter().any(|url| url.trim().is_empty()) {
        flag("images", MSG_IMAGE_BAD_URL);
    }
    FeedbackCheck {
        ok: errors.is_empty(),
        errors,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ContentCounter {
    pub count: usize,
    pub max: usize,
    /// The counter turns to the error colour.
    pub at_limit: bool,
}

pub fn content_counter(content: &str) -> ContentCounter {
    let count = char_count(content);
    ContentCounter {
        count,
        max: FEEDBACK_CONTENT_MAX_CHARS,
        at_limit: count >= FEEDBACK_CONTENT_MAX_CHARS,
    }
}

/// What the browser knows of a chosen file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct ImageFile {
    pub name: String,
    pub size: u64,
    #[serde(rename = "type")]
    pub mime: String,
}

const IMAGE_EXTENSIONS: [&str; 4] = ["png", "jpeg", "jpg", "gif"];
const IMAGE_MIME_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/jpg", "image/gif"];

/// `None` when the file may be added to the `already_selected` ones, else the message to show.
pub fn check_image(file: &ImageFile, already_selected: usize) -> Option<Message> {
    if already_selected >= FEEDBACK_MAX_IMAGES {
        return Some(MSG_TOO_MANY_IMAGES);
    }
    if file.size > FEEDBACK_IMAGE_MAX_BYTES {
        return Some(MSG_IMAGE_TOO_LARGE);
    }
    let extension = file
        .name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
    let extension_ok = extension.is_some_and(|ext| IMAGE_EXTENSIONS.contains(&ext.as_str()));
    // Some browsers leave the type empty; a type that is given must agree with the name.
    let mime = file.mime.to_ascii_lowercase();
    let mime_ok = mime.is_empty() || IMAGE_MIME_TYPES.contains(&mime.as_str());
    (!(extension_ok && mime_ok)).then_some(MSG_IMAGE_BAD_TYPE)
}
