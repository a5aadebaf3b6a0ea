//! Runs `cases.json` against the native build. `pkg-tests/cases.test.mjs` runs the same file
//! against the wasm package, so the two builds are shown to give the same answers.

use client_core::{
    alert, comment, envelope, feed, feedback, langs, link, linking, locale, pages, post, profile,
    question, stream, syndication, task, theme, track, validate, vote,
};
use serde_json::{Value, json};

fn cases() -> Value {
    serde_json::from_str(include_str!("cases.json")).expect("cases.json parses")
}

/// Expands `{"repeat": s, "times": n, "then"?: t}` into a string, anywhere in a value.
fn expand(v: &Value) -> Value {
    match v {
        Value::Object(m) if m.contains_key("repeat") => {
            let unit = m["repeat"].as_str().expect("repeat is a string");
            let times = m["times"].as_u64().expect("times is a number") as usize;
            let tail = m.get("then").and_then(Value::as_str).unwrap_or_default();
            Value::String(unit.repeat(times) + tail)
        }
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), expand(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(expand).collect()),
        other => other.clone(),
    }
}

/// A score to six decimals: the builds' `powf` may differ in the last bits.
fn micro(score: f64) -> f64 {
    (score * 1e6).round() / 1e6
}

fn s(v: &Value) -> &str {
    v.as_str().expect("a string input")
}

fn pairs(v: &Value) -> link::Params {
    v.as_array()
        .expect("pairs")
        .iter()
        .map(|p| (s(&p[0]).to_owned(), s(&p[1]).to_owned()))
        .collect()
}

fn params_out(r: Result<link::Params, link::LinkError>) -> Value {
    match r {
        Ok(params) => {
            json!({ "out": params.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>() })
        }
        Err(e) => json!({ "error": e.message() }),
    }
}

/// The native answer for one case, shaped like the expectation (`out` or `error`).
fn run(function: &str, input: &Value) -> Value {
    let out = |v: Value| json!({ "out": v });
    let arg = |i: usize| &input[i];
    match function {
        "mapLink" => out(match link::map_link(s(input)) {
            Ok(target) => json!(target),
            Err(e) => json!({ "kind": "invalid", "error": e.message() }),
        }),
        "encodeExt" => out(json!(link::encode_ext(&pairs(input)))),
        "decodeExt" => params_out(link::decode_ext(s(input))),
        "mergeExtQuery" => params_out(link::merge_ext_query(&pairs(arg(0)), s(arg(1)))),
        "isValidEmail" => out(json!(validate::is_valid_email(s(input)))),
        "emailError" => out(json!(validate::email_error(s(input)))),
        "sanitizePhone" => out(json!(validate::sanitize_phone(s(input)))),
        "isValidPhone" => out(json!(validate::is_valid_phone(s(input)))),
        "otpPhoneNumber" => out(json!(validate::otp_phone_number(s(arg(0)), s(arg(1))))),
        "sanitizeCode" => out(json!(validate::sanitize_code(s(input)))),
        "canSendEmailCode" => out(json!(validate::can_send_email_code(s(input)))),
        "canLoginWithEmail" => out(json!(validate::can_login_with_email(s(arg(0)), s(arg(1))))),
        "canLoginWithPhone" => out(json!(validate::can_login_with_phone(
            arg(0).as_str(),
            s(arg(1)),
            s(arg(2))
        ))),
        "validateFeedback" => {
            let form: feedback::FeedbackForm = serde_json::from_value(input.clone()).expect("form");
            out(json!(feedback::validate_feedback(&form)))
        }
        "contentCounter" => out(json!(feedback::content_counter(s(input)))),
        "checkImage" => {
            let file: feedback::ImageFile = serde_json::from_value(arg(0).clone()).expect("file");
            let already = arg(1).as_u64().expect("count") as usize;
            out(json!(feedback::check_image(&file, already)))
        }
        "taskButton" | "taskPress" | "webTaskPress" => {
            let ctx: task::TaskContext = serde_json::from_value(input.clone()).expect("context");
            match function {
                "taskButton" => out(json!(task::task_button(&ctx))),
                "taskPress" => out(json!(task::task_press(&ctx))),
                _ => out(json!(task::web_task_press(&ctx))),
            }
        }
        "appLinkErrorKey" => out(json!(task::app_link_error_key(s(input)))),
        "unwrapResponse" => {
            let status = u16::try_from(arg(0).as_u64().expect("status")).expect("u16");
            out(json!(envelope::unwrap_response(status, s(arg(1)), arg(2))))
        }
        "checkEndpoint" => out(
            match envelope::check_endpoint(s(arg(0)), arg(1).as_bool().expect("bool")) {
                Some(kind) => {
                    json!({ "code": kind.code(), "message": kind.message(), "key": kind.key() })
                }
                None => Value::Null,
            },
        ),
        "shouldRetry" => {
            let count = u32::try_from(arg(0).as_u64().expect("count")).expect("u32");
            let status = u16::try_from(arg(1).as_u64().expect("status")).expect("u16");
            out(json!(envelope::should_retry(count, status)))
        }
        "deviceHeader" => {
            let info: envelope::DeviceInfo = serde_json::from_value(input.clone()).expect("info");
            let header: Value =
                serde_json::from_str(&envelope::device_header(&info)).expect("header is JSON");
            out(header)
        }
        "normalizeLocale" => out(json!(locale::normalize_locale(s(input)))),
        "usesChineseType" => out(json!(locale::uses_chinese_type(s(input)))),
        "splitLocalePath" => {
            let (locale, path) = locale::split_locale_path(s(input));
            out(json!({ "locale": locale, "path": path }))
        }
        "initialTheme" => {
            let sources: theme::ThemeSources =
                serde_json::from_value(input.clone()).expect("sources");
            out(json!(theme::initial_theme(&sources)))
        }
        "parseTheme" => match theme::parse_theme(s(input)) {
            Ok(t) => out(json!(t)),
            Err(e) => json!({ "error": e }),
        },
        "isSchemeLink" => out(json!(link::is_scheme_link(s(input)))),
        "localePath" => out(json!(locale::locale_path(s(arg(0)), s(arg(1))))),
        "pickLocale" => {
            let sources: locale::LocaleSources =
                serde_json::from_value(input.clone()).expect("sources");
            out(json!(locale::pick_locale(&sources)))
        }
        "tabKinds" => out(json!(feed::tab_kinds(s(input)).flatten())),
        "cardLayout" => {
            let tags = arg(2).as_u64().expect("tag count") as usize;
            out(json!(feed::card_layout(s(arg(0)), s(arg(1)), tags)))
        }
        "matchPage" => out(json!(pages::match_page(s(input)))),
        "checkComment" => out(json!(comment::check_comment(s(input)))),
        "mentionQuery" => out(json!(comment::mention_query(s(input)))),
        "canEditComment" => out(json!(comment::can_edit_comment(
            arg(0).as_i64().expect("created_at"),
            arg(1).as_i64().expect("now")
        ))),
        "commentSegments" => out(json!(comment::comment_segments(s(input)))),
        "checkNickname" => out(json!(profile::check_nickname(s(input)))),
        "checkBio" => out(json!(profile::check_bio(s(input)))),
        "checkQuestion" => out(json!(question::check_question(
            s(arg(0)),
            s(arg(1)),
            arg(2).as_u64().expect("tags") as usize,
            arg(3).as_i64(),
            arg(4).as_i64().expect("balance")
        ))),
        "checkAnswer" => out(json!(question::check_answer(s(input)))),
        "checkPost" => out(json!(post::check_post(
            s(arg(0)),
            s(arg(1)),
            arg(2).as_u64().expect("tags") as usize,
            arg(3).as_u64().expect("tokens") as usize,
            arg(4).as_u64().expect("images") as usize
        ))),
        "feedPath" => out(json!(syndication::feed_path(
            s(arg(0)),
            arg(1).as_str(),
            s(arg(2)),
            arg(3).as_bool().expect("atom")
        ))),
        "checkReadLangs" => {
            let given: Vec<String> = serde_json::from_value(input.clone()).expect("langs");
            out(json!(langs::check_read_langs(&given)))
        }
        "defaultReadLangs" => out(json!(langs::default_read_langs(s(input)))),
        "settleBounty" => out(json!(question::settle_bounty(
            arg(0).as_i64().expect("bounty"),
            arg(1).as_bool().expect("has_answer")
        ))),
        "timeAgo" => {
            let (published, now) = (arg(0).as_i64(), arg(1).as_i64());
            out(json!(feed::time_ago(
                published.expect("published"),
                now.expect("now")
            )))
        }
        "trackBatchLen" => {
            let sizes: Vec<usize> = serde_json::from_value(input.clone()).expect("sizes");
            out(json!(track::batch_len(&sizes)))
        }
        "cutDescription" => out(json!(locale::cut_description(s(input)))),
        "safeRedirectOrigin" => {
            let allowed: Vec<String> = serde_json::from_value(arg(1).clone()).expect("origins");
            out(json!(link::safe_redirect_origin(s(arg(0)), &allowed)))
        }
        "checkAlertRule" => {
            let rule: alert::AlertRule = serde_json::from_value(input.clone()).expect("a rule");
            out(json!(alert::check_rule(&rule)))
        }
        "countAlertMatches" => {
            let rule: alert::AlertRule = serde_json::from_value(input.clone()).expect("a rule");
            let sample = &cases()["_alertSample"]["items"];
            let items: Vec<alert::AlertItem> =
                serde_json::from_value(sample.clone()).expect("the sample");
            out(json!(alert::count_matches(&rule, &items)))
        }
        "linkText" => {
            let catalogue: linking::Catalogue =
                serde_json::from_value(cases()["_linkCatalogue"].clone()).expect("catalogue");
            let text: linking::LinkText = serde_json::from_value(input.clone()).expect("a text");
            out(json!(
                linking::Linker::new(&catalogue).link(&text.document())
            ))
        }
        "applyVote" => {
            let mine: Vec<String> = serde_json::from_value(arg(0).clone()).expect("votes");
            let on = arg(2).as_bool().expect("on");
            out(json!(vote::apply_vote(&mine, s(arg(1)), on)))
        }
        "hotScore" => {
            let signals: vote::Signals = serde_json::from_value(arg(0).clone()).expect("signals");
            let age = arg(1).as_i64().expect("age");
            out(json!(micro(vote::hot_score(&signals, age))))
        }
        "risingScore" => {
            let now: vote::Signals = serde_json::from_value(arg(0).clone()).expect("signals");
            let then: vote::Signals = serde_json::from_value(arg(1).clone()).expect("signals");
            let age = arg(2).as_i64().expect("age");
            out(json!(micro(vote::rising_score(&now, &then, age))))
        }
        "streamSubjects" => match stream::parse_subjects(s(input)) {
            Ok(subjects) => out(json!(stream::write_subjects(&subjects))),
            Err(e) => json!({ "error": e.text }),
        },
        other => panic!("cases.json names a function the native runner does not know: {other}"),
    }
}

#[test]
fn every_shared_case_passes_natively() {
    let cases = cases();
    let mut failures = Vec::new();
    let mut count = 0;
    for (function, list) in cases.as_object().expect("an object") {
        if function.starts_with('_') {
            continue;
        }
        for case in list.as_array().expect("a list of cases") {
            let case = expand(case);
            let got = run(function, &case["in"]);
            let want = match (case.get("out"), case.get("error")) {
                (Some(out), None) => json!({ "out": out }),
                (None, Some(error)) => json!({ "error": error }),
                _ => panic!("{function}: a case needs exactly one of out and error"),
            };
            if got != want {
                failures.push(format!("{function}({}) = {got}, want {want}", case["in"]));
            }
            count += 1;
        }
    }
    assert!(count > 150, "only {count} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_catalogue_code_is_unique_and_round_trips() {
    let mut codes: Vec<i32> = envelope::ErrorKind::ALL.iter().map(|k| k.code()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), envelope::ErrorKind::ALL.len());
    for kind in envelope::ErrorKind::ALL {
        assert_eq!(envelope::ErrorKind::from_code(kind.code()), Some(kind));
        assert!(kind.key().starts_with("error."));
        assert_ne!(kind.code(), client_core::constants::SUCCESS_CODE);
    }
}

#[test]
fn device_header_parsing_ignores_garbage_and_cuts_fields() {
    assert_eq!(envelope::parse_device_header("not json"), None);
    assert_eq!(envelope::parse_device_header("[1,2]"), None);
    assert_eq!(envelope::parse_device_header(&"x".repeat(5000)), None);
    let long = "m".repeat(500);
    let raw = json!({ "os": "iOS", "model": long, "timezone": 1e300 }).to_string();
    let header = envelope::parse_device_header(&raw).expect("valid JSON object");
    assert_eq!(header.os, "iOS");
    assert_eq!(header.model.chars().count(), 64);
    assert_eq!(header.timezone, 0.0);
}
