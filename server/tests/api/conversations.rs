//! Conversations on the news: threads, replies and mentions, comment likes, messages, blocks,
//! reports and moderation, favorites and history, and the abuse limits.

use sea_orm::EntityTrait;
use serde_json::{Value, json};
use server::config::ModerationAction;

use crate::common::{Backend, TestApp, assert_error};

const ADMIN: &str = "admin-token-for-tests-0123456789";
const DAY: i64 = 86_400;

struct Reader {
    token: String,
    id: i64,
    nickname: String,
}

struct Talk {
    app: TestApp,
    feed: i64,
}

impl Talk {
    /// A server with one news item; readers made with `reader` are older than a day unless
    /// the test signs one in after `age`.
    async fn start(backend: Backend) -> Self {
        let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
        let feed = Self::item(&app, "talk").await;
        Self { app, feed }
    }

    async fn item(app: &TestApp, slug: &str) -> i64 {
        let item = json!({ "source_url": format!("https://news.test/{slug}"), "kind": "flash",
            "lang": "en", "title": format!("Item {slug}"), "published_at": app.state.now() });
        let (_, made) = app
            .post_with("/admin/feed/upsert", item, &[("X-ADMIN-TOKEN", ADMIN)])
            .await;
        made["data"]["id"].as_i64().expect("id")
    }

    async fn reader(&self, name: &str) -> Reader {
        let session = self.app.sign_in(&format!("{name}@example.com")).await;
        Reader {
            token: session["token"].as_str().expect("token").to_owned(),
            id: session["id"].as_i64().expect("id"),
            nickname: session["nickname"].as_str().expect("nickname").to_owned(),
        }
    }

    /// Lets a day pass, so the readers so far are no longer new accounts.
    fn age(&self) {
        self.app.clock.advance(DAY + 60);
    }

    async fn call(&self, who: &Reader, path: &str, body: Value) -> Value {
        self.app
            .post_with(path, body, &[("X-TOKEN", who.token.as_str())])
            .await
            .1
    }

    async fn admin(&self, path: &str, body: Value) -> Value {
        self.app
            .post_with(path, body, &[("X-ADMIN-TOKEN", ADMIN)])
            .await
            .1
    }

    async fn comment(&self, who: &Reader, parent: Option<i64>, content: &str) -> Value {
        let body = json!({ "feed_id": self.feed, "parent_id": parent, "content": content });
        let added = self.call(who, "/comment/add", body).await;
        assert_eq!(added["code"], 2000, "{added}");
        added["data"].clone()
    }

    async fn thread(&self, who: Option<&Reader>, sort: &str) -> Value {
        let body = json!({ "feed_id": self.feed, "sort": sort });
        match who {
            Some(who) => self.call(who, "/comment/list", body).await["data"].clone(),
            None => self.app.post("/comment/list", body).await.1["data"].clone(),
        }
    }

    async fn messages(&self, who: &Reader) -> Vec<Value> {
        let page = self.call(who, "/message/list", json!({})).await;
        page["data"]["list"].as_array().expect("messages").clone()
    }

    async fn unread(&self, who: &Reader) -> i64 {
        self.call(who, "/message/unread", json!({})).await["data"]["count"]
            .as_i64()
            .expect("count")
    }
}

fn id(v: &Value) -> i64 {
    v["id"].as_i64().expect("id")
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array().expect("list").iter().map(id).collect()
}

async fn threads_reply_one_level_deep_and_page(backend: Backend) {
    let t = Talk::start(backend).await;
    let (a, b, c) = (
        t.reader("a").await,
        t.reader("b").await,
        t.reader("c").await,
    );
    t.age();
    let top = t.comment(&a, None, "  First! see https://x.test  ").await;
    assert_eq!(top["content"], "First! see https://x.test", "trimmed");
    assert_eq!(top["user"]["id"], a.id);
    let reply = t.comment(&b, Some(id(&top)), "Replying to a").await;
    assert_eq!(reply["parent_id"], id(&top));
    // Answering a reply attaches to the top-level comment and names whom it answered.
    let deeper = t.comment(&c, Some(id(&reply)), "Answering b").await;
    assert_eq!(deeper["parent_id"], id(&top));
    assert_eq!(deeper["reply_to"]["id"], b.id);
    for n in 0..3 {
        t.comment(&a, Some(id(&top)), &format!("more {n}")).await;
    }
    let second = t.comment(&b, None, "Second").await;
    // A visitor reads the thread: newest first, each top-level comment with its first 3 replies.
    let thread = t.thread(None, "new").await;
    assert_eq!(ids(&thread["list"]), vec![id(&second), id(&top)]);
    let first = &thread["list"][1];
    assert_eq!(first["reply_count"], 5);
    assert_eq!(first["replies"].as_array().expect("replies").len(), 3);
    assert_eq!(first["replies"][0]["id"], id(&reply));
    assert_eq!(first["liked"], false);
    // The rest after the last shown.
    let rest = t
        .app
        .post(
            "/comment/replies",
            json!({ "id": id(&top), "cursor": first["replies"][2]["id"].to_string(), "limit": 1 }),
        )
        .await
        .1;
    assert_eq!(rest["data"]["list"][0]["content"], "more 1");
    let next = rest["data"]["next_cursor"].as_str().expect("more replies");
    let last = t
        .app
        .post(
            "/comment/replies",
            json!({ "id": id(&top), "cursor": next }),
        )
        .await
        .1;
    assert_eq!(last["data"]["list"][0]["content"], "more 2");
    assert_eq!(last["data"]["next_cursor"], Value::Null);
    // Best first: a like lifts the older comment; pages by keyset.
    let liked = t
        .call(
            &b,
            "/like/set",
            json!({ "kind": "comment", "id": id(&top), "liked": true }),
        )
        .await;
    assert_eq!(liked["data"], json!({ "liked": true, "count": 1 }));
    let best = t.thread(Some(&b), "top").await;
    assert_eq!(ids(&best["list"]), vec![id(&top), id(&second)]);
    assert_eq!(best["list"][0]["liked"], true);
    let paged = t
        .app
        .post(
            "/comment/list",
            json!({ "feed_id": t.feed, "sort": "top", "limit": 1 }),
        )
        .await
        .1;
    let cursor = paged["data"]["next_cursor"]
        .as_str()
        .expect("cursor")
        .to_owned();
    let page2 = t
        .app
        .post(
            "/comment/list",
            json!({ "feed_id": t.feed, "sort": "top", "limit": 1, "cursor": cursor }),
        )
        .await
        .1;
    assert_eq!(ids(&page2["data"]["list"]), vec![id(&second)]);
    // The item counts its comments, for lists and detail alike.
    let (_, detail) = t.app.post("/feed/detail", json!({ "id": t.feed })).await;
    assert_eq!(detail["data"]["comment_count"], 7);
    for bad in [
        json!({ "feed_id": t.feed, "sort": "hot" }),
        json!({ "feed_id": t.feed, "cursor": "x" }),
    ] {
        let (status, refused) = t.app.post("/comment/list", bad).await;
        assert_eq!(
            (status.as_u16(), refused["code"].clone()),
            (200, json!(4001)),
            "{refused}"
        );
    }
}

async fn comments_follow_their_rules(backend: Backend) {
    let t = Talk::start(backend).await;
    let (a, b) = (t.reader("a").await, t.reader("b").await);
    t.age();
    let body = json!({ "feed_id": t.feed, "content": "hello" });
    assert_error(&t.app.post("/comment/add", body.clone()).await, 401, 4010);
    for content in ["   ", &"x".repeat(1001)] {
        let refused = t
            .call(
                &a,
                "/comment/add",
                json!({ "feed_id": t.feed, "content": content }),
            )
            .await;
        assert_eq!(refused["code"], 4001, "{refused}");
    }
    let exactly = t.comment(&a, None, &"币".repeat(1000)).await;
    let missing = t
        .call(
            &a,
            "/comment/add",
            json!({ "feed_id": t.feed + 99, "content": "hi" }),
        )
        .await;
    assert_eq!(missing["code"], 4040);
    let other_item = Talk::item(&t.app, "other").await;
    let elsewhere = t
        .call(
            &a,
            "/comment/add",
            json!({ "feed_id": other_item, "parent_id": id(&exactly), "content": "hi" }),
        )
        .await;
    assert_eq!(elsewhere["code"], 4001, "{elsewhere}");
    // The same text twice within ten minutes is refused; later it is not.
    let first = t.comment(&a, None, "Same words").await;
    let again = t
        .call(
            &a,
            "/comment/add",
            json!({ "feed_id": t.feed, "content": "Same words" }),
        )
        .await;
    assert_eq!(again["code"], 4601, "{again}");
    // Only the author edits, within 15 minutes; the earlier text stays readable.
    let edit = json!({ "id": id(&first), "content": "Better words" });
    let (status, foreign) = t
        .app
        .post_with(
            "/comment/edit",
            edit.clone(),
            &[("X-TOKEN", b.token.as_str())],
        )
        .await;
    assert_eq!(
        (status.as_u16(), foreign["code"].clone()),
        (403, json!(4030))
    );
    let edited = t.call(&a, "/comment/edit", edit).await;
    assert_eq!(edited["data"]["content"], "Better words");
    assert!(edited["data"]["edited_at"].is_i64(), "{edited}");
    let history = t
        .app
        .post("/comment/history", json!({ "id": id(&first) }))
        .await
        .1;
    let versions: Vec<&str> = history["data"]["list"]
        .as_array()
        .expect("versions")
        .iter()
        .map(|v| v["content"].as_str().expect("content"))
        .collect();
    assert_eq!(versions, ["Same words", "Better words"]);
    t.app.clock.advance(15 * 60 + 1);
    let late = t
        .call(
            &a,
            "/comment/edit",
            json!({ "id": id(&first), "content": "Too late" }),
        )
        .await;
    assert_eq!(late["code"], 4602, "{late}");
    // Deleting: with replies a placeholder stays; without, the comment is gone; only the author.
    t.comment(&b, Some(id(&first)), "A reply").await;
    let (status, not_theirs) = t
        .app
        .post_with(
            "/comment/del",
            json!({ "id": id(&first) }),
            &[("X-TOKEN", b.token.as_str())],
        )
        .await;
    assert_eq!(
        (status.as_u16(), not_theirs["code"].clone()),
        (403, json!(4030))
    );
    assert_eq!(
        t.call(&a, "/comment/del", json!({ "id": id(&first) }))
            .await["code"],
        2000
    );
    assert_eq!(
        t.call(&a, "/comment/del", json!({ "id": id(&exactly) }))
            .await["code"],
        2000
    );
    let thread = t.thread(None, "new").await;
    let list = thread["list"].as_array().expect("list");
    assert_eq!(list.len(), 1, "{thread}");
    assert_eq!(list[0]["state"], "deleted");
    assert_eq!(
        (list[0]["content"].clone(), list[0]["user"].clone()),
        (json!(""), Value::Null)
    );
    assert_eq!(list[0]["replies"][0]["content"], "A reply");
    // The author's words are gone from the database too, earlier versions included.
    let row = server::entity::comment::Entity::find_by_id(id(&first))
        .one(&t.app.state.db)
        .await
        .expect("database")
        .expect("the placeholder");
    assert_eq!((row.content.as_str(), row.state.as_str()), ("", "deleted"));
    let edits = server::entity::comment_edit::Entity::find()
        .all(&t.app.state.db)
        .await
        .expect("database");
    assert!(edits.is_empty(), "{edits:?}");
    let gone = t
        .app
        .post("/comment/history", json!({ "id": id(&first) }))
        .await
        .1;
    assert_eq!(gone["code"], 4040);
    let (_, detail) = t.app.post("/feed/detail", json!({ "id": t.feed })).await;
    assert_eq!(
        detail["data"]["comment_count"], 1,
        "only the reply still shows"
    );
}

async fn comment_limits_are_tighter_for_new_accounts(backend: Backend) {
    let t = Talk::start(backend).await;
    let fresh = t.reader("fresh").await;
    for n in 0..3 {
        t.comment(&fresh, None, &format!("new account {n}")).await;
    }
    let (status, limited) = t
        .app
        .post_with(
            "/comment/add",
            json!({ "feed_id": t.feed, "content": "one more" }),
            &[("X-TOKEN", fresh.token.as_str())],
        )
        .await;
    assert_eq!(
        (status.as_u16(), limited["code"].clone()),
        (429, json!(4290)),
        "{limited}"
    );
    let wait = limited["data"]["retry_after"]
        .as_i64()
        .expect("retry_after");
    assert!((1..=600).contains(&wait), "{wait}");
    let said = limited["msg"].as_str().expect("msg");
    assert!(
        said.contains("try again in") && said.contains("minutes"),
        "{said}"
    );
    // A day later the account is no longer new: 10 per 10 minutes.
    t.age();
    for n in 0..10 {
        t.comment(&fresh, None, &format!("older account {n}")).await;
    }
    let (status, _) = t
        .app
        .post_with(
            "/comment/add",
            json!({ "feed_id": t.feed, "content": "eleventh" }),
            &[("X-TOKEN", fresh.token.as_str())],
        )
        .await;
    assert_eq!(status.as_u16(), 429);
}

async fn replies_mentions_and_likes_become_messages(backend: Backend) {
    let t = Talk::start(backend).await;
    let (a, b) = (t.reader("a").await, t.reader("b").await);
    let likers = [
        t.reader("l1").await,
        t.reader("l2").await,
        t.reader("l3").await,
    ];
    t.age();
    let top = t.comment(&a, None, "What do you think?").await;
    let mention = format!("@{} agrees, ask @nobody_here", a.nickname.to_uppercase());
    let reply = t.comment(&b, Some(id(&top)), &mention).await;
    // One message for the reply (the mention of the person replied to is not a second one).
    assert_eq!(t.unread(&a).await, 1);
    let inbox = t.messages(&a).await;
    assert_eq!(inbox[0]["kind"], "reply");
    assert_eq!(inbox[0]["actor"]["id"], b.id);
    assert_eq!(
        (inbox[0]["feed_id"].clone(), inbox[0]["comment_id"].clone()),
        (json!(t.feed), json!(id(&reply)))
    );
    // A mention in someone else's thread is its own message.
    let own = t.comment(&b, None, &format!("cc @{}", a.nickname)).await;
    let inbox = t.messages(&a).await;
    assert_eq!(
        (inbox[0]["kind"].clone(), inbox[0]["comment_id"].clone()),
        (json!("mention"), json!(id(&own)))
    );
    // Likes on one comment: one message that counts them, all at once or not.
    let likes = likers.iter().map(|l| {
        t.call(
            l,
            "/like/set",
            json!({ "kind": "comment", "id": id(&top), "liked": true }),
        )
    });
    futures_util::future::join_all(likes).await;
    let same_again = (0..50).map(|_| {
        t.call(
            &likers[0],
            "/like/set",
            json!({ "kind": "comment", "id": id(&top), "liked": true }),
        )
    });
    for again in futures_util::future::join_all(same_again).await {
        assert_eq!(again["data"]["count"], 3, "{again}");
    }
    let likes: Vec<Value> = t
        .messages(&a)
        .await
        .into_iter()
        .filter(|m| m["kind"] == "like")
        .collect();
    assert_eq!(likes.len(), 1, "{likes:?}");
    assert_eq!(likes[0]["count"], 3);
    assert_eq!(t.unread(&a).await, 3, "reply, mention, likes");
    let filtered = t.call(&a, "/message/list", json!({ "kind": "like" })).await;
    assert_eq!(filtered["data"]["list"].as_array().expect("list").len(), 1);
    // Read one, then all.
    let read = t
        .call(&a, "/message/read", json!({ "ids": [id(&likes[0])] }))
        .await;
    assert_eq!(read["data"]["count"], 1);
    assert_eq!(t.unread(&a).await, 2);
    // Someone else's ids change nothing.
    let foreign = t
        .call(&b, "/message/read", json!({ "ids": [id(&likes[0])] }))
        .await;
    assert_eq!(foreign["data"]["count"], 0);
    t.call(&a, "/message/read", json!({ "all": true })).await;
    assert_eq!(t.unread(&a).await, 0);
    for bad in [json!({}), json!({ "ids": (0..101).collect::<Vec<i64>>() })] {
        assert_eq!(t.call(&a, "/message/read", bad).await["code"], 4001);
    }
    assert_eq!(
        t.call(&a, "/message/list", json!({ "kind": "spam" })).await["code"],
        4001
    );
    // A deleted reply takes its message with it: its text reaches no one.
    t.call(&b, "/comment/del", json!({ "id": id(&reply) }))
        .await;
    assert!(
        t.messages(&a)
            .await
            .iter()
            .all(|m| m["comment_id"] != id(&reply))
    );
    assert_error(&t.app.post("/message/unread", json!({})).await, 401, 4010);
}

async fn blocking_hides_and_silences(backend: Backend) {
    let t = Talk::start(backend).await;
    let (a, b, c) = (
        t.reader("a").await,
        t.reader("b").await,
        t.reader("c").await,
    );
    t.age();
    let by_b = t.comment(&b, None, "B speaks").await;
    let by_a = t.comment(&a, None, "A speaks").await;
    let a_replies = t.comment(&a, Some(id(&by_b)), "A answers B").await;
    let blocked = t
        .call(
            &b,
            "/user/block",
            json!({ "user_id": a.id, "blocked": true }),
        )
        .await;
    assert_eq!(blocked["data"]["blocked"], true);
    // B no longer sees A, anywhere in the thread; others still do.
    let seen_by_b = t.thread(Some(&b), "new").await;
    assert_eq!(ids(&seen_by_b["list"]), vec![id(&by_b)]);
    assert_eq!(seen_by_b["list"][0]["replies"], json!([]));
    let replies = t
        .call(&b, "/comment/replies", json!({ "id": id(&by_b) }))
        .await;
    assert_eq!(replies["data"]["list"], json!([]));
    assert_eq!(
        t.call(&b, "/comment/history", json!({ "id": id(&by_a) }))
            .await["code"],
        4040
    );
    assert_eq!(
        ids(&t.thread(Some(&c), "new").await["list"]),
        vec![id(&by_a), id(&by_b)]
    );
    // A's earlier reply no longer shows in B's messages.
    assert!(
        t.messages(&b)
            .await
            .iter()
            .all(|m| m["comment_id"] != id(&a_replies))
    );
    // A cannot reply to B; A's mentions and likes do not reach B.
    let (status, refused) = t
        .app
        .post_with(
            "/comment/add",
            json!({ "feed_id": t.feed, "parent_id": id(&by_b), "content": "hello?" }),
            &[("X-TOKEN", a.token.as_str())],
        )
        .await;
    assert_eq!(
        (status.as_u16(), refused["code"].clone()),
        (403, json!(4032))
    );
    let before = t.unread(&b).await;
    t.comment(&a, None, &format!("hey @{}", b.nickname)).await;
    t.call(
        &a,
        "/like/set",
        json!({ "kind": "comment", "id": id(&by_b), "liked": true }),
    )
    .await;
    assert_eq!(t.unread(&b).await, before);
    let list = t.call(&b, "/user/block/list", json!({})).await;
    assert_eq!(list["data"]["list"][0]["user"]["id"], a.id);
    assert_eq!(
        t.call(
            &b,
            "/user/block",
            json!({ "user_id": b.id, "blocked": true })
        )
        .await["code"],
        4001
    );
    assert_eq!(
        t.call(
            &b,
            "/user/block",
            json!({ "user_id": 999_999, "blocked": true })
        )
        .await["code"],
        4040
    );
    // Unblocked, A shows again.
    t.call(
        &b,
        "/user/block",
        json!({ "user_id": a.id, "blocked": false }),
    )
    .await;
    assert_eq!(
        t.thread(Some(&b), "new").await["list"]
            .as_array()
            .expect("list")
            .len(),
        3
    );
}

async fn reports_removals_bans_and_announcements(backend: Backend) {
    let t = Talk::start(backend).await;
    let (a, b, c) = (
        t.reader("a").await,
        t.reader("b").await,
        t.reader("c").await,
    );
    t.age();
    let bad = t.comment(&a, None, "Buy my coin now").await;
    let reply = t.comment(&c, Some(id(&bad)), "Mentioning @nobody").await;
    // Fifty identical reports at once: one report, the others told it was already made.
    let report = json!({ "kind": "comment", "id": id(&bad), "reason": "spam" });
    let all =
        futures_util::future::join_all((0..20).map(|_| t.call(&b, "/report/add", report.clone())))
            .await;
    let codes: Vec<i64> = all
        .iter()
        .map(|r| r["code"].as_i64().expect("code"))
        .collect();
    assert_eq!(codes.iter().filter(|c| **c == 2000).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|c| [2000, 4603].contains(c)), "{codes:?}");
    assert_eq!(
        t.call(
            &b,
            "/report/add",
            json!({ "kind": "comment", "id": id(&bad), "reason": " " })
        )
        .await["code"],
        4001
    );
    // The author edits after being reported: the report keeps the text as it was.
    t.call(
        &a,
        "/comment/edit",
        json!({ "id": id(&bad), "content": "Nothing to see" }),
    )
    .await;
    let (status, _) = t.app.post("/admin/report/list", json!({})).await;
    assert_eq!(status.as_u16(), 403);
    let reports = t
        .admin("/admin/report/list", json!({ "state": "open" }))
        .await;
    let first = &reports["data"]["list"][0];
    assert_eq!(
        (first["content"].clone(), first["reporter"]["id"].clone()),
        (json!("Buy my coin now"), json!(b.id))
    );
    // Removed: gone for everyone, its reports resolved, its author told why.
    assert_eq!(
        t.admin(
            "/admin/remove",
            json!({ "kind": "comment", "id": id(&bad), "reason": "Advertising" })
        )
        .await["code"],
        2000
    );
    for who in [None, Some(&a), Some(&b)] {
        let thread = t.thread(who, "new").await;
        assert_eq!(thread["list"][0]["state"], "removed");
        assert_eq!(thread["list"][0]["content"], "");
        assert_eq!(thread["list"][0]["replies"][0]["id"], id(&reply));
    }
    assert_eq!(
        t.admin("/admin/report/list", json!({})).await["data"]["list"],
        json!([])
    );
    let resolved = t
        .admin("/admin/report/list", json!({ "state": "resolved" }))
        .await;
    assert_eq!(resolved["data"]["list"][0]["target_state"], "removed");
    let told = t.messages(&a).await;
    assert_eq!(
        (told[0]["kind"].clone(), told[0]["body"].clone()),
        (json!("removed"), json!("Advertising"))
    );
    assert_eq!(
        t.call(
            &b,
            "/like/set",
            json!({ "kind": "comment", "id": id(&bad), "liked": true })
        )
        .await["code"],
        4040
    );
    assert_eq!(
        t.admin(
            "/admin/remove",
            json!({ "kind": "comment", "id": id(&bad), "reason": "again" })
        )
        .await["code"],
        4040
    );
    // Banned: reads, but cannot comment, like or report until the ban ends.
    let until = t.app.state.now() + 3600;
    assert_eq!(
        t.admin(
            "/admin/user/ban",
            json!({ "user_id": a.id, "until": until, "reason": "spam" })
        )
        .await["code"],
        2000
    );
    for (path, body) in [
        (
            "/comment/add",
            json!({ "feed_id": t.feed, "content": "let me" }),
        ),
        (
            "/like/set",
            json!({ "kind": "feed", "id": t.feed, "liked": true }),
        ),
        (
            "/report/add",
            json!({ "kind": "comment", "id": id(&reply), "reason": "x" }),
        ),
        // Nor show others a new name, bio or picture.
        ("/user/profile/update", json!({ "nickname": "Renamed" })),
        ("/user/profile/update", json!({ "bio": "New bio" })),
        ("/user/profile/update", json!({ "avatar": "" })),
    ] {
        let (status, refused) = t
            .app
            .post_with(path, body, &[("X-TOKEN", a.token.as_str())])
            .await;
        assert_eq!(
            (status.as_u16(), refused["code"].clone()),
            (403, json!(4031)),
            "{path}"
        );
        assert_eq!(refused["data"]["until"], until);
    }
    assert_eq!(
        t.call(&a, "/comment/list", json!({ "feed_id": t.feed }))
            .await["code"],
        2000
    );
    t.app.clock.advance(3601);
    t.comment(&a, None, "I am back").await;
    // The same through the CLI: a ban for hours, and lifting it.
    server::community::reports::run(
        &t.app.state,
        ModerationAction::Ban {
            user_id: c.id,
            hours: 2,
            reason: "cli".into(),
        },
    )
    .await
    .expect("ban");
    let refused = t
        .call(
            &c,
            "/comment/add",
            json!({ "feed_id": t.feed, "content": "cli?" }),
        )
        .await;
    assert_eq!(refused["code"], 4031);
    server::community::reports::run(
        &t.app.state,
        ModerationAction::Ban {
            user_id: c.id,
            hours: 0,
            reason: "lifted".into(),
        },
    )
    .await
    .expect("lift");
    t.comment(&c, None, "cli lifted").await;
    let listed = server::community::reports::run(
        &t.app.state,
        ModerationAction::Reports {
            state: "resolved".into(),
            limit: 10,
        },
    )
    .await
    .expect("reports");
    assert!(
        listed.contains("Buy my coin now") && listed.contains("1 resolved reports"),
        "{listed}"
    );
    // An announcement reaches every reader in their language (English where none is given).
    let announced = t
        .admin(
            "/admin/message/announce",
            json!({ "texts": { "en": { "title": "Hello", "body": "News" },
                "ko": { "title": "안녕하세요", "body": "소식" } } }),
        )
        .await;
    assert_eq!(announced["data"]["readers"], 3);
    let korean = t
        .app
        .post_with(
            "/message/list",
            json!({ "kind": "announcement" }),
            &[("X-TOKEN", b.token.as_str()), ("Accept-Language", "ko")],
        )
        .await
        .1;
    assert_eq!(korean["data"]["list"][0]["title"], "안녕하세요");
    let vietnamese = t
        .app
        .post_with(
            "/message/list",
            json!({ "kind": "announcement" }),
            &[("X-TOKEN", b.token.as_str()), ("Accept-Language", "vi")],
        )
        .await
        .1;
    assert_eq!(vietnamese["data"]["list"][0]["title"], "Hello");
    assert_eq!(
        t.admin(
            "/admin/message/announce",
            json!({ "texts": { "ko": { "title": "x", "body": "y" } } })
        )
        .await["code"],
        4001
    );
    assert_eq!(
        t.admin(
            "/admin/message/announce",
            json!({ "title": "", "body": "y" })
        )
        .await["code"],
        4001
    );
    let cli = server::community::reports::run(
        &t.app.state,
        ModerationAction::Announce {
            title: Some("From CLI".into()),
            body: Some("Body".into()),
            texts: None,
        },
    )
    .await
    .expect("announce");
    assert_eq!(cli, "announced to 3 readers\n");
}

async fn favorites_history_and_marks_on_lists(backend: Backend) {
    let t = Talk::start(backend).await;
    let a = t.reader("a").await;
    let second = Talk::item(&t.app, "second").await;
    for _ in 0..2 {
        let kept = t
            .call(
                &a,
                "/favorite/set",
                json!({ "feed_id": t.feed, "favorited": true }),
            )
            .await;
        assert_eq!(kept["data"]["favorited"], true);
    }
    t.app.clock.advance(5);
    t.call(
        &a,
        "/favorite/set",
        json!({ "feed_id": second, "favorited": true }),
    )
    .await;
    t.call(
        &a,
        "/like/set",
        json!({ "kind": "feed", "id": second, "liked": true }),
    )
    .await;
    let favorites = t.call(&a, "/favorite/list", json!({})).await;
    let kept: Vec<i64> = favorites["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .map(|k| k["item"]["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(kept, vec![second, t.feed], "newest saved first, each once");
    assert_eq!(favorites["data"]["list"][0]["item"]["favorited"], true);
    assert_eq!(
        t.call(
            &a,
            "/favorite/set",
            json!({ "feed_id": 999_999, "favorited": true })
        )
        .await["code"],
        4040
    );
    // Lists mark the reader's likes and favorites; visitors get the counts only.
    let mine = t.call(&a, "/feed/list", json!({})).await;
    let item = |list: &Value, feed: i64| {
        list["data"]["list"]
            .as_array()
            .expect("list")
            .iter()
            .find(|i| i["id"] == feed)
            .cloned()
            .expect("listed")
    };
    let marked = item(&mine, second);
    assert_eq!(
        (
            marked["liked"].clone(),
            marked["favorited"].clone(),
            marked["like_count"].clone()
        ),
        (json!(true), json!(true), json!(1))
    );
    assert_eq!(item(&mine, t.feed)["liked"], false);
    let (_, visitor) = t.app.post("/feed/list", json!({})).await;
    let plain = item(&visitor, second);
    assert!(
        plain.get("liked").is_none() && plain.get("favorited").is_none(),
        "{plain}"
    );
    assert_eq!(plain["comment_count"], 0);
    t.call(
        &a,
        "/favorite/set",
        json!({ "feed_id": t.feed, "favorited": false }),
    )
    .await;
    assert_eq!(
        t.call(&a, "/favorite/list", json!({})).await["data"]["list"]
            .as_array()
            .expect("list")
            .len(),
        1
    );
    // History: what was opened while signed in, one row per item with the latest time.
    for feed in [t.feed, second, t.feed] {
        t.app.clock.advance(1);
        t.call(&a, "/feed/detail", json!({ "id": feed })).await;
    }
    let read = t.call(&a, "/history/list", json!({})).await;
    let order: Vec<i64> = read["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .map(|k| k["item"]["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(order, vec![t.feed, second]);
    t.call(&a, "/history/del", json!({ "feed_id": t.feed }))
        .await;
    assert_eq!(
        t.call(&a, "/history/list", json!({})).await["data"]["list"]
            .as_array()
            .expect("list")
            .len(),
        1
    );
    t.call(&a, "/history/clear", json!({})).await;
    assert_eq!(
        t.call(&a, "/history/list", json!({})).await["data"]["list"],
        json!([])
    );
    // At most 1,000 kept: the oldest go.
    for n in 0..1003 {
        t.app.clock.advance(1);
        server::social::history::record(&t.app.state, a.id, 10_000 + n)
            .await
            .expect("record");
    }
    let mut count = 0;
    let mut cursor = Value::Null;
    loop {
        let page = t
            .call(
                &a,
                "/history/list",
                json!({ "cursor": cursor, "limit": 50 }),
            )
            .await;
        assert_eq!(page["code"], 2000, "{page}");
        cursor = page["data"]["next_cursor"].clone();
        count += 1;
        if cursor.is_null() {
            break;
        }
    }
    assert_eq!(count, 20, "1,000 rows kept in pages of 50");
    assert_error(&t.app.post("/favorite/list", json!({})).await, 401, 4010);
}

/// Reading an item again updates its history row. On SQLite that upsert inserts nothing, and the
/// connection's last inserted rowid may be a feed's search document (their ids are negative): the
/// upsert must not read it. Every write of an item is followed by two reads, many times over, so
/// the pool hands the reads the connection that wrote a document.
async fn reading_again_after_a_write_answers(backend: Backend) {
    let talk = Talk::start(backend).await;
    let reader = talk.reader("rereader").await;
    for round in 0..12 {
        let id = Talk::item(&talk.app, &format!("again-{round}")).await;
        for _ in 0..2 {
            let (status, read) = talk
                .app
                .post_with(
                    "/feed/detail",
                    json!({ "id": id }),
                    &[("X-TOKEN", reader.token.as_str())],
                )
                .await;
            assert_eq!(
                (status.as_u16(), &read["code"]),
                (200, &json!(2000)),
                "{read}"
            );
        }
    }
    let history = talk
        .call(&reader, "/history/list", json!({ "limit": 50 }))
        .await;
    assert_eq!(
        history["data"]["list"].as_array().map(Vec::len),
        Some(12),
        "{history}"
    );
}

/// A thread or a subject's feed of something that does not exist is 404, never an empty page
/// built and kept in the shared cache (a flood of such pages once emptied it).
async fn nothing_is_cached_for_what_does_not_exist(backend: Backend) {
    let t = Talk::start(backend).await;
    for (path, body) in [
        ("/comment/list", json!({ "feed_id": t.feed + 1000 })),
        ("/comment/list", json!({ "question_id": 999_999 })),
        ("/comment/list", json!({ "answer_id": 999_999 })),
        ("/feed/list", json!({ "tag_id": 999_999 })),
        ("/feed/list", json!({ "token_id": 999_999 })),
        ("/feed/list", json!({ "topic_id": 999_999 })),
        ("/feed/list", json!({ "kol_id": 999_999 })),
    ] {
        let (status, answer) = t.app.post(path, body.clone()).await;
        assert_eq!(
            (status.as_u16(), &answer["code"]),
            (404, &json!(4040)),
            "{path} {body}: {answer}"
        );
    }
    let (status, _) = t
        .app
        .post("/comment/list", json!({ "feed_id": t.feed }))
        .await;
    assert_eq!(status, 200, "a real thread still reads");
}

/// Servers on one PostgreSQL: a comment edited through one is what the other's thread (cached
/// there) shows within a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_an_edit_reaches_the_other_server_s_thread() {
    let t = Talk::start(Backend::Postgres).await;
    let beside = t.app.start_beside().await;
    let a = t.reader("editor").await;
    let first = t.comment(&a, None, "First words").await;
    let shown = async |app: &TestApp| {
        let body = json!({ "feed_id": t.feed, "sort": "new" });
        app.post("/comment/list", body).await.1["data"]["list"][0]["content"].clone()
    };
    assert_eq!(shown(&beside).await, "First words", "now cached beside");
    let edited = t
        .call(
            &a,
            "/comment/edit",
            json!({ "id": id(&first), "content": "Second words" }),
        )
        .await;
    assert_eq!(edited["code"], 2000, "{edited}");
    let started = std::time::Instant::now();
    while shown(&beside).await != "Second words" {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(1),
            "the edit was not seen on the other server within 1 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Reader B calls every edit, delete, accept, unlink and mark-read on reader A's things: each
/// is refused (403, or 404 where even saying it exists is too much) and A's things stay as they
/// were; B's own lists never show A's.
async fn nobody_changes_or_reads_what_is_anothers(backend: Backend) {
    let t = Talk::start(backend).await;
    let (a, b, c) = (
        t.reader("owner").await,
        t.reader("intruder").await,
        t.reader("helper").await,
    );
    t.age();
    let tags = json!({ "tags": [{ "code": "cx", "names": { "en": "CX" } }] });
    assert_eq!(t.admin("/admin/catalogue/upsert", tags).await["code"], 2000);
    let (_, tag) = t.app.post("/tag/detail", json!({ "code": "cx" })).await;
    let tag = tag["data"]["id"].as_i64().expect("tag id");
    let ask = async |who: &Reader| {
        let body = json!({ "title": "Who holds the most ETH today?", "content": "Curious",
            "tags": [tag] });
        t.call(who, "/question/create", body).await
    };
    let (asked_by_a, asked_by_c) = (id(&ask(&a).await["data"]), id(&ask(&c).await["data"]));
    let answer = async |who: &Reader, question: i64| {
        let body = json!({ "question_id": question, "content": "The exchanges, mostly." });
        t.call(who, "/answer/create", body).await
    };
    let a_answer = id(&answer(&a, asked_by_c).await["data"]);
    let c_answer = id(&answer(&c, asked_by_a).await["data"]);
    let comment = id(&t.comment(&a, None, "Owner's words").await);
    t.comment(&c, Some(comment), "A reply for the owner").await;
    let post = id(&t
        .call(&a, "/post/create", json!({ "content": "Owner's post" }))
        .await["data"]);
    t.call(
        &a,
        "/favorite/set",
        json!({ "feed_id": t.feed, "favorited": true }),
    )
    .await;
    t.call(&a, "/feed/detail", json!({ "id": t.feed })).await;
    let message = id(&t.messages(&a).await[0]);
    use sea_orm::{ActiveModelTrait, EntityTrait, Set};
    let chat = server::entity::bot_chat::ActiveModel {
        platform: Set("telegram".into()),
        chat_ref: Set("4242".into()),
        thread_id: Set(0),
        kind: Set("private".into()),
        locale: Set("en".into()),
        state: Set("active".into()),
        digest: Set("off".into()),
        digest_at: Set(0),
        muted: Set("[]".into()),
        user_id: Set(Some(a.id)),
        created_at: Set(0),
        ..Default::default()
    }
    .insert(&t.app.state.db)
    .await
    .expect("chat")
    .id;
    let unread = t.unread(&a).await;

    for (path, body, refused) in [
        (
            "/comment/edit",
            json!({ "id": comment, "content": "B's words" }),
            (403, 4030),
        ),
        ("/comment/del", json!({ "id": comment }), (403, 4030)),
        (
            "/post/edit",
            json!({ "id": post, "content": "B's post" }),
            (403, 4030),
        ),
        ("/post/del", json!({ "id": post }), (403, 4030)),
        (
            "/answer/edit",
            json!({ "id": a_answer, "content": "B's answer" }),
            (403, 4030),
        ),
        (
            "/answer/accept",
            json!({ "answer_id": c_answer }),
            (403, 4030),
        ),
        ("/bot/chat/unlink", json!({ "id": chat }), (404, 4040)),
    ] {
        let (status, got) = t
            .app
            .post_with(path, body, &[("X-TOKEN", b.token.as_str())])
            .await;
        assert_eq!(
            (status.as_u16(), got["code"].as_i64()),
            (refused.0, Some(refused.1)),
            "{path}: {got}"
        );
    }
    let read = t
        .call(&b, "/message/read", json!({ "ids": [message] }))
        .await;
    assert_eq!(
        read["data"]["count"], 0,
        "B marks none of A's messages read"
    );

    // A's things, as they were.
    let thread = t.thread(None, "new").await;
    assert_eq!(thread["list"][0]["content"], "Owner's words");
    let (_, history) = t.app.post("/post/history", json!({ "id": post })).await;
    assert_eq!(history["data"]["list"][0]["markdown"], "Owner's post");
    let answers = server::entity::answer::Entity::find_by_id(a_answer)
        .one(&t.app.state.db)
        .await
        .expect("db")
        .expect("answer");
    assert_eq!(answers.content, "The exchanges, mostly.");
    let (_, question) = t
        .app
        .post("/question/detail", json!({ "id": asked_by_a }))
        .await;
    assert!(
        question["data"]["accepted_answer_id"].is_null(),
        "{question}"
    );
    let linked = server::entity::bot_chat::Entity::find_by_id(chat)
        .one(&t.app.state.db)
        .await
        .expect("db")
        .expect("chat");
    assert_eq!(linked.user_id, Some(a.id));
    assert_eq!(t.unread(&a).await, unread);
    // B's own lists hold nothing of A's.
    for path in [
        "/favorite/list",
        "/history/list",
        "/message/list",
        "/bot/chat/list",
    ] {
        let got = t.call(&b, path, json!({})).await;
        assert_eq!(got["data"]["list"], json!([]), "{path}: {got}");
    }
}

on_both_databases!(
    nobody_changes_or_reads_what_is_anothers,
    nothing_is_cached_for_what_does_not_exist,
    reading_again_after_a_write_answers,
    threads_reply_one_level_deep_and_page,
    comments_follow_their_rules,
    comment_limits_are_tighter_for_new_accounts,
    replies_mentions_and_likes_become_messages,
    blocking_hides_and_silences,
    reports_removals_bans_and_announcements,
    favorites_history_and_marks_on_lists
);
