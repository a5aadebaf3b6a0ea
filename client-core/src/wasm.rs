//! The JavaScript surface of the rules: glue only. Strings arrive as untyped values so a wrong
//! type reads as invalid input instead of failing inside the glue; validation results come back as
//! values, and only malformed objects (a programming fault on the caller's side) throw an `Error`.

use js_sys::{JSON, Object, Reflect};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wasm_bindgen::prelude::*;

use crate::surface::{self, EndpointError, LinkResult, LocalePath, Outcome};
use crate::{
    comment, envelope, feed, feedback, langs, link, locale, post, profile, question, stream,
    syndication, task, theme, track, validate,
};

mod alert;
mod de;
mod vote;

/// The TypeScript of every shape below, generated from the Rust types (`make types`).
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = include_str!("wasm/types.d.ts");

fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A malformed object is the caller's bug: thrown as an `Error` naming what was expected.
fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue, what: &str) -> Result<T, JsError> {
    de::from_value(value).map_err(|_| JsError::new(&format!("Invalid {what}")))
}

/// A string argument, or `None` for any other type.
fn text(value: &JsValue) -> Option<String> {
    value.as_string()
}

/// A non-negative whole number argument; anything else (wrong type, NaN, negative) reads as 0.
fn count(value: &JsValue) -> u32 {
    match value.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => n.min(f64::from(u32::MAX)) as u32,
        _ => 0,
    }
}

/// A boolean argument; anything but `true` reads as false.
fn flag(value: &JsValue) -> bool {
    value.as_bool() == Some(true)
}

/// Ordered string pairs read from and written to a plain object, keeping the object's key order.
struct OrderedParams(link::Params);

impl Serialize for OrderedParams {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de> Deserialize<'de> for OrderedParams {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = OrderedParams;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry::<String, String>()? {
                    pairs.push(pair);
                }
                Ok(OrderedParams(pairs))
            }
        }
        d.deserialize_map(PairsVisitor)
    }
}

fn outcome(result: Result<link::Params, link::LinkError>) -> JsValue {
    to_js(&Outcome::of(result.map(OrderedParams), |e| {
        e.message().to_owned()
    }))
}

// ---- links ----

#[wasm_bindgen(js_name = mapLink, unchecked_return_type = "LinkResult")]
pub fn map_link(#[wasm_bindgen(unchecked_param_type = "string")] link_text: JsValue) -> JsValue {
    let invalid = |e: link::LinkError| LinkResult::Invalid {
        error: e.message().to_owned(),
    };
    to_js(&match text(&link_text).as_deref().map(link::map_link) {
        Some(Ok(link::LinkTarget::Internal { path })) => LinkResult::Internal { path },
        Some(Ok(link::LinkTarget::External { url })) => LinkResult::External { url },
        Some(Err(e)) => invalid(e),
        None => invalid(link::LinkError::Empty),
    })
}

#[wasm_bindgen(js_name = isSchemeLink)]
pub fn is_scheme_link(#[wasm_bindgen(unchecked_param_type = "string")] link_text: JsValue) -> bool {
    text(&link_text).is_some_and(|l| link::is_scheme_link(&l))
}

#[wasm_bindgen(js_name = encodeExt)]
pub fn encode_ext(
    #[wasm_bindgen(unchecked_param_type = "Params")] params: JsValue,
) -> Result<String, JsError> {
    let params: OrderedParams = from_js(params, "params")?;
    Ok(link::encode_ext(&params.0))
}

#[wasm_bindgen(js_name = decodeExt, unchecked_return_type = "Outcome<Params>")]
pub fn decode_ext(#[wasm_bindgen(unchecked_param_type = "string")] segment: JsValue) -> JsValue {
    outcome(
        text(&segment)
            .ok_or(link::LinkError::BadBase64)
            .and_then(|s| link::decode_ext(&s)),
    )
}

#[wasm_bindgen(js_name = mergeExtQuery, unchecked_return_type = "Outcome<Params>")]
pub fn merge_ext_query(
    #[wasm_bindgen(unchecked_param_type = "Params")] query: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] segment: JsValue,
) -> JsValue {
    let query = de::from_value::<OrderedParams>(query).map_err(|_| link::LinkError::BadQuery);
    let segment = text(&segment).ok_or(link::LinkError::BadBase64);
    outcome(query.and_then(|q| link::merge_ext_query(&q.0, &segment?)))
}

#[wasm_bindgen(js_name = safeRedirectOrigin)]
pub fn safe_redirect_origin(
    #[wasm_bindgen(unchecked_param_type = "string")] to: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] allowed: JsValue,
) -> Option<String> {
    let allowed: Vec<String> = de::from_value(allowed).ok()?;
    link::safe_redirect_origin(&text(&to)?, &allowed)
}

// ---- validation ----

#[wasm_bindgen(js_name = isValidEmail)]
pub fn is_valid_email(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> bool {
    text(&s).is_some_and(|s| validate::is_valid_email(&s))
}

#[wasm_bindgen(js_name = emailError, unchecked_return_type = "Message | null")]
pub fn email_error(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> JsValue {
    to_js(&validate::email_error(&text(&s).unwrap_or_default()))
}

#[wasm_bindgen(js_name = sanitizePhone)]
pub fn sanitize_phone(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> String {
    validate::sanitize_phone(&text(&s).unwrap_or_default())
}

#[wasm_bindgen(js_name = isValidPhone)]
pub fn is_valid_phone(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> bool {
    text(&s).is_some_and(|s| validate::is_valid_phone(&s))
}

#[wasm_bindgen(js_name = otpPhoneNumber)]
pub fn otp_phone_number(
    #[wasm_bindgen(unchecked_param_type = "string")] dial_code: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] phone: JsValue,
) -> String {
    let dial = text(&dial_code).unwrap_or_default();
    validate::otp_phone_number(&dial, &text(&phone).unwrap_or_default())
}

#[wasm_bindgen(js_name = sanitizeCode)]
pub fn sanitize_code(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> String {
    validate::sanitize_code(&text(&s).unwrap_or_default())
}

#[wasm_bindgen(js_name = canSendEmailCode)]
pub fn can_send_email_code(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> bool {
    text(&s).is_some_and(|s| validate::can_send_email_code(&s))
}

#[wasm_bindgen(js_name = canLoginWithEmail)]
pub fn can_login_with_email(
    #[wasm_bindgen(unchecked_param_type = "string")] email: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] code: JsValue,
) -> bool {
    match (text(&email), text(&code)) {
        (Some(email), Some(code)) => validate::can_login_with_email(&email, &code),
        _ => false,
    }
}

#[wasm_bindgen(js_name = canLoginWithPhone)]
pub fn can_login_with_phone(
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] dial_code: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] phone: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] code: JsValue,
) -> bool {
    match (text(&phone), text(&code)) {
        (Some(phone), Some(code)) => {
            validate::can_login_with_phone(text(&dial_code).as_deref(), &phone, &code)
        }
        _ => false,
    }
}

// ---- feedback ----

#[wasm_bindgen(js_name = validateFeedback, unchecked_return_type = "FeedbackCheck")]
pub fn validate_feedback(
    #[wasm_bindgen(unchecked_param_type = "FeedbackForm")] form: JsValue,
) -> JsValue {
    match de::from_value::<feedback::FeedbackForm>(form) {
        Ok(form) => to_js(&feedback::validate_feedback(&form)),
        Err(_) => to_js(&feedback::FeedbackCheck {
            ok: false,
            errors: vec![feedback::FieldError::new(
                "form",
                feedback::MSG_FORM_INVALID,
            )],
        }),
    }
}

#[wasm_bindgen(js_name = contentCounter, unchecked_return_type = "ContentCounter")]
pub fn content_counter(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> JsValue {
    to_js(&feedback::content_counter(&text(&s).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkImage, unchecked_return_type = "Message | null")]
pub fn check_image(
    #[wasm_bindgen(unchecked_param_type = "ImageFile")] file: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] already_selected: JsValue,
) -> JsValue {
    let already = usize::try_from(count(&already_selected)).unwrap_or(usize::MAX);
    let message = match de::from_value::<feedback::ImageFile>(file) {
        Ok(file) => feedback::check_image(&file, already),
        Err(_) => Some(feedback::MSG_IMAGE_BAD_TYPE),
    };
    to_js(&message)
}

// ---- tasks ----

#[wasm_bindgen(js_name = taskButton, unchecked_return_type = "TaskButton")]
pub fn task_button(
    #[wasm_bindgen(unchecked_param_type = "TaskContext")] ctx: JsValue,
) -> Result<JsValue, JsError> {
    Ok(to_js(&task::task_button(&from_js(ctx, "task context")?)))
}

#[wasm_bindgen(js_name = taskPress, unchecked_return_type = "TaskPress")]
pub fn task_press(
    #[wasm_bindgen(unchecked_param_type = "TaskContext")] ctx: JsValue,
) -> Result<JsValue, JsError> {
    Ok(to_js(&task::task_press(&from_js(ctx, "task context")?)))
}

#[wasm_bindgen(js_name = webTaskPress, unchecked_return_type = "TaskPress")]
pub fn web_task_press(
    #[wasm_bindgen(unchecked_param_type = "TaskContext")] ctx: JsValue,
) -> Result<JsValue, JsError> {
    Ok(to_js(&task::web_task_press(&from_js(ctx, "task context")?)))
}

#[wasm_bindgen(js_name = appLinkErrorKey)]
pub fn app_link_error_key(
    #[wasm_bindgen(unchecked_param_type = "string")] event_type: JsValue,
) -> String {
    task::app_link_error_key(&text(&event_type).unwrap_or_default())
}

// ---- envelope and calls ----

#[wasm_bindgen(js_name = unwrapResponse, unchecked_return_type = "Unwrapped")]
pub fn unwrap_response(
    #[wasm_bindgen(unchecked_param_type = "number")] status: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] status_text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] body: JsValue,
) -> JsValue {
    // Only the head is read; `data` is handed back as the very same JS value, never copied.
    let field = |name: &str| {
        body.is_object()
            .then(|| Reflect::get(&body, &JsValue::from_str(name)).ok())
            .flatten()
            .filter(|v| !v.is_undefined())
    };
    let code = field("code")
        .and_then(|c| c.as_f64())
        .filter(|c| c.fract() == 0.0 && c.abs() < 1e15);
    let verdict = envelope::judge_response(
        u16::try_from(count(&status)).unwrap_or(0),
        &text(&status_text).unwrap_or_default(),
        code.map(|c| c as i64),
        field("msg").and_then(|m| m.as_string()).as_deref(),
    );
    let data = match verdict.data {
        envelope::DataFrom::Nothing => JsValue::NULL,
        envelope::DataFrom::Body => body.clone(),
        envelope::DataFrom::BodyData => field("data").unwrap_or(JsValue::NULL),
    };
    let object = |fields: &[(&str, JsValue)]| {
        let o = Object::new();
        for (key, value) in fields {
            let _ = Reflect::set(&o, &JsValue::from_str(key), value);
        }
        JsValue::from(o)
    };
    if verdict.ok {
        return object(&[("ok", JsValue::TRUE), ("data", data)]);
    }
    let error = object(&[
        ("code", JsValue::from(verdict.code)),
        ("message", JsValue::from_str(&verdict.message)),
        ("data", data),
    ]);
    object(&[
        ("ok", JsValue::FALSE),
        ("error", error),
        ("logout", JsValue::from_bool(verdict.logout)),
    ])
}

#[wasm_bindgen(js_name = checkEndpoint, unchecked_return_type = "EndpointError | null")]
pub fn check_endpoint(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] has_token: JsValue,
) -> JsValue {
    let path = text(&path).unwrap_or_default();
    to_js(&envelope::check_endpoint(&path, flag(&has_token)).map(EndpointError::from))
}

/// The locale key of an error code from the catalogue, if it is one.
#[wasm_bindgen(js_name = errorKey)]
pub fn error_key(#[wasm_bindgen(unchecked_param_type = "number")] code: JsValue) -> Option<String> {
    let code = i32::try_from(count(&code)).ok()?;
    envelope::ErrorKind::from_code(code).map(|k| k.key().to_owned())
}

#[wasm_bindgen(js_name = shouldRetry)]
pub fn should_retry(
    #[wasm_bindgen(unchecked_param_type = "number")] failure_count: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] status: JsValue,
) -> bool {
    let status = u16::try_from(count(&status)).unwrap_or(0);
    envelope::should_retry(count(&failure_count), status)
}

#[wasm_bindgen(js_name = deviceHeader)]
pub fn device_header(
    #[wasm_bindgen(unchecked_param_type = "DeviceInfo")] info: JsValue,
) -> Result<String, JsError> {
    // The JS engine writes the JSON: the module then needs no JSON serializer of its own.
    let header = to_js(&envelope::device_header_of(&from_js(info, "device info")?));
    JSON::stringify(&header)
        .map(String::from)
        .map_err(|_| JsError::new("Invalid device info"))
}

// ---- locale, theme, page head ----

#[wasm_bindgen(js_name = normalizeLocale, unchecked_return_type = "Locale")]
pub fn normalize_locale(#[wasm_bindgen(unchecked_param_type = "string")] tag: JsValue) -> String {
    locale::normalize_locale(&text(&tag).unwrap_or_default()).to_owned()
}

#[wasm_bindgen(js_name = usesChineseType)]
pub fn uses_chinese_type(#[wasm_bindgen(unchecked_param_type = "Locale")] locale: JsValue) -> bool {
    locale::uses_chinese_type(&text(&locale).unwrap_or_default())
}

#[wasm_bindgen(js_name = splitLocalePath, unchecked_return_type = "LocalePath")]
pub fn split_locale_path(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
) -> JsValue {
    let (locale, path) = locale::split_locale_path(&text(&path).unwrap_or_default());
    to_js(&LocalePath { locale, path })
}

#[wasm_bindgen(js_name = initialTheme, unchecked_return_type = "Theme")]
pub fn initial_theme(
    #[wasm_bindgen(unchecked_param_type = "ThemeSources")] sources: JsValue,
) -> String {
    let sources = de::from_value(sources).unwrap_or_default();
    theme::initial_theme(&sources).as_str().to_owned()
}

#[wasm_bindgen(js_name = parseTheme, unchecked_return_type = "Theme")]
pub fn parse_theme(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
) -> Result<String, JsError> {
    let name = text(&name).unwrap_or_default();
    theme::parse_theme(&name)
        .map(|t| t.as_str().to_owned())
        .map_err(JsError::new)
}

#[wasm_bindgen(js_name = localePath)]
pub fn locale_path(
    #[wasm_bindgen(unchecked_param_type = "string")] locale: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
) -> String {
    locale::locale_path(
        &text(&locale).unwrap_or_default(),
        &text(&path).unwrap_or_default(),
    )
}

#[wasm_bindgen(js_name = pickLocale, unchecked_return_type = "Locale")]
pub fn pick_locale(
    #[wasm_bindgen(unchecked_param_type = "LocaleSources")] sources: JsValue,
) -> String {
    let sources = de::from_value(sources).unwrap_or_default();
    locale::pick_locale(&sources).to_owned()
}

// ---- feeds and tracking ----

#[wasm_bindgen(js_name = tabKinds, unchecked_return_type = "FeedKind[] | null")]
pub fn tab_kinds(#[wasm_bindgen(unchecked_param_type = "FeedTab")] tab: JsValue) -> JsValue {
    to_js(&text(&tab).and_then(|t| feed::tab_kinds(&t)).flatten())
}

#[wasm_bindgen(js_name = cardLayout, unchecked_return_type = "CardLayout")]
pub fn card_layout(
    #[wasm_bindgen(unchecked_param_type = "string")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] summary: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tags: JsValue,
) -> JsValue {
    let tags = usize::try_from(count(&tags)).unwrap_or(usize::MAX);
    let (kind, summary) = (
        text(&kind).unwrap_or_default(),
        text(&summary).unwrap_or_default(),
    );
    to_js(&feed::card_layout(&kind, &summary, tags))
}

#[wasm_bindgen(js_name = matchPage, unchecked_return_type = "PageMatch | null")]
pub fn match_page(#[wasm_bindgen(unchecked_param_type = "string")] path: JsValue) -> JsValue {
    to_js(&text(&path).and_then(|p| crate::pages::match_page(&p)))
}

/// Unix seconds; anything that is not a finite number reads as 0.
fn seconds(value: &JsValue) -> i64 {
    value
        .as_f64()
        .filter(|n| n.is_finite())
        .map_or(0, |n| n as i64)
}

#[wasm_bindgen(js_name = checkComment, unchecked_return_type = "CommentCheck")]
pub fn check_comment(#[wasm_bindgen(unchecked_param_type = "string")] content: JsValue) -> JsValue {
    to_js(&comment::check_comment(&text(&content).unwrap_or_default()))
}

#[wasm_bindgen(js_name = mentionQuery, unchecked_return_type = "string | null")]
pub fn mention_query(
    #[wasm_bindgen(unchecked_param_type = "string")] before_caret: JsValue,
) -> JsValue {
    to_js(&comment::mention_query(
        &text(&before_caret).unwrap_or_default(),
    ))
}

#[wasm_bindgen(js_name = canEditComment)]
pub fn can_edit_comment(
    #[wasm_bindgen(unchecked_param_type = "number")] created_at: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
) -> bool {
    comment::can_edit_comment(seconds(&created_at), seconds(&now))
}

#[wasm_bindgen(js_name = commentSegments, unchecked_return_type = "Segment[]")]
pub fn comment_segments(
    #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
) -> JsValue {
    to_js(&comment::comment_segments(
        &text(&content).unwrap_or_default(),
    ))
}

#[wasm_bindgen(js_name = checkNickname, unchecked_return_type = "Message | null")]
pub fn check_nickname(
    #[wasm_bindgen(unchecked_param_type = "string")] nickname: JsValue,
) -> JsValue {
    to_js(&profile::check_nickname(
        &text(&nickname).unwrap_or_default(),
    ))
}

#[wasm_bindgen(js_name = checkBio, unchecked_return_type = "Message | null")]
pub fn check_bio(#[wasm_bindgen(unchecked_param_type = "string")] bio: JsValue) -> JsValue {
    to_js(&profile::check_bio(&text(&bio).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkQuestion, unchecked_return_type = "Message | null")]
pub fn check_question(
    #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tags: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | null")] bounty: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] balance: JsValue,
) -> JsValue {
    let bounty = bounty.as_f64().filter(|b| b.is_finite()).map(|b| b as i64);
    to_js(&question::check_question(
        &text(&title).unwrap_or_default(),
        &text(&content).unwrap_or_default(),
        count(&tags) as usize,
        bounty,
        seconds(&balance),
    ))
}

#[wasm_bindgen(js_name = checkAnswer, unchecked_return_type = "Message | null")]
pub fn check_answer(#[wasm_bindgen(unchecked_param_type = "string")] answer: JsValue) -> JsValue {
    to_js(&question::check_answer(&text(&answer).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkPost, unchecked_return_type = "Message | null")]
pub fn check_post(
    #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tags: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] tokens: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] images: JsValue,
) -> JsValue {
    to_js(&post::check_post(
        &text(&title).unwrap_or_default(),
        &text(&content).unwrap_or_default(),
        count(&tags) as usize,
        count(&tokens) as usize,
        count(&images) as usize,
    ))
}

#[wasm_bindgen(js_name = settleBounty, unchecked_return_type = "Settlement")]
pub fn settle_bounty(
    #[wasm_bindgen(unchecked_param_type = "number")] bounty: JsValue,
    #[wasm_bindgen(unchecked_param_type = "boolean")] has_answer: JsValue,
) -> JsValue {
    to_js(&question::settle_bounty(
        seconds(&bounty),
        flag(&has_answer),
    ))
}

#[wasm_bindgen(js_name = timeAgo, unchecked_return_type = "TimeAgo")]
pub fn time_ago(
    #[wasm_bindgen(unchecked_param_type = "number")] published: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
) -> JsValue {
    to_js(&feed::time_ago(seconds(&published), seconds(&now)))
}

#[wasm_bindgen(js_name = trackBatchLen)]
pub fn track_batch_len(
    #[wasm_bindgen(unchecked_param_type = "number[]")] entry_bytes: JsValue,
) -> u32 {
    let sizes: Vec<usize> = de::from_value::<Vec<f64>>(entry_bytes)
        .unwrap_or_default()
        .into_iter()
        .map(|n| {
            if n.is_finite() && n >= 0.0 {
                n as usize
            } else {
                usize::MAX
            }
        })
        .collect();
    u32::try_from(track::batch_len(&sizes)).unwrap_or(u32::MAX)
}

#[wasm_bindgen(js_name = cutDescription)]
pub fn cut_description(#[wasm_bindgen(unchecked_param_type = "string")] s: JsValue) -> String {
    locale::cut_description(&text(&s).unwrap_or_default())
}

/// The spec's numbers that the interface needs (countdowns, limits, lists, error codes).
#[wasm_bindgen(unchecked_return_type = "Constants")]
pub fn constants() -> JsValue {
    to_js(&surface::constants())
}

#[wasm_bindgen(js_name = defaultReadLangs, unchecked_return_type = "Locale[]")]
pub fn default_read_langs(#[wasm_bindgen(unchecked_param_type = "string")] ui: JsValue) -> JsValue {
    to_js(&langs::default_read_langs(&text(&ui).unwrap_or_default()))
}

#[wasm_bindgen(js_name = checkReadLangs, unchecked_return_type = "Message | null")]
pub fn check_read_langs(
    #[wasm_bindgen(unchecked_param_type = "string[]")] list: JsValue,
) -> JsValue {
    let given: Vec<String> = de::from_value(list).unwrap_or_default();
    to_js(&langs::check_read_langs(&given))
}

#[wasm_bindgen(js_name = feedPath)]
pub fn feed_path(
    #[wasm_bindgen(unchecked_param_type = "string")] locale: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"tag\" | \"token\" | \"channel\" | null")]
    kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    atom: bool,
) -> String {
    syndication::feed_path(
        &text(&locale).unwrap_or_default(),
        text(&kind).as_deref(),
        &text(&name).unwrap_or_default(),
        atom,
    )
}

/// A stream's subjects as the server reads them (`home,tag:btc`), or why they cannot be.
#[wasm_bindgen(js_name = streamSubjects, unchecked_return_type = "Outcome<string>")]
pub fn stream_subjects(#[wasm_bindgen(unchecked_param_type = "string")] list: JsValue) -> JsValue {
    let result = stream::parse_subjects(&text(&list).unwrap_or_default());
    to_js(&Outcome::of(
        result.map(|subjects| stream::write_subjects(&subjects)),
        |e| e.text.to_owned(),
    ))
}
