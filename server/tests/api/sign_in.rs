//! Signing in with an email code, sessions and sign-out, on SQLite and PostgreSQL.

use crate::common::{Backend, TestApp, assert_error, serve_peer};
use axum::routing::post;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};
use server::auth::tokens::USER_TOKEN_TTL_SECONDS;
use server::entity::{session, user};
use std::sync::{Arc, Mutex};

async fn the_whole_email_flow(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (_, guest) = app.post("/user/gtoken", json!({})).await;
    assert_eq!(guest["data"]["type"], 0);
    let guest_token = guest["data"]["token"].as_str().expect("guest token");
    let (status, sent) = app.send_code("Reader@Example.org", "2468").await;
    assert_eq!(
        (status.as_u16(), &sent["data"]),
        (200, &json!({ "resend_after": 60, "expires_in": 300 }))
    );
    let (_, session) = app
        .post_with(
            "/user/login/email",
            json!({ "email": "reader@example.org", "otp": "2468" }),
            &[("X-GTOKEN", guest_token)],
        )
        .await;
    let me = &session["data"];
    assert_eq!(session["code"], 2000, "{session}");
    assert_eq!(me["type"], 1);
    assert_eq!(me["prompt_for_code"], true);
    // A first nickname reveals nothing of the email address it was made from.
    let nickname = me["nickname"].as_str().expect("nickname");
    assert!(
        nickname.starts_with("user_") && nickname.len() == 11 && !nickname.contains("reader"),
        "{nickname}"
    );
    for field in ["username", "exposed_uid", "invitation_code", "avatar"] {
        assert!(me[field].is_string(), "{field}");
    }
    let token = me["token"].as_str().expect("token");
    let auth = [("X-TOKEN", token)];
    let (_, accounts) = app.post_with("/user/account/list", json!({}), &auth).await;
    assert_eq!(
        accounts["data"]["list"],
        json!([{ "type": "email", "name": "reader@example.org", "id": accounts["data"]["list"][0]["id"] }])
    );
    let (_, info) = app.post_with("/user/info", json!({}), &auth).await;
    assert_eq!(info["data"]["id"], me["id"]);
    assert_eq!(info["data"]["token"], Value::Null);
    let (_, out) = app.post_with("/user/logout", json!({}), &auth).await;
    assert_eq!(out["code"], 2000);
    assert_error(
        &app.post_with("/user/account/list", json!({}), &auth).await,
        401,
        401,
    );
    assert_error(
        &app.post_with("/user/logout", json!({}), &auth).await,
        401,
        401,
    );
}

async fn returning_users_keep_their_account_and_get_a_new_token(backend: Backend) {
    let app = TestApp::start(backend).await;
    let first = app.sign_in("same@example.org").await;
    app.clock.advance(61);
    let second = app.sign_in("SAME@example.org").await;
    assert_eq!(first["id"], second["id"]);
    assert_eq!(second["prompt_for_code"], false);
    assert_ne!(first["token"], second["token"]);
    assert_eq!(
        user::Entity::find()
            .count(&app.state.db)
            .await
            .expect("count"),
        1
    );
    // Both sessions live until each is ended on its own.
    for s in [&first, &second] {
        let t = s["token"].as_str().expect("token");
        assert_eq!(
            app.post_with("/user/info", json!({}), &[("X-TOKEN", t)])
                .await
                .1["code"],
            2000
        );
    }
}

async fn tokens_are_random_hashed_and_expire(backend: Backend) {
    let app = TestApp::start(backend).await;
    let me = app.sign_in("t@example.org").await;
    let token = me["token"].as_str().expect("token");
    // 32 random bytes, URL-safe base64: 256 bits.
    assert_eq!(token.len(), 43);
    let stored = session::Entity::find()
        .all(&app.state.db)
        .await
        .expect("sessions");
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0].token_hash, token);
    assert_eq!(
        stored[0].token_hash,
        server::auth::tokens::hash_token(token)
    );
    app.clock.advance(USER_TOKEN_TTL_SECONDS - 1);
    assert_eq!(
        app.post_with("/user/info", json!({}), &[("X-TOKEN", token)])
            .await
            .1["code"],
        2000
    );
    app.clock.advance(1);
    assert_error(
        &app.post_with("/user/info", json!({}), &[("X-TOKEN", token)])
            .await,
        401,
        401,
    );
}

async fn a_revocation_by_another_instance_applies_within_the_cache_window(backend: Backend) {
    use sea_orm::{ConnectionTrait, Statement};
    let app = TestApp::start(backend).await;
    let me = app.sign_in("multi@example.org").await;
    let auth = [("X-TOKEN", me["token"].as_str().expect("token"))];
    assert_eq!(
        app.post_with("/user/info", json!({}), &auth).await.1["code"],
        2000
    );
    // Another server instance signs the session out: only the shared database changes.
    let db = &app.state.db;
    let sql = format!("UPDATE sessions SET revoked_at = {}", crate::common::START);
    db.execute(Statement::from_string(db.get_database_backend(), sql))
        .await
        .expect("update");
    app.clock.advance(server::auth::tokens::CACHE_SECONDS);
    assert_error(
        &app.post_with("/user/info", json!({}), &auth).await,
        401,
        401,
    );
}

async fn bad_sign_in_input_gets_catalogue_errors(backend: Backend) {
    let app = TestApp::start(backend).await;
    // A rule with its own catalogue code answers with it, and names the field.
    let bad_email = app
        .post("/otp/email", json!({ "email": "nope", "purpose": "login" }))
        .await;
    assert_error(&bad_email, 200, 4101);
    assert_eq!(bad_email.1["data"]["errors"][0]["field"], "email");
    assert_eq!(
        bad_email.1["data"]["errors"][0]["key"],
        "error.invalidEmail"
    );
    assert_error(
        &app.post(
            "/otp/email",
            json!({ "email": "a@b.co", "purpose": "reset" }),
        )
        .await,
        200,
        4001,
    );
    assert_error(&app.login("nope", "1234").await, 200, 4101);
    for code in ["123", "12345", "12a4", ""] {
        assert_error(&app.login("a@b.co", code).await, 200, 4103);
    }
    // No code was ever sent.
    assert_error(&app.login("a@b.co", "1234").await, 200, 4104);
}

async fn phone_sign_in_is_off_by_default(backend: Backend) {
    let app = TestApp::start(backend).await;
    let send = json!({ "dial_code": "886", "phone_number": "912345678", "purpose": "login" });
    assert_error(&app.post("/otp/sms", send).await, 200, 4108);
    let login = json!({ "dial_code": "886", "phone_number": "912345678", "otp": "1234" });
    assert_error(
        &app.post("/user/login/phone_number", login).await,
        200,
        4108,
    );
}

async fn phone_sign_in_through_an_sms_gateway(backend: Backend) {
    let received: Arc<Mutex<Vec<Value>>> = Arc::default();
    let inbox = received.clone();
    let gateway = serve_peer(axum::Router::new().route(
        "/send",
        post(move |axum::Json(body): axum::Json<Value>| {
            let inbox = inbox.clone();
            async move {
                inbox.lock().expect("lock").push(body);
                "queued"
            }
        }),
    ))
    .await;
    let app = TestApp::start_with(backend, |c| {
        c.sms_webhook_url = Some(format!("{gateway}/send"))
    })
    .await;
    let bad = json!({ "dial_code": "886", "phone_number": "12", "purpose": "login" });
    assert_error(&app.post("/otp/sms", bad).await, 200, 4102);
    app.codes.set_next("8642");
    let send = json!({ "dial_code": "886", "phone_number": "912345678", "purpose": "login" });
    assert_eq!(app.post("/otp/sms", send).await.1["code"], 2000);
    let sms = received
        .lock()
        .expect("lock")
        .pop()
        .expect("an SMS was sent");
    assert_eq!(sms["to"], "886-912345678");
    assert!(
        sms["text"].as_str().unwrap_or_default().contains("8642"),
        "{sms}"
    );
    let login = json!({ "dial_code": "886", "phone_number": "912345678", "otp": "8642" });
    let (_, session) = app.post("/user/login/phone_number", login).await;
    assert_eq!(session["data"]["type"], 1, "{session}");
    let token = session["data"]["token"].as_str().expect("token");
    let (_, accounts) = app
        .post_with("/user/account/list", json!({}), &[("X-TOKEN", token)])
        .await;
    assert_eq!(accounts["data"]["list"][0]["type"], "phone");
    assert_eq!(accounts["data"]["list"][0]["name"], "886-912345678");
}

on_both_databases!(
    the_whole_email_flow,
    returning_users_keep_their_account_and_get_a_new_token,
    tokens_are_random_hashed_and_expire,
    a_revocation_by_another_instance_applies_within_the_cache_window,
    bad_sign_in_input_gets_catalogue_errors,
    phone_sign_in_is_off_by_default,
    phone_sign_in_through_an_sms_gateway,
);
