//! Likes on feed items: idempotent, exact under concurrency, limited per user.

use serde_json::{Value, json};

use crate::common::{Backend, TestApp, assert_error};

const ADMIN: &str = "admin-token-for-tests-0123456789";

async fn liked_app(backend: Backend) -> (TestApp, i64, String) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let item = json!({ "source_url": "https://news.test/like", "kind": "flash", "lang": "en",
        "title": "Likeable", "published_at": app.state.now() });
    let (_, made) = app
        .post_with("/admin/feed/upsert", item, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    let id = made["data"]["id"].as_i64().expect("id");
    let token = app.sign_in("liker@example.com").await["token"]
        .as_str()
        .expect("token")
        .to_owned();
    (app, id, token)
}

async fn likes_are_idempotent_and_exact(backend: Backend) {
    let (app, id, token) = liked_app(backend).await;
    let auth = [("X-TOKEN", token.as_str())];
    // Fifty identical calls at once: one like.
    let calls = (0..50).map(|_| {
        app.post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": true }),
            &auth,
        )
    });
    let answers = futures_util::future::join_all(calls).await;
    assert!(
        answers
            .iter()
            .all(|(_, b)| b["code"] == 2000 && b["data"]["liked"] == true),
        "{answers:?}"
    );
    let (_, again) = app
        .post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": true }),
            &auth,
        )
        .await;
    assert_eq!(again["data"], json!({ "liked": true, "count": 1 }));
    let other = app.sign_in("other@example.com").await;
    let other = [("X-TOKEN", other["token"].as_str().expect("token"))];
    let (_, two) = app
        .post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": true }),
            &other,
        )
        .await;
    assert_eq!(two["data"]["count"], 2);
    let (_, detail) = app.post("/feed/detail", json!({ "id": id })).await;
    assert_eq!(
        (
            detail["data"]["like_count"].clone(),
            detail["data"]["liked"].clone()
        ),
        (json!(2), Value::Null)
    );
    let (_, mine) = app
        .post_with("/feed/detail", json!({ "id": id }), &auth)
        .await;
    assert_eq!(mine["data"]["liked"], true);
    // Unliking twice takes one away.
    for _ in 0..2 {
        let (_, off) = app
            .post_with(
                "/like/set",
                json!({ "kind": "feed", "id": id, "liked": false }),
                &auth,
            )
            .await;
        assert_eq!(off["data"], json!({ "liked": false, "count": 1 }));
    }
}

async fn likes_refuse_bad_calls_and_floods(backend: Backend) {
    let (app, id, token) = liked_app(backend).await;
    let auth = [("X-TOKEN", token.as_str())];
    let visitor = app
        .post(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": true }),
        )
        .await;
    assert_error(&visitor, 401, 4010);
    let (_, missing) = app
        .post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id + 99, "liked": true }),
            &auth,
        )
        .await;
    assert_eq!(missing["code"], 4040, "{missing}");
    let (_, kind) = app
        .post_with(
            "/like/set",
            json!({ "kind": "poll", "id": id, "liked": true }),
            &auth,
        )
        .await;
    assert_eq!(kind["code"], 4001, "{kind}");
    // 60 a minute per user (the missing item above counts; a bad kind is refused before): the
    // next is refused with when to try again.
    for i in 0..59 {
        let (_, ok) = app
            .post_with(
                "/like/set",
                json!({ "kind": "feed", "id": id, "liked": i % 2 == 0 }),
                &auth,
            )
            .await;
        assert_eq!(ok["code"], 2000, "{i}: {ok}");
    }
    let limited = app
        .post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": true }),
            &auth,
        )
        .await;
    assert_eq!(limited.0, 429, "{:?}", limited.1);
    app.clock.advance(61);
    let (_, later) = app
        .post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": true }),
            &auth,
        )
        .await;
    assert_eq!(later["data"], json!({ "liked": true, "count": 1 }));
}

/// The reader's marks on a feed page, as the list answers them: `(liked, favorited)` of `id`.
async fn marks_on_list(app: &TestApp, token: &str, id: i64) -> (Value, Value) {
    let (_, page) = app
        .post_with("/feed/list", json!({}), &[("X-TOKEN", token)])
        .await;
    let item = page["data"]["list"]
        .as_array()
        .and_then(|list| list.iter().find(|i| i["id"] == id))
        .unwrap_or_else(|| panic!("{id} not in {page}"))
        .clone();
    (item["liked"].clone(), item["favorited"].clone())
}

/// Signed-in pages take the reader's marks from what this server keeps of them: a like or a
/// favorite changes the next page at once, here and (PostgreSQL) on another server within 1 s.
async fn marks_follow_likes_and_favorites_on_every_server(backend: Backend) {
    let (app, id, token) = liked_app(backend).await;
    let auth = [("X-TOKEN", token.as_str())];
    let off = (json!(false), json!(false));
    assert_eq!(marks_on_list(&app, &token, id).await, off, "now kept");
    let set = |path: &'static str, body: Value| app.post_with(path, body, &auth);
    set(
        "/like/set",
        json!({ "kind": "feed", "id": id, "liked": true }),
    )
    .await;
    assert_eq!(
        marks_on_list(&app, &token, id).await,
        (json!(true), json!(false))
    );
    set("/favorite/set", json!({ "feed_id": id, "favorited": true })).await;
    assert_eq!(
        marks_on_list(&app, &token, id).await,
        (json!(true), json!(true))
    );
    set(
        "/like/set",
        json!({ "kind": "feed", "id": id, "liked": false }),
    )
    .await;
    set(
        "/favorite/set",
        json!({ "feed_id": id, "favorited": false }),
    )
    .await;
    assert_eq!(marks_on_list(&app, &token, id).await, off);
    if backend != Backend::Postgres {
        return;
    }
    let beside = app.start_beside().await;
    assert_eq!(marks_on_list(&beside, &token, id).await, off, "kept there");
    set(
        "/like/set",
        json!({ "kind": "feed", "id": id, "liked": true }),
    )
    .await;
    let started = std::time::Instant::now();
    while marks_on_list(&beside, &token, id).await != (json!(true), json!(false)) {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(1),
            "the like was not seen on the other server within 1 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// A reader with more likes than a server keeps for them is marked from one query a page, and
/// as rightly.
async fn a_reader_with_many_likes_is_marked_per_page(backend: Backend) {
    let (app, id, token) = liked_app(backend).await;
    let (_, me) = app
        .post_with("/user/info", json!({}), &[("X-TOKEN", token.as_str())])
        .await;
    let user_id = me["data"]["id"].as_i64().expect("id");
    use sea_orm::ConnectionTrait;
    let many = server::social::marks::READER_MARKS_MAX + 1;
    app.state
        .db
        .execute_unprepared(&format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {many}) \
             INSERT INTO likes (user_id, kind, target_id, created_at) \
             SELECT {user_id}, 'feed', 1000000 + i, 0 FROM n"
        ))
        .await
        .expect("many likes");
    let auth = [("X-TOKEN", token.as_str())];
    for liked in [true, false, true] {
        app.post_with(
            "/like/set",
            json!({ "kind": "feed", "id": id, "liked": liked }),
            &auth,
        )
        .await;
        assert_eq!(
            marks_on_list(&app, &token, id).await,
            (json!(liked), json!(false))
        );
    }
}

on_both_databases!(
    a_reader_with_many_likes_is_marked_per_page,
    likes_are_idempotent_and_exact,
    likes_refuse_bad_calls_and_floods,
    marks_follow_likes_and_favorites_on_every_server
);
