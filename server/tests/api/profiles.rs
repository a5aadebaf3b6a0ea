//! Public profiles: anyone reads one; a reader changes their nickname (by client-core's rule,
//! unique without regard to case, also under concurrency) and bio; mentions follow the name.

use serde_json::{Value, json};

use crate::common::{Backend, TestApp, assert_error};

async fn reader(app: &TestApp, email: &str) -> (String, i64) {
    let session = app.sign_in(email).await;
    (
        session["token"].as_str().expect("token").to_owned(),
        session["id"].as_i64().expect("id"),
    )
}

async fn update(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    let (status, answer) = app
        .post_with("/user/profile/update", body, &[("X-TOKEN", token)])
        .await;
    (status.as_u16(), answer)
}

async fn profiles_are_public_and_names_unique(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (a, a_id) = reader(&app, "a@example.com").await;
    let (b, _) = reader(&app, "b@example.com").await;
    let (_, shown) = app.post("/user/profile", json!({ "user_id": a_id })).await;
    assert_eq!(shown["data"]["id"], a_id);
    assert_eq!(
        (
            shown["data"]["bio"].clone(),
            shown["data"]["comments"].clone()
        ),
        (json!(""), json!(0))
    );
    assert_eq!(
        app.post("/user/profile", json!({ "user_id": 999_999 }))
            .await
            .1["code"],
        4040
    );
    let (_, mine) = update(
        &app,
        &a,
        json!({ "nickname": "  Satoshi Fan  ", "bio": "HODL since 2013" }),
    )
    .await;
    assert_eq!(
        (
            mine["data"]["nickname"].clone(),
            mine["data"]["bio"].clone()
        ),
        (json!("Satoshi Fan"), json!("HODL since 2013"))
    );
    // Taken, whatever the case; the owner may change the case of their own.
    let (_, taken) = update(&app, &b, json!({ "nickname": "satoshi fan" })).await;
    assert_eq!(taken["code"], 4604, "{taken}");
    assert_eq!(
        update(&app, &a, json!({ "nickname": "SATOSHI FAN" }))
            .await
            .1["code"],
        2000
    );
    // In every script, on both databases (SQLite's own `lower()` folds ASCII only).
    assert_eq!(
        update(&app, &a, json!({ "nickname": "Đạt Nguyễn" }))
            .await
            .1["code"],
        2000
    );
    let (c, _) = reader(&app, "script@example.com").await;
    let (_, taken) = update(&app, &c, json!({ "nickname": "đẠT NGUYỄN" })).await;
    assert_eq!(taken["code"], 4604, "{taken}");
    // The rule: length, invisible characters, `@`, the bio's length.
    for bad in [
        json!({ "nickname": "x" }),
        json!({ "nickname": "x".repeat(25) }),
        json!({ "nickname": "zero\u{200b}width" }),
        json!({ "nickname": "new\nline" }),
        json!({ "nickname": "at@sign" }),
        json!({ "bio": "b".repeat(161) }),
    ] {
        let (status, refused) = update(&app, &b, bad.clone()).await;
        assert_eq!(
            (status, refused["code"].clone()),
            (200, json!(4001)),
            "{bad}: {refused}"
        );
    }
    assert_error(
        &app.post("/user/profile/update", json!({ "bio": "x" }))
            .await,
        401,
        4010,
    );
    // Ten readers asking for one free name at once: one gets it.
    let mut tokens = Vec::new();
    for n in 0..10 {
        tokens.push(reader(&app, &format!("racer{n}@example.com")).await.0);
    }
    let asks = tokens
        .iter()
        .map(|t| update(&app, t, json!({ "nickname": "Vitalik Fan" })));
    let codes: Vec<i64> = futures_util::future::join_all(asks)
        .await
        .iter()
        .map(|(_, a)| a["code"].as_i64().expect("code"))
        .collect();
    assert_eq!(codes.iter().filter(|c| **c == 2000).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|c| [2000, 4604].contains(c)), "{codes:?}");
    // Ten changes an hour.
    for n in 0..9 {
        assert_eq!(
            update(&app, &b, json!({ "bio": format!("bio {n}") }))
                .await
                .1["code"],
            2000
        );
    }
    assert_eq!(
        update(&app, &b, json!({ "bio": "one too many" })).await.0,
        429
    );
}

async fn mentions_follow_the_chosen_name(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.admin_token = Some("admin-token-for-tests-0123456789".to_owned())
    })
    .await;
    let item = json!({ "source_url": "https://news.test/profile", "kind": "flash", "lang": "en",
        "title": "Profiles", "published_at": app.state.now() });
    let (_, made) = app
        .post_with(
            "/admin/feed/upsert",
            item,
            &[("X-ADMIN-TOKEN", "admin-token-for-tests-0123456789")],
        )
        .await;
    let feed = made["data"]["id"].as_i64().expect("id");
    let (a, a_id) = reader(&app, "a@example.com").await;
    let (b, _) = reader(&app, "b@example.com").await;
    update(&app, &a, json!({ "nickname": "Alice" })).await;
    let comment = json!({ "feed_id": feed, "content": "hi @alice, and @Alice again" });
    let (_, added) = app
        .post_with("/comment/add", comment, &[("X-TOKEN", b.as_str())])
        .await;
    assert_eq!(added["code"], 2000, "{added}");
    let (_, inbox) = app
        .post_with("/message/list", json!({}), &[("X-TOKEN", a.as_str())])
        .await;
    let mentions: Vec<&Value> = inbox["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|m| m["kind"] == "mention")
        .collect();
    assert_eq!(
        mentions.len(),
        1,
        "one message for one reader named twice: {inbox}"
    );
    // Their profile counts the comments and the likes on them.
    let id = added["data"]["id"].as_i64().expect("id");
    app.post_with(
        "/like/set",
        json!({ "kind": "comment", "id": id, "liked": true }),
        &[("X-TOKEN", a.as_str())],
    )
    .await;
    let b_id = added["data"]["user"]["id"].as_i64().expect("author");
    let (_, shown) = app.post("/user/profile", json!({ "user_id": b_id })).await;
    assert_eq!(
        (
            shown["data"]["comments"].clone(),
            shown["data"]["likes_received"].clone()
        ),
        (json!(1), json!(1))
    );
    assert_ne!(b_id, a_id);
}

on_both_databases!(
    profiles_are_public_and_names_unique,
    mentions_follow_the_chosen_name
);
