//! The envelope, routing, headers and service calls, on SQLite and PostgreSQL.

use crate::common::{Backend, TestApp, assert_error};
use client_core::envelope::{Access, ENDPOINTS};
use serde_json::json;

async fn health_names_the_database(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (status, body) = app.get("/health").await;
    assert_eq!(status, 200);
    let expected = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    assert_eq!(
        body["data"],
        json!({ "status": "ok", "database": expected, "search": "ready" })
    );
}

async fn unknown_paths_and_methods_get_envelopes(backend: Backend) {
    let app = TestApp::start(backend).await;
    let wrong = app.post("/no/such/path", json!({})).await;
    assert_error(&wrong, 404, 404);
    assert_eq!(wrong.1["msg"], "Wrong URL!");
    let res = app
        .http
        .get(app.url("/user/gtoken"))
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), 405);
    let body: serde_json::Value = res.json().await.expect("envelope");
    assert_eq!(body["code"], 4050);
}

async fn unreadable_requests_are_400_with_a_reason(backend: Backend) {
    let app = TestApp::start(backend).await;
    let send = |body: &'static str, content_type: Option<&'static str>| {
        let mut req = app.http.post(app.url("/otp/email")).body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        async move {
            let res = req.send().await.expect("request");
            (
                res.status(),
                res.json::<serde_json::Value>().await.expect("envelope"),
            )
        }
    };
    let malformed = send("{\"email\": ", Some("application/json")).await;
    assert_error(&malformed, 400, 4000);
    assert!(
        malformed.1["msg"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Malformed JSON")
    );
    let no_type = send("{}", None).await;
    assert_error(&no_type, 400, 4000);
    assert!(
        no_type.1["msg"]
            .as_str()
            .unwrap_or_default()
            .contains("Content-Type")
    );
    let missing = send("{\"email\":\"a@b.co\"}", Some("application/json")).await;
    assert_error(&missing, 400, 4000);
    assert!(
        missing.1["msg"]
            .as_str()
            .unwrap_or_default()
            .contains("purpose"),
        "{}",
        missing.1
    );
    let wrong_type = send(
        "{\"email\":5,\"purpose\":\"login\"}",
        Some("application/json"),
    )
    .await;
    assert_error(&wrong_type, 400, 4000);
    let huge = "x".repeat(3 * 1024 * 1024);
    let res = app
        .http
        .post(app.url("/otp/email"))
        .header("content-type", "application/json")
        .body(format!("{{\"email\":\"{huge}\",\"purpose\":\"login\"}}"))
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), 413);
}

async fn area_list_is_real_with_taiwan_first(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (_, body) = app.get("/app/area").await;
    let list = body["data"].as_array().expect("a list");
    assert!(list.len() >= 200, "{} areas", list.len());
    assert_eq!(
        list[0],
        json!({ "code": "TW", "dial_code": "886", "emoji": "🇹🇼", "name": "Taiwan" })
    );
    let find = |code: &str| {
        list.iter()
            .find(|a| a["code"] == code)
            .cloned()
            .expect(code)
    };
    assert_eq!(find("VN")["dial_code"], "84");
    assert_eq!(find("KR")["dial_code"], "82");
    assert_eq!(find("HK")["emoji"], "🇭🇰");
    let mut codes: Vec<&str> = list.iter().filter_map(|a| a["code"].as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), list.len(), "each area once");
}

async fn captcha_setting_is_reported(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (_, body) = app.get("/service/captcha?action=otpemail").await;
    assert_eq!(body["data"]["use"], "none");
    // Nothing third-party configured: email and a browser wallet only.
    assert_eq!(body["data"]["methods"], json!(["email", "wallet"]));
    assert_error(&app.get("/service/captcha?action=steal").await, 200, 4001);
    let app = TestApp::start_with(backend, |c| {
        c.captcha = server::config::CaptchaMode::V3;
        c.recaptcha_site_key = "site-key".into();
        c.google_client_id = Some("google-id".into());
        c.apple_client_id = Some("apple-id".into());
    })
    .await;
    let (_, body) = app.get("/service/captcha?action=otpsms").await;
    assert_eq!(
        body["data"],
        json!({ "use": "reCAPTCHA.v3", "site_key": "site-key",
            "methods": ["email", "wallet", "google", "apple"] })
    );
    // Telegram not set up: its start says so, as a refusal, not a server fault.
    for path in ["/user/login/telegram/start", "/user/login/telegram"] {
        let (status, refused) = app.post(path, json!({ "id": 1, "hash": "00" })).await;
        assert_eq!(
            (status.as_u16(), refused["code"].clone()),
            (200, json!(4406)),
            "{path}: {refused}"
        );
    }
}

async fn device_header_garbage_is_ignored(backend: Backend) {
    let app = TestApp::start(backend).await;
    for header in ["not json", "{\"os\": [1,2]}", "\t{}", &"x".repeat(4000)] {
        let got = app
            .post_with("/user/gtoken", json!({}), &[("X-BPARAM", header)])
            .await;
        assert_eq!(got.1["code"], 2000, "{header:.20}");
    }
}

async fn tokens_are_checked_on_every_path(backend: Backend) {
    let app = TestApp::start(backend).await;
    // A token that is present but unknown is a 401 even on a public path.
    assert_error(
        &app.post_with("/user/gtoken", json!({}), &[("X-TOKEN", "bogus")])
            .await,
        401,
        401,
    );
    // A guest token is not a user token.
    let (_, guest) = app.post("/user/gtoken", json!({})).await;
    let guest = guest["data"]["token"].as_str().expect("token").to_owned();
    assert_error(
        &app.post_with("/user/account/list", json!({}), &[("X-TOKEN", &guest)])
            .await,
        401,
        401,
    );
    // No token at all on a login-only path: the catalogue's login-required error.
    let missing = app.post("/user/account/list", json!({})).await;
    assert_error(&missing, 401, 4010);
    assert_eq!(missing.1["msg"], "You should connect wallet to login first");
}

/// Every `.route("…")` path in `src/routes/`, read from the source so a new route cannot be
/// forgotten here.
/// Route files outside `/api` (`/rss/{locale}/…`).
const NOT_API: [&str; 1] = ["syndication.rs"];

fn routed_paths() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/routes");
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).expect("src/routes") {
        let path = entry.expect("entry").path();
        if NOT_API.iter().any(|name| path.ends_with(name)) {
            continue;
        }
        let source = std::fs::read_to_string(path).expect("a route file");
        let calls = source
            .split(".route(")
            .chain(source.split(".api_route(").skip(1));
        for call in calls.skip(1) {
            let quoted = call.trim_start().strip_prefix('"').expect("a literal path");
            paths.push(quoted[..quoted.find('"').expect("closing quote")].to_owned());
        }
    }
    paths
}

/// The team's own calls, behind `X-ADMIN-TOKEN`: never made by the browser.
const ADMIN_PREFIX: &str = "/admin/";

async fn served_paths_match_the_client_allow_list(backend: Backend) {
    let app = TestApp::start(backend).await;
    // Every path of the allow-list is served, with the access it says.
    for (pattern, access) in ENDPOINTS {
        let path = pattern.replace("{provider}", "google");
        let (status, body) = app.post(&path, json!({})).await;
        assert_ne!(body["code"], 404, "{path} is in ENDPOINTS but not served");
        if *access == Access::LoginOnly {
            assert_eq!(
                (status.as_u16(), body["code"].as_i64()),
                (401, Some(4010)),
                "{path}"
            );
        } else {
            assert_ne!(body["code"], 4010, "{path} is public");
        }
    }
    // And every routed path is in the allow-list (admin calls aside).
    let routed = routed_paths();
    assert!(routed.len() > 50, "only {} routes found", routed.len());
    for path in routed.iter().filter(|p| !p.starts_with(ADMIN_PREFIX)) {
        assert!(
            ENDPOINTS.iter().any(|(pattern, _)| pattern == path),
            "{path} is served but not in client-core's ENDPOINTS"
        );
    }
}

/// The OpenAPI document is generated from the routes: every routed path is in it, with its
/// request body, its answer's envelope, the error envelope and the login rule the allow-list
/// gives it.
const VALIDATE_OPENAPI: &str = "import json, sys\n\
from openapi_spec_validator import OpenAPIV31SpecValidator, validate\n\
validate(json.load(open(sys.argv[1])), cls=OpenAPIV31SpecValidator)";

async fn the_openapi_document_covers_every_call(backend: Backend) {
    let app = TestApp::start(backend).await;
    let res = app
        .http
        .get(app.url("/openapi.json"))
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), 200);
    let doc: serde_json::Value = res.json().await.expect("JSON");
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["servers"][0]["url"], "/api");
    // Valid for standard tools: an independent OpenAPI 3.1 validator (openapi-spec-validator,
    // installed by `make test-deps`) reads it.
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), doc.to_string()).expect("write");
    let checked = std::process::Command::new("python3")
        .args(["-c", VALIDATE_OPENAPI])
        .arg(file.path())
        .output()
        .expect("python3 runs");
    assert!(
        checked.status.success(),
        "the OpenAPI validator refuses the document: {}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let paths = doc["paths"].as_object().expect("paths");
    // The document's own address is the one path it does not describe.
    let routed: Vec<String> = routed_paths()
        .into_iter()
        .filter(|p| p != "/openapi.json")
        .collect();
    for path in &routed {
        assert!(
            paths.contains_key(path),
            "{path} is routed but not in the OpenAPI document"
        );
    }
    assert_eq!(paths.len(), routed.len(), "{:?}", paths.keys());
    for (pattern, access) in ENDPOINTS.iter().filter(|(p, _)| *p != "/openapi.json") {
        let operation = paths
            .get(*pattern)
            .and_then(|item| item.get("post").or_else(|| item.get("get")))
            .unwrap_or_else(|| panic!("{pattern} is in ENDPOINTS but not documented"));
        let security = &operation["security"];
        match access {
            Access::LoginOnly => assert_eq!(security, &json!([{ "token": [] }]), "{pattern}"),
            Access::Public => assert!(security.is_null(), "{pattern}: {security}"),
        }
    }
    for (path, item) in paths {
        for (method, operation) in item.as_object().expect("path item") {
            // An envelope, or (the live stream) a text of events.
            let answer = ["application/json", "text/event-stream"]
                .iter()
                .find_map(|kind| {
                    operation["responses"]["200"]["content"][kind]["schema"].as_object()
                });
            assert!(answer.is_some(), "{method} {path}: no answer's schema");
            let error = &operation["responses"]["default"];
            assert!(
                error["description"]
                    .as_str()
                    .is_some_and(|d| d.contains("| 4290 | 429 |")),
                "{method} {path}: no error envelope with the catalogue's codes"
            );
            if path.starts_with(ADMIN_PREFIX) {
                assert_eq!(operation["security"], json!([{ "admin": [] }]), "{path}");
            }
        }
    }
    // Request and answer types come from the handlers: /post/create takes the post and answers
    // with the envelope of its id.
    let create = &paths["/post/create"]["post"];
    let body = &create["requestBody"]["content"]["application/json"]["schema"]["$ref"];
    let body = body
        .as_str()
        .expect("a request schema")
        .rsplit('/')
        .next()
        .expect("name");
    let schema = &doc["components"]["schemas"][body];
    for field in ["title", "content", "tags", "tokens", "images"] {
        assert!(
            schema["properties"][field].is_object(),
            "{field} in {schema}"
        );
    }
    let answer = create["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        .as_str()
        .expect("an answer schema");
    let answer = &doc["components"]["schemas"][answer.rsplit('/').next().expect("name")];
    assert_eq!(answer["properties"]["code"]["type"], "integer", "{answer}");
    assert!(answer["properties"]["data"].is_object(), "{answer}");
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["token"]["name"], "X-TOKEN");
    assert_eq!(schemes["admin"]["name"], "X-ADMIN-TOKEN");
}

/// Real answers carry the browser-side protection, not only the policy string: a page (whose
/// inline stylesheets the policy allows by hash), a JSON answer, an error, a feed and a missing
/// image.
#[tokio::test]
async fn real_responses_carry_the_security_headers() {
    let app = TestApp::start(Backend::Sqlite).await;
    let get = |path: &str| app.http.get(format!("{}{path}", app.base)).send();
    let page = get("/en").await.expect("page");
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .expect("policy")
        .to_owned();
    let shell = page.text().await.expect("page body");
    // Each inline stylesheet of the page, by its own hash (CSP's `'sha256-…'`): the built shell
    // has one; these servers have no build and serve the placeholder shell (the Chromium specs
    // load the built one under this policy).
    use base64::Engine as _;
    use sha2::Digest as _;
    let styles: Vec<&str> = shell
        .split("<style>")
        .skip(1)
        .filter_map(|rest| rest.split_once("</style>").map(|(css, _)| css))
        .collect();
    for css in styles {
        let digest = sha2::Sha256::digest(css.as_bytes());
        let hash = format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        );
        assert!(policy.contains(&hash), "{hash} missing from {policy}");
    }
    let answers = [
        get("/en").await.expect("page"),
        get("/api/health").await.expect("health"),
        get("/api/no-such-call").await.expect("error"),
        get("/rss/en/news.xml").await.expect("feed"),
        get("/uploads/feedback/0123456789abcdef0123456789abcdef.png")
            .await
            .expect("image"),
    ];
    for answer in answers {
        let url = answer.url().to_string();
        let headers = answer.headers();
        let policy = headers["content-security-policy"].to_str().expect("policy");
        for directive in [
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'none'",
        ] {
            assert!(policy.contains(directive), "{url}: {policy}");
        }
        assert_eq!(headers["x-content-type-options"], "nosniff", "{url}");
        assert_eq!(
            headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{url}"
        );
    }
}

on_both_databases!(
    the_openapi_document_covers_every_call,
    health_names_the_database,
    unknown_paths_and_methods_get_envelopes,
    unreadable_requests_are_400_with_a_reason,
    area_list_is_real_with_taiwan_first,
    captcha_setting_is_reported,
    device_header_garbage_is_ignored,
    tokens_are_checked_on_every_path,
    served_paths_match_the_client_allow_list,
);

#[test]
fn every_locale_has_every_key_and_the_catalogue_is_translated() {
    let english = server::i18n::keys("en");
    assert!(english.len() > 20);
    for locale in client_core::locale::LOCALES {
        assert_eq!(
            server::i18n::keys(locale),
            english,
            "{locale} has the same keys as en"
        );
    }
    for kind in client_core::envelope::ErrorKind::ALL {
        assert!(
            english.contains(&kind.key().to_owned()),
            "{} is translated",
            kind.key()
        );
        assert_eq!(
            server::i18n::t("en", kind.key(), &[]),
            kind.message(),
            "en text = default message"
        );
    }
    assert_eq!(
        server::i18n::t("zh-Hant", "error.wrongUrl", &[]),
        "網址錯誤！"
    );
    assert_eq!(server::i18n::t("xx", "error.wrongUrl", &[]), "Wrong URL!");
    assert_eq!(
        server::i18n::t("en", "mail.sms", &[("code", "1234"), ("minutes", "5")]),
        "Your Blockbrief code is 1234. It expires in 5 minutes."
    );
}
