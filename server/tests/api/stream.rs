//! The live stream: new items by subject, a thread's counts and comments, the unread count,
//! tickets, limits, replay after a reconnect, and every server on one PostgreSQL.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::binary::Binary;
use crate::common::sse::{SseEvent, SseReader};
use crate::common::{Backend, TestApp, database_url};

const ADMIN: &str = "admin-token-for-tests-0123456789";

async fn stream_app(backend: Backend) -> TestApp {
    TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await
}

/// Stores an editor's item through `base`'s API; gives its id.
async fn upsert(http: &reqwest::Client, base: &str, url: &str, extra: Value) -> i64 {
    let mut item = json!({ "source_url": format!("https://news.test/{url}"), "kind": "flash",
        "lang": "en", "title": format!("Item {url}"), "published_at": 1_790_000_000 });
    for (k, v) in extra.as_object().expect("object") {
        item[k] = v.clone();
    }
    let made: Value = http
        .post(format!("{base}/api/admin/feed/upsert"))
        .header("X-ADMIN-TOKEN", ADMIN)
        .json(&item)
        .send()
        .await
        .expect("upsert")
        .json()
        .await
        .expect("json");
    made["data"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{made}"))
}

async fn open(app: &TestApp, query: &str, headers: &[(&str, &str)]) -> SseReader {
    SseReader::open(&app.http, &app.url(&format!("/stream?{query}")), headers).await
}

async fn token_and_id(app: &TestApp, email: &str) -> (String, i64) {
    let token = app.sign_in(email).await["token"]
        .as_str()
        .expect("token")
        .to_owned();
    let (_, me) = app
        .post_with("/user/info", json!({}), &[("X-TOKEN", token.as_str())])
        .await;
    (token, me["data"]["id"].as_i64().expect("id"))
}

/// The log holds every event published so far (its writer runs beside the requests).
async fn logged_up_to(app: &TestApp, at_least: i64) {
    for _ in 0..250 {
        let newest = server::stream::log::newest(&app.state.ctx)
            .await
            .expect("log");
        if newest.unwrap_or(0) >= at_least {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the log did not reach {at_least}");
}

async fn newest(app: &TestApp) -> i64 {
    server::stream::log::newest(&app.state.ctx)
        .await
        .expect("log")
        .unwrap_or(0)
}

async fn items_reach_the_streams_whose_subjects_they_match(backend: Backend) {
    let app = stream_app(backend).await;
    let mut tagged = open(&app, "subjects=tag:DeFi,token:eth", &[]).await;
    let mut important = open(&app, "subjects=home&only_important=1", &[]).await;
    let mut korean = open(&app, "subjects=home&langs=ko", &[]).await;
    for stream in [&mut tagged, &mut important, &mut korean] {
        assert_eq!(stream.next().await.event, "open");
    }
    let base = &app.base;
    upsert(&app.http, base, "nft", json!({ "tags": ["nft"] })).await;
    let defi = upsert(
        &app.http,
        base,
        "defi",
        json!({ "tags": ["defi"], "title": "DeFi news" }),
    )
    .await;
    let alert = upsert(
        &app.http,
        base,
        "alert",
        json!({ "tokens": ["ETH"], "important": true,
        "translations": { "ko": { "title": "속보" } } }),
    )
    .await;
    let first = tagged.next().await;
    assert_eq!(
        (first.event.as_str(), &first.data["id"]),
        ("item", &json!(defi))
    );
    assert_eq!(
        first.data["title"], "DeFi news",
        "the card as lists return it"
    );
    assert!(first.data["tags"].is_array() && first.data["like_count"] == 0);
    assert!(first.id.is_some(), "every event has an id");
    assert_eq!(
        tagged.next().await.data["id"],
        alert,
        "the nft item was not sent"
    );
    assert_eq!(
        important.next().await.data["id"],
        alert,
        "only the important one"
    );
    assert_eq!(
        korean.next().await.data["id"],
        alert,
        "only the one read in Korean"
    );
    // An item that becomes important is news again to `only_important` streams.
    upsert(
        &app.http,
        base,
        "defi",
        json!({ "tags": ["defi"], "important": true }),
    )
    .await;
    assert_eq!(important.next().await.data["id"], defi);
    assert_eq!(tagged.next().await.data["id"], defi);
    // An edit that changes nothing readers follow is not news.
    upsert(
        &app.http,
        base,
        "defi",
        json!({ "tags": ["defi"], "important": true, "title": "Edited" }),
    )
    .await;
    assert_eq!(tagged.next_within(Duration::from_millis(700)).await, None);
}

/// `home` on the `following` tab keeps to the tags and tokens the reader follows.
async fn the_following_tab_streams_what_a_reader_follows(backend: Backend) {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    use server::entity::{tag, token};
    let app = stream_app(backend).await;
    let base = &app.base;
    // The seed's own event goes out before the reader's stream opens: a visitor's stream has it.
    let mut everything = open(&app, "subjects=home", &[]).await;
    assert_eq!(everything.next().await.event, "open");
    let seed = upsert(
        &app.http,
        base,
        "seed",
        json!({ "tags": ["defi"], "tokens": ["SOL"] }),
    )
    .await;
    assert_eq!(everything.next_named("item").await.data["id"], seed);
    let db = &app.state.ctx.db;
    let tag_id = tag::Entity::find()
        .filter(tag::Column::Code.eq("defi"))
        .one(db)
        .await
        .expect("read")
        .expect("tag")
        .id;
    let token_id = token::Entity::find()
        .filter(token::Column::Symbol.eq("SOL"))
        .one(db)
        .await
        .expect("read")
        .expect("token")
        .id;
    let (reader, _) = token_and_id(&app, "follower@example.com").await;
    let as_reader = [("X-TOKEN", reader.as_str())];
    for (path, body) in [
        ("/tag/follow/add", json!({ "tag_id": tag_id })),
        ("/token/follow/add", json!({ "token_id": token_id })),
    ] {
        let (_, followed) = app.post_with(path, body, &as_reader).await;
        assert_eq!(followed["code"], 2000, "{path}: {followed}");
    }
    let mut following = open(&app, "subjects=home&tab=following", &as_reader).await;
    assert_eq!(following.next().await.event, "open");
    upsert(&app.http, base, "elsewhere", json!({ "tags": ["nft"] })).await;
    let by_tag = upsert(&app.http, base, "by-tag", json!({ "tags": ["defi"] })).await;
    let by_token = upsert(&app.http, base, "by-token", json!({ "tokens": ["SOL"] })).await;
    assert_eq!(
        following.next_named("item").await.data["id"],
        by_tag,
        "the nft item was not sent"
    );
    assert_eq!(following.next_named("item").await.data["id"], by_token);
}

async fn a_thread_streams_counts_and_comments_but_not_from_the_blocked(backend: Backend) {
    let app = stream_app(backend).await;
    let id = upsert(&app.http, &app.base, "thread", json!({})).await;
    let (reader, _) = token_and_id(&app, "reader@example.com").await;
    let (friend, _) = token_and_id(&app, "friend@example.com").await;
    let (troll, troll_id) = token_and_id(&app, "troll@example.com").await;
    let as_reader = [("X-TOKEN", reader.as_str())];
    let (_, blocked) = app
        .post_with(
            "/user/block",
            json!({ "user_id": troll_id, "blocked": true }),
            &as_reader,
        )
        .await;
    assert_eq!(blocked["code"], 2000, "{blocked}");
    let mut thread = open(&app, &format!("subjects=feed:{id}"), &as_reader).await;
    assert_eq!(thread.next().await.event, "open");
    assert_eq!(
        thread.next().await.event,
        "unread",
        "a signed-in reader's count comes first"
    );
    let comment = |token: String, text: &'static str| {
        let app = &app;
        async move {
            let (_, made) = app
                .post_with(
                    "/comment/add",
                    json!({ "feed_id": id, "content": text }),
                    &[("X-TOKEN", token.as_str())],
                )
                .await;
            assert_eq!(made["code"], 2000, "{made}");
            made["data"].clone()
        }
    };
    comment(troll.clone(), "from someone blocked").await;
    let made = comment(friend.clone(), "hello from a friend").await;
    let mut comments = Vec::new();
    let mut counts = Vec::new();
    while comments.is_empty()
        || counts
            .last()
            .is_none_or(|c: &Value| c["comment_count"] != 2)
    {
        let event = thread.next().await;
        match event.event.as_str() {
            "comment" => comments.push(event.data),
            "counts" => counts.push(event.data),
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(
        comments,
        vec![made.clone()],
        "as /comment/list returns it, none from the blocked"
    );
    assert_eq!(counts.last().expect("counts")["feed_id"], id);
    // Likes in a burst: counts at most once a second, the last with every like.
    let liked_at = std::time::Instant::now();
    for token in [&reader, &friend, &troll] {
        let (_, liked) = app
            .post_with(
                "/like/set",
                json!({ "kind": "feed", "id": id, "liked": true }),
                &[("X-TOKEN", token.as_str())],
            )
            .await;
        assert_eq!(liked["code"], 2000);
    }
    let mut seen = Vec::new();
    while seen
        .last()
        .is_none_or(|c: &SseEvent| c.data["like_count"] != 3)
    {
        seen.push(thread.next_named("counts").await);
    }
    assert!(
        seen.len() <= 2 && (seen.len() == 1 || liked_at.elapsed() >= Duration::from_millis(900)),
        "a burst of likes is at most one counts event a second: {seen:?}"
    );
    // An edit comes again with its new text.
    let (_, edited) = app
        .post_with(
            "/comment/edit",
            json!({ "id": made["id"], "content": "hello, edited" }),
            &[("X-TOKEN", friend.as_str())],
        )
        .await;
    assert_eq!(edited["code"], 2000, "{edited}");
    let again = thread.next_named("comment").await;
    assert_eq!(again.data["content"], "hello, edited");
}

async fn a_reader_s_unread_count_is_live(backend: Backend) {
    let app = stream_app(backend).await;
    let id = upsert(&app.http, &app.base, "unread", json!({})).await;
    let (reader, _) = token_and_id(&app, "unread@example.com").await;
    let (other, _) = token_and_id(&app, "replier@example.com").await;
    let as_reader = [("X-TOKEN", reader.as_str())];
    let (_, mine) = app
        .post_with(
            "/comment/add",
            json!({ "feed_id": id, "content": "my take" }),
            &as_reader,
        )
        .await;
    let mut home = open(&app, "subjects=home", &as_reader).await;
    assert_eq!(home.next().await.event, "open");
    let before = home.next_named("unread").await.data["count"]
        .as_i64()
        .expect("count");
    app.post_with(
        "/comment/add",
        json!({ "feed_id": id, "content": "a reply", "parent_id": mine["data"]["id"] }),
        &[("X-TOKEN", other.as_str())],
    )
    .await;
    assert_eq!(home.next_named("unread").await.data["count"], before + 1);
    app.post_with(
        "/message/read",
        json!({ "ids": [], "all": true }),
        &as_reader,
    )
    .await;
    assert_eq!(home.next_named("unread").await.data["count"], 0);
}

async fn tickets_sign_a_stream_in_once(backend: Backend) {
    let app = stream_app(backend).await;
    let (reader, _) = token_and_id(&app, "ticket@example.com").await;
    let visitor = app.post("/stream/ticket", json!({})).await;
    assert_eq!(visitor.0, 401, "{:?}", visitor.1);
    let (_, issued) = app
        .post_with("/stream/ticket", json!({}), &[("X-TOKEN", reader.as_str())])
        .await;
    let ticket = issued["data"]["ticket"]
        .as_str()
        .expect("ticket")
        .to_owned();
    assert_eq!(issued["data"]["expires_in"], 60);
    let mut signed_in = open(&app, &format!("subjects=home&ticket={ticket}"), &[]).await;
    assert_eq!(signed_in.next().await.event, "open");
    assert_eq!(
        signed_in.next().await.event,
        "unread",
        "the ticket signed the stream in"
    );
    let again = app
        .http
        .get(app.url(&format!("/stream?subjects=home&ticket={ticket}")))
        .send()
        .await
        .expect("answer");
    assert_eq!(again.status(), 401);
    let body: Value = again.json().await.expect("envelope");
    assert_eq!(body["code"], 401, "{body}");
    // A ticket past its minute signs nothing in.
    let (_, late) = app
        .post_with("/stream/ticket", json!({}), &[("X-TOKEN", reader.as_str())])
        .await;
    app.clock.advance(61);
    let lapsed = late["data"]["ticket"].as_str().expect("ticket");
    let status = app
        .http
        .get(app.url(&format!("/stream?subjects=home&ticket={lapsed}")))
        .send()
        .await
        .expect("answer")
        .status();
    assert_eq!(status, 401);
}

async fn bad_streams_are_refused_and_limits_hold(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.stream.stream_per_client = 2;
        c.stream.stream_per_account = 1;
    })
    .await;
    let refused = |query: String, headers: Vec<(&'static str, String)>| {
        let app = &app;
        async move {
            let mut request = app.http.get(app.url(&format!("/stream?{query}")));
            for (name, value) in headers {
                request = request.header(name, value);
            }
            let answer = request.send().await.expect("answer");
            let status = answer.status().as_u16();
            let body: Value = answer.json().await.expect("an envelope, not a stream");
            (status, body)
        }
    };
    let many: Vec<String> = (1..=21).map(|i| format!("feed:{i}")).collect();
    for query in [
        "subjects=user:1",
        "subjects=",
        "",
        "subjects=home&tab=trending",
        "subjects=home&langs=fr",
    ]
    .map(str::to_owned)
    .into_iter()
    .chain([format!("subjects={}", many.join(","))])
    {
        let (status, body) = refused(query.clone(), Vec::new()).await;
        assert_eq!(
            (status, body["code"].clone()),
            (200, json!(4001)),
            "{query}: {body}"
        );
        assert!(!body["msg"].as_str().unwrap_or_default().is_empty());
    }
    let (_, body) = refused(
        "subjects=home".into(),
        vec![("Last-Event-ID", "soon".into())],
    )
    .await;
    assert_eq!(body["code"], 4001, "{body}");
    let (token, _) = token_and_id(&app, "limits@example.com").await;
    let mut first = open(&app, "subjects=home", &[("X-TOKEN", token.as_str())]).await;
    assert_eq!(first.next().await.event, "open");
    let (status, body) = refused("subjects=home".into(), vec![("X-TOKEN", token.clone())]).await;
    assert_eq!(
        (status, body["code"].clone()),
        (429, json!(4290)),
        "one per account: {body}"
    );
    let _second = open(&app, "subjects=home", &[]).await;
    let (status, _) = refused("subjects=home".into(), Vec::new()).await;
    assert_eq!(status, 429, "two per address");
    drop(first);
    // The closed stream's place is given back once the server sees it gone.
    for _ in 0..100 {
        if app.state.stream.open_count() < 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut reopened = open(&app, "subjects=home", &[("X-TOKEN", token.as_str())]).await;
    assert_eq!(reopened.next().await.event, "open");
}

async fn a_reconnect_replays_what_was_missed(backend: Backend) {
    let app = stream_app(backend).await;
    let mut stream = open(&app, "subjects=tag:replay", &[]).await;
    let opened = stream.next().await;
    assert_eq!(opened.event, "open");
    let seen = upsert(&app.http, &app.base, "r0", json!({ "tags": ["replay"] })).await;
    let last = stream.next().await;
    assert_eq!(last.data["id"], seen);
    drop(stream);
    let mut missed = Vec::new();
    for n in 1..=3 {
        missed.push(
            upsert(
                &app.http,
                &app.base,
                &format!("r{n}"),
                json!({ "tags": ["replay"] }),
            )
            .await,
        );
        upsert(
            &app.http,
            &app.base,
            &format!("other{n}"),
            json!({ "tags": ["other"] }),
        )
        .await;
    }
    logged_up_to(&app, last.id.expect("id") + 6).await;
    let last_id = last.id.expect("id").to_string();
    let mut back = open(
        &app,
        "subjects=tag:replay",
        &[("Last-Event-ID", last_id.as_str())],
    )
    .await;
    let mut replayed = Vec::new();
    for _ in 0..3 {
        let event = back.next().await;
        assert_eq!(event.event, "item");
        replayed.push(event.data["id"].as_i64().expect("id"));
    }
    assert_eq!(replayed, missed, "in order, nothing lost, nothing else");
    // New ones follow the replayed ones on the same stream.
    let after = upsert(&app.http, &app.base, "r4", json!({ "tags": ["replay"] })).await;
    assert_eq!(back.next().await.data["id"], after);
    // The query parameter does the same for a new `EventSource`.
    let mut by_query = open(
        &app,
        &format!("subjects=tag:replay&last_event_id={last_id}"),
        &[],
    )
    .await;
    assert_eq!(by_query.next().await.data["id"], missed[0]);
    // Further back than the log reaches: the client refetches.
    let beyond = (newest(&app).await + 100).to_string();
    let mut lost = open(
        &app,
        "subjects=tag:replay",
        &[("Last-Event-ID", beyond.as_str())],
    )
    .await;
    assert_eq!(lost.next().await.event, "reset");
}

/// Every server on one PostgreSQL: an item stored through one reaches streams on the other
/// within a second, and a reader whose server is killed reconnects to the other and misses
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_streams_reach_across_servers_and_survive_kill_9() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = database_url(Backend::Postgres, dir.path()).await;
    let env = [("DATABASE_URL", database.as_str()), ("ADMIN_TOKEN", ADMIN)];
    let (dir_a, dir_b) = (dir.path().join("a"), dir.path().join("b"));
    let mut a = Binary::start(&dir_a, &env).await;
    let b = Binary::start(&dir_b, &env).await;
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let url = |server: &Binary, query: &str| format!("{}/api/stream?{query}", server.base());
    let mut on_b = SseReader::open(&http, &url(&b, "subjects=tag:cross"), &[]).await;
    let mut on_a = SseReader::open(&http, &url(&a, "subjects=tag:cross"), &[]).await;
    assert_eq!(on_b.next().await.event, "open");
    assert_eq!(on_a.next().await.event, "open");
    let stored = std::time::Instant::now();
    let id = upsert(&http, &a.base(), "x1", json!({ "tags": ["cross"] })).await;
    let heard = on_b.next().await;
    assert_eq!(heard.data["id"], id);
    assert!(
        stored.elapsed() < Duration::from_secs(1),
        "reached the other server in {:?}",
        stored.elapsed()
    );
    let seen = on_a.next().await;
    assert_eq!(seen.data["id"], id);
    a.kill();
    assert!(
        on_a.ended_within(Duration::from_secs(5)).await,
        "the stream ended with its server"
    );
    let missed = upsert(&http, &b.base(), "x2", json!({ "tags": ["cross"] })).await;
    assert_eq!(on_b.next().await.data["id"], missed);
    let last = seen.id.expect("id").to_string();
    let mut moved = SseReader::open(
        &http,
        &url(&b, "subjects=tag:cross"),
        &[("Last-Event-ID", last.as_str())],
    )
    .await;
    assert_eq!(moved.next().await.data["id"], missed, "nothing missed");
}

/// Stopping a server ends its streams at once: SIGTERM does not wait on them.
#[tokio::test]
async fn sigterm_ends_open_streams_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut server = Binary::start(dir.path(), &[]).await;
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let mut stream = SseReader::open(
        &http,
        &format!("{}/api/stream?subjects=home", server.base()),
        &[],
    )
    .await;
    assert_eq!(stream.next().await.event, "open");
    let signalled = std::time::Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    assert!(stream.ended_within(Duration::from_secs(3)).await);
    loop {
        if let Some(exit) = server.child.try_wait().expect("wait") {
            assert_eq!(exit.code(), Some(0));
            break;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(3),
            "the streams held the stop"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

on_both_databases!(
    items_reach_the_streams_whose_subjects_they_match,
    the_following_tab_streams_what_a_reader_follows,
    a_thread_streams_counts_and_comments_but_not_from_the_blocked,
    a_reader_s_unread_count_is_live,
    tickets_sign_a_stream_in_once,
    bad_streams_are_refused_and_limits_hold,
    a_reconnect_replays_what_was_missed
);
