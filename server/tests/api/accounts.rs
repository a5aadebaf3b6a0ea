//! Invitation codes and removing sign-in accounts, on SQLite and PostgreSQL.

use crate::common::{Backend, TestApp, assert_error};
use serde_json::{Value, json};

struct Person {
    id: i64,
    token: String,
    code: String,
}

async fn person(app: &TestApp, email: &str) -> Person {
    app.clock.advance(61); // past the resend gate of the previous sign-in
    let me = app.sign_in(email).await;
    Person {
        id: me["id"].as_i64().expect("id"),
        token: me["token"].as_str().expect("token").to_owned(),
        code: me["invitation_code"].as_str().expect("code").to_owned(),
    }
}

async fn accounts(app: &TestApp, who: &Person) -> Value {
    let (_, got) = app
        .post_with("/user/account/list", json!({}), &[("X-TOKEN", &who.token)])
        .await;
    got["data"]["list"].clone()
}

async fn enter(app: &TestApp, who: &Person, code: &str) -> (reqwest::StatusCode, Value) {
    app.post_with(
        "/user/invitation/bind",
        json!({ "invitation_code": code }),
        &[("X-TOKEN", &who.token)],
    )
    .await
}

async fn invitations_are_once_not_own_and_not_circular(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (a, b, c) = (
        person(&app, "a@x.org").await,
        person(&app, "b@x.org").await,
        person(&app, "c@x.org").await,
    );
    assert_eq!(a.code.len(), 8);
    assert_ne!(a.code, b.code);
    assert_error(&enter(&app, &a, &a.code).await, 200, 4501);
    assert_error(&enter(&app, &a, "NOSUCH99").await, 200, 4501);
    assert_error(&enter(&app, &a, "").await, 200, 4501);
    // B enters A's code (case does not matter); A's invite task moves.
    assert_eq!(
        enter(&app, &b, &a.code.to_lowercase()).await.1["code"],
        2000
    );
    let (_, tasks) = app
        .post_with(
            "/point/task/list",
            json!({ "group": "novice" }),
            &[("X-TOKEN", &a.token)],
        )
        .await;
    let invite = tasks["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["event_type"] == "invite_friend")
        .cloned();
    assert_eq!(invite.expect("task")["status"], "to_receive");
    // Once per user.
    assert_error(&enter(&app, &b, &c.code).await, 200, 4502);
    // C enters B's code: A → B → C. A entering B's or C's code would close a circle.
    assert_eq!(enter(&app, &c, &b.code).await.1["code"], 2000);
    assert_error(&enter(&app, &a, &b.code).await, 200, 4501);
    assert_error(&enter(&app, &a, &c.code).await, 200, 4501);
    let guest = app
        .post(
            "/user/invitation/bind",
            json!({ "invitation_code": a.code }),
        )
        .await;
    assert_error(&guest, 401, 4010);
    assert!(a.id != b.id && b.id != c.id);
}

async fn the_last_way_to_sign_in_cannot_be_removed(backend: Backend) {
    let app = TestApp::start(backend).await;
    let me = person(&app, "solo@x.org").await;
    let other = person(&app, "other@x.org").await;
    let auth = [("X-TOKEN", me.token.as_str())];
    let mine = accounts(&app, &me).await;
    let email_id = mine[0]["id"].clone();
    assert_error(
        &app.post_with("/user/account/unbind", json!({ "id": email_id }), &auth)
            .await,
        200,
        4405,
    );
    // Someone else's account is not ours to remove.
    let theirs = accounts(&app, &other).await[0]["id"].clone();
    assert_error(
        &app.post_with("/user/account/unbind", json!({ "id": theirs }), &auth)
            .await,
        404,
        4040,
    );
    // With a second way in (a phone account added directly), the email can go.
    server::auth::users::bind(&app.state, me.id, "phone", "886-912345678", "886-912345678")
        .await
        .expect("bind phone");
    assert_eq!(
        app.post_with("/user/account/unbind", json!({ "id": email_id }), &auth)
            .await
            .1["code"],
        2000
    );
    let left = accounts(&app, &me).await;
    assert_eq!(left.as_array().map(Vec::len), Some(1));
    assert_eq!(left[0]["type"], "phone");
    assert_error(
        &app.post_with(
            "/user/account/unbind",
            json!({ "id": left[0]["id"] }),
            &auth,
        )
        .await,
        200,
        4405,
    );
}

on_both_databases!(
    invitations_are_once_not_own_and_not_circular,
    the_last_way_to_sign_in_cannot_be_removed
);
