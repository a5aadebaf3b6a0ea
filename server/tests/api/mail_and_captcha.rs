//! One-time codes by real SMTP (aiosmtpd on loopback) and captcha checks against a local
//! siteverify endpoint that answers as reCAPTCHA does.

use crate::common::{Backend, SmtpServer, TestApp, assert_error, free_port, serve_peer};
use axum::Form;
use axum::routing::post;
use mailparse::MailHeaderMap;
use serde_json::{Value, json};
use server::config::CaptchaMode;
use std::collections::HashMap;

fn parts(raw: &[u8]) -> (String, String, String, String) {
    let mail = mailparse::parse_mail(raw).expect("a MIME message");
    let header = |name: &str| mail.headers.get_first_value(name).unwrap_or_default();
    let body_of = |mime: &str| {
        mail.subparts
            .iter()
            .find(|p| p.ctype.mimetype == mime)
            .map(|p| p.get_body().expect("decodable body"))
            .unwrap_or_default()
    };
    (
        header("To"),
        header("Subject"),
        body_of("text/plain"),
        body_of("text/html"),
    )
}

async fn codes_arrive_by_mail_in_the_readers_language(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let app = TestApp::start_with(backend, |c| c.smtp_url = Some(smtp.url())).await;
    app.codes.set_next("4826");
    let sent = app
        .post(
            "/otp/email",
            json!({ "email": "Mail@Example.org", "purpose": "login" }),
        )
        .await;
    assert_eq!(sent.1["code"], 2000, "{}", sent.1);
    let mails = smtp.wait_for_messages(1).await;
    let (to, subject, text, html) = parts(&mails[0]);
    assert_eq!(to, "mail@example.org");
    assert_eq!(subject, "Your Blockbrief sign-in code: 4826");
    assert!(
        text.contains("4826") && text.contains("5 minutes"),
        "{text}"
    );
    assert!(
        html.contains(">4826<") && html.contains("lang=\"en\""),
        "{html}"
    );
    // The code from the mail signs the user in.
    assert_eq!(app.login("mail@example.org", "4826").await.1["code"], 2000);

    // Traditional Chinese from the locale cookie the web client keeps.
    app.codes.set_next("7315");
    let body = json!({ "email": "tw@example.org", "purpose": "login" });
    let cookie = [("Cookie", "G=x; NEXT_LOCALE=zh-Hant")];
    assert_eq!(
        app.post_with("/otp/email", body, &cookie).await.1["code"],
        2000
    );
    let mails = smtp.wait_for_messages(2).await;
    let (to, subject, text, _) = parts(&mails[1]);
    assert_eq!(to, "tw@example.org");
    assert_eq!(subject, "你的 Blockbrief 登入驗證碼：7315");
    assert!(text.contains("5 分鐘內有效"), "{text}");
}

async fn an_unreachable_mail_server_is_a_503_and_frees_the_resend(backend: Backend) {
    let port = free_port(); // nothing listens here
    let app = TestApp::start_with(backend, |c| {
        c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"))
    })
    .await;
    let body = json!({ "email": "late@example.org", "purpose": "login" });
    assert_error(&app.post("/otp/email", body.clone()).await, 503, 5030);
    // The user may try again at once rather than wait out a countdown for a mail that never came.
    assert_error(&app.post("/otp/email", body).await, 503, 5030);
    assert_error(&app.login("late@example.org", "1234").await, 200, 4104);
}

/// Answers as reCAPTCHA's siteverify does, by the token it is shown.
async fn siteverify(Form(form): Form<HashMap<String, String>>) -> axum::Json<Value> {
    assert_eq!(
        form.get("secret").map(String::as_str),
        Some("shh"),
        "the secret is sent"
    );
    let answer = |success: bool, score: f64, action: &str, hostname: &str| {
        json!({ "success": success, "score": score, "action": action, "hostname": hostname,
                "challenge_ts": "2026-11-22T00:00:00Z" })
    };
    axum::Json(match form.get("response").map(String::as_str) {
        Some("human") => answer(true, 0.9, "otpemail", "blockbrief.test"),
        Some("human-login") => answer(true, 0.9, "otplogin", "blockbrief.test"),
        Some("bot") => answer(true, 0.2, "otpemail", "blockbrief.test"),
        Some("other-action") => answer(true, 0.9, "login", "blockbrief.test"),
        Some("other-site") => answer(true, 0.9, "otpemail", "evil.test"),
        _ => json!({ "success": false, "error-codes": ["invalid-input-response"] }),
    })
}

async fn captcha_answers_are_verified_on_the_server(backend: Backend) {
    let verify = serve_peer(axum::Router::new().route("/siteverify", post(siteverify))).await;
    let setup = |mode: CaptchaMode| {
        let verify = verify.clone();
        move |c: &mut server::config::Config| {
            c.captcha = mode;
            c.recaptcha_secret = "shh".into();
            c.recaptcha_verify_url = format!("{verify}/siteverify");
            c.public_url = "https://blockbrief.test".into();
        }
    };
    let app = TestApp::start_with(backend, setup(CaptchaMode::V3)).await;
    let ask = |email: &str, token: Option<&str>| json!({ "email": email, "purpose": "login", "captcha": "reCAPTCHA.v3", "captcha_token": token });
    for (n, token) in [
        None,
        Some("bot"),
        Some("other-action"),
        Some("other-site"),
        Some("forged"),
    ]
    .into_iter()
    .enumerate()
    {
        let got = app
            .post("/otp/email", ask(&format!("c{n}@example.org"), token))
            .await;
        assert_error(&got, 200, 4107);
    }
    assert_eq!(
        app.post("/otp/email", ask("ok@example.org", Some("human")))
            .await
            .1["code"],
        2000
    );

    // v2 has no score or action: success on our host is enough.
    let app = TestApp::start_with(backend, setup(CaptchaMode::V2)).await;
    assert_eq!(
        app.post("/otp/email", ask("v2@example.org", Some("other-action")))
            .await
            .1["code"],
        2000
    );
    assert_error(
        &app.post("/otp/email", ask("v2b@example.org", Some("other-site")))
            .await,
        200,
        4107,
    );
}

/// While the code guard is up (wrong codes site-wide past `OTP_GUARD_FAILURES`), a site with a
/// captcha asks for an answer with every code, for the `otplogin` action.
async fn under_the_code_guard_signing_in_needs_a_captcha(backend: Backend) {
    let verify = serve_peer(axum::Router::new().route("/siteverify", post(siteverify))).await;
    let app = TestApp::start_with(backend, |c| {
        c.captcha = CaptchaMode::V3;
        c.recaptcha_secret = "shh".into();
        c.recaptcha_verify_url = format!("{verify}/siteverify");
        c.public_url = "https://blockbrief.test".into();
        c.otp_guard_failures = 2;
    })
    .await;
    for email in ["a@example.org", "b@example.org", "c@example.org"] {
        app.codes.set_next("1111");
        let ask = json!({ "email": email, "purpose": "login", "captcha_token": "human" });
        assert_eq!(app.post("/otp/email", ask).await.1["code"], 2000);
    }
    // Two wrong codes, no captcha asked: the guard goes up.
    assert_error(&app.login("a@example.org", "2222").await, 200, 4103);
    assert_error(&app.login("b@example.org", "2222").await, 200, 4103);
    let login = |token: Option<&str>| json!({ "email": "c@example.org", "otp": "1111", "captcha_token": token });
    for token in [None, Some("human"), Some("bot")] {
        assert_error(
            &app.post("/user/login/email", login(token)).await,
            200,
            4107,
        );
    }
    let signed_in = app
        .post("/user/login/email", login(Some("human-login")))
        .await;
    assert_eq!(signed_in.1["code"], 2000, "{}", signed_in.1);
}

on_both_databases!(
    codes_arrive_by_mail_in_the_readers_language,
    an_unreachable_mail_server_is_a_503_and_frees_the_resend,
    captcha_answers_are_verified_on_the_server,
    under_the_code_guard_signing_in_needs_a_captcha,
);
