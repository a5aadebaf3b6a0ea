//! Readers' posts, following people, and the rest of the community issue's server side: the
//! Markdown subset cleaned, images only from our own uploads, the Community tab, tag and token
//! pages and search, edit history, deletion for everyone, limits (tighter for new accounts),
//! bots only for `community` chats, `/user/posts`, `/user/answers` and avatars.

use reqwest::multipart::{Form, Part};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde_json::{Value, json};
use server::entity::{bot_chat, bot_delivery, bot_subscription};

use crate::common::images::png;
use crate::common::sse::SseReader;
use crate::common::{Backend, TestApp};

const ADMIN: &str = "admin-token-for-tests-0123456789";
const DAY: i64 = 86_400;

struct Reader {
    token: String,
    id: i64,
}

struct Community {
    app: TestApp,
    tag: i64,
    token: i64,
}

impl Community {
    /// A server with a tag and a token; readers signed in before `age` are a day old after it.
    async fn start(backend: Backend) -> Self {
        let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
        let catalogue = json!({
            "tokens": [{ "symbol": "ETH", "name": "Ethereum" }],
            "tags": [{ "code": "defi", "names": { "en": "DeFi" } }],
        });
        let (_, made) = app
            .post_with(
                "/admin/catalogue/upsert",
                catalogue,
                &[("X-ADMIN-TOKEN", ADMIN)],
            )
            .await;
        assert_eq!(made["code"], 2000, "{made}");
        let tag = app.post("/tag/detail", json!({ "code": "defi" })).await.1["data"]["id"]
            .as_i64()
            .expect("tag id");
        let token = app
            .post("/token/detail", json!({ "symbol": "ETH" }))
            .await
            .1["data"]["id"]
            .as_i64()
            .expect("token id");
        Self { app, tag, token }
    }

    async fn reader(&self, name: &str) -> Reader {
        let session = self.app.sign_in(&format!("{name}@example.com")).await;
        Reader {
            token: session["token"].as_str().expect("token").to_owned(),
            id: session["id"].as_i64().expect("id"),
        }
    }

    fn age(&self) {
        self.app.clock.advance(DAY + 60);
    }

    /// A Telegram chat subscribed to `target`; gives its row id.
    async fn chat(&self, chat_ref: i64, target: &str, target_id: i64) -> i64 {
        let now = self.app.state.now();
        let chat = bot_chat::ActiveModel {
            platform: Set("telegram".to_owned()),
            chat_ref: Set(chat_ref.to_string()),
            thread_id: Set(0),
            kind: Set("private".to_owned()),
            locale: Set("en".to_owned()),
            state: Set("active".to_owned()),
            digest: Set("off".to_owned()),
            digest_at: Set(0),
            muted: Set("[]".to_owned()),
            user_id: Set(None),
            last_error: Set(None),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&self.app.state.db)
        .await
        .expect("chat");
        bot_subscription::ActiveModel {
            chat_id: Set(chat.id),
            target: Set(target.to_owned()),
            target_id: Set(target_id),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&self.app.state.db)
        .await
        .expect("subscription");
        chat.id
    }

    async fn admin(&self, path: &str, body: Value) -> Value {
        self.app
            .post_with(path, body, &[("X-ADMIN-TOKEN", ADMIN)])
            .await
            .1
    }

    async fn call(&self, who: &Reader, path: &str, body: Value) -> Value {
        self.app
            .post_with(path, body, &[("X-TOKEN", who.token.as_str())])
            .await
            .1
    }

    async fn upload(&self, who: &Reader) -> String {
        let part = Part::bytes(png(16, 16, None))
            .file_name("chart.png")
            .mime_str("image/png")
            .expect("mime");
        let got: Value = self
            .app
            .http
            .post(self.app.url("/img/upload"))
            .header("X-TOKEN", who.token.as_str())
            .multipart(Form::new().part("img_file", part))
            .send()
            .await
            .expect("upload")
            .json()
            .await
            .expect("envelope");
        assert_eq!(got["code"], 2000, "{got}");
        got["data"]["absolute"].as_str().expect("url").to_owned()
    }

    async fn write(&self, who: &Reader, body: Value) -> Value {
        self.call(who, "/post/create", body).await
    }

    async fn ids(&self, who: Option<&Reader>, body: Value) -> Vec<i64> {
        let got = match who {
            Some(who) => self.call(who, "/feed/list", body).await,
            None => self.app.post("/feed/list", body).await.1,
        };
        assert_eq!(got["code"], 2000, "{got}");
        ids(&got["data"]["list"])
    }
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect()
}

fn id(made: &Value) -> i64 {
    assert_eq!(made["code"], 2000, "{made}");
    made["data"]["id"].as_i64().expect("id")
}

async fn posts_are_cleaned_shown_found_edited_and_deleted(backend: Backend) {
    let c = Community::start(backend).await;
    let (writer, other) = (c.reader("writer").await, c.reader("other").await);
    c.age();
    let image = c.upload(&writer).await;
    let theirs = c.upload(&other).await;
    let markdown = "Staking **yields** on *Ethereum* look `odd` — see [the chart](https://example.com/c).\n\n\
        - one\n- two\n\n> quoted\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1))\n\n\
        ![x](https://evil.example/track.png) <img src=x onerror=alert(1)> platypusyield";
    // Images must be this reader's own uploads: another's, or another host's, are refused.
    for images in [json!([theirs]), json!(["https://evil.example/a.png"])] {
        let body = json!({ "content": "pictures", "images": images });
        assert_eq!(c.write(&writer, body).await["code"], 4001);
    }
    let body = json!({ "title": "Staking yields", "content": markdown, "tags": [c.tag],
        "tokens": [c.token], "images": [image] });
    let post = id(&c.write(&writer, body).await);
    let (_, detail) = c.app.post("/feed/detail", json!({ "id": post })).await;
    let detail = &detail["data"];
    assert_eq!(
        (&detail["kind"], &detail["title"], &detail["user"]["id"]),
        (&json!("post"), &json!("Staking yields"), &json!(writer.id)),
        "{detail}"
    );
    assert_eq!(detail["images"], json!([image]));
    let html = detail["content"].as_str().expect("html");
    for wanted in [
        "<strong>yields</strong>",
        "<em>Ethereum</em>",
        "<code>odd</code>",
        r#"<a href="https://example.com/c" rel="noopener noreferrer nofollow">the chart</a>"#,
        "<li>one</li>",
        "<blockquote>",
        "&lt;script&gt;",
    ] {
        assert!(html.contains(wanted), "{wanted} in {html}");
    }
    for unwanted in [
        "<script",
        "javascript:",
        "<img",
        "evil.example",
        "onerror=alert(1)>",
    ] {
        assert!(!html.contains(unwanted), "{unwanted} in {html}");
    }
    assert!(
        detail["source_url"]
            .as_str()
            .expect("url")
            .ends_with(&format!("/feed/{post}"))
    );
    // The Community tab, its tag's and token's pages, the author's page and search; not News.
    assert_eq!(c.ids(None, json!({ "tab": "community" })).await, [post]);
    assert_eq!(
        c.ids(None, json!({ "tab": "news" })).await,
        Vec::<i64>::new()
    );
    assert_eq!(c.ids(None, json!({ "tag_id": c.tag })).await, [post]);
    assert_eq!(c.ids(None, json!({ "token_id": c.token })).await, [post]);
    let (_, mine) = c
        .app
        .post("/user/posts", json!({ "user_id": writer.id }))
        .await;
    assert_eq!(ids(&mine["data"]["list"]), [post], "{mine}");
    let (_, profile) = c
        .app
        .post("/user/profile", json!({ "user_id": writer.id }))
        .await;
    assert_eq!(profile["data"]["posts"], 1, "{profile}");
    let found = |q: &'static str| {
        let app = &c.app;
        async move {
            let (_, hits) = app.post("/search", json!({ "q": q, "kind": "feed" })).await;
            ids(&hits["data"]["list"])
        }
    };
    assert_eq!(
        found("platypusyield").await,
        [post],
        "the whole text is searched"
    );
    // Only the author edits; the version before stays in the history.
    let edit = json!({ "id": post, "title": "Staking yields, revised",
        "content": "Now **lower**, sadly. wombatyield", "tags": [], "tokens": [c.token] });
    assert_eq!(
        c.call(&other, "/post/edit", edit.clone()).await["code"],
        4030
    );
    assert_eq!(c.call(&writer, "/post/edit", edit).await["code"], 2000);
    let (_, history) = c.app.post("/post/history", json!({ "id": post })).await;
    let versions = history["data"]["list"].as_array().expect("versions");
    assert_eq!(
        (&history["data"]["tag_ids"], &history["data"]["token_ids"]),
        (&json!([]), &json!([c.token])),
        "the links it names now"
    );
    assert_eq!(versions.len(), 2, "{history}");
    assert_eq!(
        (&versions[0]["markdown"], &versions[1]["title"]),
        (
            &json!("Now **lower**, sadly. wombatyield"),
            &json!("Staking yields")
        )
    );
    let (_, detail) = c.app.post("/feed/detail", json!({ "id": post })).await;
    assert!(
        detail["data"]["content"]
            .as_str()
            .expect("html")
            .contains("<strong>lower</strong>")
    );
    assert_eq!(detail["data"]["images"], json!([]));
    assert_eq!(
        c.ids(None, json!({ "tag_id": c.tag })).await,
        Vec::<i64>::new(),
        "the tag was taken off"
    );
    assert_eq!(found("wombatyield").await, [post]);
    assert_eq!(found("platypusyield").await, Vec::<i64>::new());
    // Deleted by its author only, and then gone for everyone.
    assert_eq!(
        c.call(&other, "/post/del", json!({ "id": post })).await["code"],
        4030
    );
    assert_eq!(
        c.call(&writer, "/post/del", json!({ "id": post })).await["code"],
        2000
    );
    assert_eq!(
        c.app.post("/feed/detail", json!({ "id": post })).await.1["code"],
        4040
    );
    assert_eq!(
        c.ids(None, json!({ "tab": "community" })).await,
        Vec::<i64>::new()
    );
    assert_eq!(found("wombatyield").await, Vec::<i64>::new());
    assert_eq!(
        c.call(
            &writer,
            "/post/edit",
            json!({ "id": post, "content": "back" })
        )
        .await["code"],
        4040
    );
    // An editor's upsert cannot take over a reader's post by its address.
    let again = id(&c.write(&writer, json!({ "content": "second one" })).await);
    let url = format!("{}/feed/{again}", c.app.state.config.public_url);
    let takeover = json!({ "source_url": url, "kind": "flash", "lang": "en", "title": "Mine now",
        "published_at": c.app.state.now() });
    let (_, refused) = c
        .app
        .post_with("/admin/feed/upsert", takeover, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    assert_eq!(refused["code"], 4001, "{refused}");
    // Editors cannot publish posts either.
    let (_, refused) = c
        .app
        .post_with(
            "/admin/feed/upsert",
            json!({ "source_url": "https://news.test/p", "kind": "post", "lang": "en",
                "title": "Fake post", "published_at": c.app.state.now() }),
            &[("X-ADMIN-TOKEN", ADMIN)],
        )
        .await;
    assert_eq!(refused["code"], 4001, "{refused}");
}

async fn bad_posts_and_limits(backend: Backend) {
    let c = Community::start(backend).await;
    let settled = c.reader("settled").await;
    c.age();
    let fresh = c.reader("fresh").await;
    for (body, key) in [
        (json!({ "content": "   " }), "post.empty"),
        (json!({ "content": "x".repeat(10_001) }), "post.tooLong"),
        (
            json!({ "title": "t".repeat(101), "content": "x" }),
            "post.titleTooLong",
        ),
        (
            json!({ "content": "x", "tags": [1, 2, 3, 4, 5, 6] }),
            "post.links",
        ),
        (
            json!({ "content": "x", "images": ["a", "b", "c", "d", "e"] }),
            "post.images",
        ),
    ] {
        let got = c.write(&settled, body).await;
        assert_eq!(got["code"], 4001, "{key}: {got}");
        assert!(got.to_string().contains(key), "{key}: {got}");
    }
    let shows_nothing = json!({ "content": "![chart](https://example.com/c.png)" });
    assert_eq!(c.write(&settled, shows_nothing).await["code"], 4001);
    let unknown_tag = json!({ "content": "x", "tags": [999_999] });
    assert_eq!(c.write(&settled, unknown_tag).await["code"], 4001);
    for body in [json!({ "content": 5 }), json!({}), json!([])] {
        let (status, got) = c
            .app
            .post_with("/post/create", body, &[("X-TOKEN", settled.token.as_str())])
            .await;
        assert_eq!(
            (status.as_u16(), &got["code"]),
            (400, &json!(4000)),
            "{got}"
        );
    }
    assert_eq!(
        c.app
            .post("/post/create", json!({ "content": "x" }))
            .await
            .1["code"],
        4010,
        "signed in only"
    );
    // The same text twice in a row is refused; five a day (refused ones are not counted); one
    // for an account under a day old.
    assert_eq!(
        c.write(&settled, json!({ "content": "gm" })).await["code"],
        2000
    );
    assert_eq!(
        c.write(&settled, json!({ "content": "gm" })).await["code"],
        4601
    );
    for n in 2..=5 {
        let got = c
            .write(&settled, json!({ "content": format!("post {n}") }))
            .await;
        assert_eq!(got["code"], 2000, "{n}: {got}");
    }
    assert_eq!(
        c.write(&settled, json!({ "content": "one more" })).await["code"],
        4290
    );
    assert_eq!(
        c.write(&fresh, json!({ "content": "hello" })).await["code"],
        2000
    );
    assert_eq!(
        c.write(&fresh, json!({ "content": "again" })).await["code"],
        4290
    );
    // New accounts ask 3 questions a day, settled ones 10.
    for n in 0..3 {
        let ask = json!({ "title": format!("A question number {n}?"), "tags": [c.tag] });
        assert_eq!(c.call(&fresh, "/question/create", ask).await["code"], 2000);
    }
    let ask = json!({ "title": "A question number 3?", "tags": [c.tag] });
    assert_eq!(c.call(&fresh, "/question/create", ask).await["code"], 4290);
    // Banned readers cannot post.
    let until = c.app.state.now() + 3 * DAY;
    let (_, banned) = c
        .app
        .post_with(
            "/admin/user/ban",
            json!({ "user_id": fresh.id, "until": until, "reason": "spam" }),
            &[("X-ADMIN-TOKEN", ADMIN)],
        )
        .await;
    assert_eq!(banned["code"], 2000, "{banned}");
    c.age();
    assert_eq!(
        c.write(&fresh, json!({ "content": "let me" })).await["code"],
        4031
    );
    // The preview renders by the same rules, and writes nothing.
    let preview = c
        .call(
            &settled,
            "/post/preview",
            json!({ "content": "**hi** <b>raw</b>" }),
        )
        .await;
    assert_eq!(
        preview["data"]["html"], "<p><strong>hi</strong> &lt;b&gt;raw&lt;/b&gt;</p>\n",
        "{preview}"
    );
    let too_long = json!({ "content": "x".repeat(10_001) });
    assert_eq!(
        c.call(&settled, "/post/preview", too_long).await["code"],
        4001
    );
}

async fn people_are_followed_and_their_posts_come_to_the_following_tab(backend: Backend) {
    let c = Community::start(backend).await;
    let (writer, fan) = (c.reader("writer").await, c.reader("fan").await);
    c.age();
    let follow = json!({ "user_id": writer.id });
    assert_eq!(
        c.call(&fan, "/user/follow/add", follow.clone()).await["code"],
        2000
    );
    assert_eq!(
        c.call(&fan, "/user/follow/add", follow.clone()).await["code"],
        2000
    );
    let status = c.call(&fan, "/user/follow/status", follow.clone()).await;
    assert_eq!(status["data"]["following"], true);
    let people = c.call(&fan, "/user/follow/list", json!({})).await;
    assert_eq!(people["data"]["users"][0]["id"], writer.id, "{people}");
    for bad in [
        json!({ "user_id": fan.id }),
        json!({ "user_id": 999_999 }),
        json!({ "user_id": writer.id, "kol_id": 1 }),
        json!({}),
    ] {
        let got = c.call(&fan, "/user/follow/add", bad.clone()).await;
        assert!(
            [4001, 4040].contains(&got["code"].as_i64().expect("code")),
            "{bad}: {got}"
        );
    }
    let post = id(&c
        .write(&writer, json!({ "content": "for my followers" }))
        .await);
    assert_eq!(
        c.ids(Some(&fan), json!({ "tab": "following" })).await,
        [post]
    );
    // Their questions too, beside the Following tab.
    let ask = json!({ "title": "Who else stakes on weekends?", "tags": [c.tag] });
    let asked = id(&c.call(&writer, "/question/create", ask).await);
    let other = c.reader("stranger").await;
    let theirs = json!({ "title": "A question from a stranger?", "tags": [c.tag] });
    id(&c.call(&other, "/question/create", theirs).await);
    let followed = c
        .call(&fan, "/question/list", json!({ "following": true }))
        .await;
    assert_eq!(ids(&followed["data"]["list"]), [asked], "{followed}");
    let (_, visitor) = c
        .app
        .post("/question/list", json!({ "following": true }))
        .await;
    assert_eq!(visitor["code"], 4010);
    let (_, profile) = c.app.post("/user/profile", follow.clone()).await;
    assert_eq!(
        (&profile["data"]["followers"], &profile["data"]["following"]),
        (&json!(1), &json!(0))
    );
    assert_eq!(
        c.call(&fan, "/user/follow/del", follow.clone()).await["code"],
        2000
    );
    assert_eq!(
        c.ids(Some(&fan), json!({ "tab": "following" })).await,
        Vec::<i64>::new()
    );
    // A person's answers, newest first, with their questions.
    let asker = c.reader("asker").await;
    let ask = json!({ "title": "Where do staking yields come from?", "tags": [c.tag] });
    let question = id(&c.call(&asker, "/question/create", ask).await);
    let answer = json!({ "question_id": question, "content": "From issuance and fees." });
    let answered = id(&c.call(&writer, "/answer/create", answer).await);
    let (_, answers) = c.app.post("/user/answers", follow.clone()).await;
    let first = &answers["data"]["list"][0];
    assert_eq!(
        (
            &first["id"],
            &first["question_id"],
            &first["question_title"]
        ),
        (
            &json!(answered),
            &json!(question),
            &json!("Where do staking yields come from?")
        ),
        "{answers}"
    );
    // An avatar is an image the reader uploaded here.
    let image = c.upload(&writer).await;
    let theirs = c.upload(&fan).await;
    let update = |avatar: &str| json!({ "avatar": avatar });
    assert_eq!(
        c.call(&writer, "/user/profile/update", update(&theirs))
            .await["code"],
        4001
    );
    assert_eq!(
        c.call(
            &writer,
            "/user/profile/update",
            update("https://evil.example/me.png")
        )
        .await["code"],
        4001
    );
    let updated = c
        .call(&writer, "/user/profile/update", update(&image))
        .await;
    assert_eq!(updated["data"]["avatar"], json!(image), "{updated}");
    let (_, detail) = c.app.post("/feed/detail", json!({ "id": post })).await;
    assert_eq!(detail["data"]["user"]["avatar"], json!(image));
}

async fn bots_push_posts_only_to_community_chats(backend: Backend) {
    let c = Community::start(backend).await;
    let writer = c.reader("writer").await;
    c.age();
    let mut chats = Vec::new();
    for (n, (target, target_id)) in [("community", 0), ("tag", c.tag), ("news", 0)]
        .into_iter()
        .enumerate()
    {
        chats.push(c.chat(1000 + n as i64, target, target_id).await);
    }
    let post = id(&c
        .write(
            &writer,
            json!({ "content": "defi thoughts", "tags": [c.tag] }),
        )
        .await);
    let queued_for = |chat: i64| {
        bot_delivery::Entity::find()
            .filter(bot_delivery::Column::ChatId.eq(chat))
            .filter(bot_delivery::Column::FeedId.eq(post))
            .count(&c.app.state.db)
    };
    assert_eq!(queued_for(chats[0]).await.expect("db"), 1, "community");
    assert_eq!(queued_for(chats[1]).await.expect("db"), 0, "the tag's chat");
    assert_eq!(queued_for(chats[2]).await.expect("db"), 0, "news");
}

/// A reported post taken down by the team leaves every place it was: feeds, search, its tag's
/// RSS, the bots' queue and open streams; a reported profile is reset. Their authors are told.
async fn reported_posts_and_profiles_are_taken_down_everywhere(backend: Backend) {
    let c = Community::start(backend).await;
    let (writer, reader) = (c.reader("writer").await, c.reader("reader").await);
    c.age();
    let chat = c.chat(2000, "community", 0).await;
    let post = id(&c
        .write(
            &writer,
            json!({ "title": "Free airdrop", "content": "Send 1 ETH to get 2 quokkacoin",
                "tags": [c.tag] }),
        )
        .await);
    let rss = c.app.base.clone() + "/rss/en/tag/defi.xml";
    let rss_text = || async { c.app.http.get(&rss).send().await.expect("rss").text().await };
    assert!(rss_text().await.expect("rss").contains("Free airdrop"));
    let search = json!({ "q": "quokkacoin", "kind": "feed" });
    assert_eq!(
        ids(&c.app.post("/search", search.clone()).await.1["data"]["list"]),
        [post]
    );
    let mut stream = SseReader::open(&c.app.http, &c.app.url("/stream?subjects=home"), &[]).await;
    // Reported once per reader, for a reason; nothing reported that is not there.
    let report = json!({ "kind": "post", "id": post, "reason": "scam" });
    assert_eq!(
        c.call(&reader, "/report/add", report.clone()).await["code"],
        2000
    );
    assert_eq!(c.call(&reader, "/report/add", report).await["code"], 4603);
    for (bad, code) in [
        (
            json!({ "kind": "post", "id": post + 100, "reason": "x" }),
            4040,
        ),
        // Not something that can be reported: a bad request, naming the kinds that can.
        (json!({ "kind": "banana", "id": post, "reason": "x" }), 4000),
        (json!({ "kind": "post", "reason": "x" }), 4000),
        (
            json!({ "kind": "profile", "id": writer.id, "reason": "" }),
            4001,
        ),
    ] {
        let refused = c.call(&reader, "/report/add", bad.clone()).await;
        assert_eq!(refused["code"], code, "{bad}");
        if bad["kind"] == "banana" {
            let said = refused["msg"].as_str().expect("msg");
            assert!(
                said.contains("`comment`, `post`, `question`, `answer`, `profile`"),
                "{said}"
            );
        }
    }
    let listed = c.admin("/admin/report/list", json!({})).await;
    let first = &listed["data"]["list"][0];
    assert_eq!(
        (
            &first["kind"],
            &first["author"]["id"],
            &first["target_state"]
        ),
        (&json!("post"), &json!(writer.id), &json!("visible")),
        "{listed}"
    );
    assert!(
        first["content"]
            .as_str()
            .expect("content")
            .contains("2 quokkacoin")
    );
    let removal = json!({ "kind": "post", "id": post, "reason": "Scam" });
    assert_eq!(
        c.admin("/admin/remove", removal.clone()).await["code"],
        2000
    );
    let removed = stream.next_named("removed").await;
    assert_eq!(removed.data, json!({ "feed_id": post }));
    assert_eq!(
        c.app.post("/feed/detail", json!({ "id": post })).await.1["code"],
        4040
    );
    assert_eq!(
        c.ids(None, json!({ "tag_id": c.tag })).await,
        Vec::<i64>::new()
    );
    assert_eq!(
        ids(&c.app.post("/search", search).await.1["data"]["list"]),
        Vec::<i64>::new()
    );
    c.app.clock.advance(2);
    assert!(!rss_text().await.expect("rss").contains("Free airdrop"));
    let delivery = bot_delivery::Entity::find()
        .filter(bot_delivery::Column::ChatId.eq(chat))
        .one(&c.app.state.db)
        .await
        .expect("db")
        .expect("it was queued");
    assert_eq!(delivery.state, "dropped", "withdrawn before it was sent");
    assert_eq!(c.admin("/admin/remove", removal).await["code"], 4040);
    let told = c.call(&writer, "/message/list", json!({})).await;
    assert_eq!(
        (
            &told["data"]["list"][0]["kind"],
            &told["data"]["list"][0]["body"]
        ),
        (&json!("removed_post"), &json!("Scam"))
    );
    let resolved = c
        .admin("/admin/report/list", json!({ "state": "resolved" }))
        .await;
    assert_eq!(
        resolved["data"]["list"][0]["target_state"], "gone",
        "{resolved}"
    );
    // A profile: reported as it shows, reset by the CLI to a name that says nothing.
    let avatar = c.upload(&writer).await;
    let change = json!({ "nickname": "CheapFollowers", "bio": "DM me", "avatar": avatar });
    assert_eq!(
        c.call(&writer, "/user/profile/update", change).await["code"],
        2000
    );
    let report = json!({ "kind": "profile", "id": writer.id, "reason": "spam" });
    assert_eq!(c.call(&reader, "/report/add", report).await["code"], 2000);
    let listed = c.admin("/admin/report/list", json!({})).await;
    assert_eq!(
        listed["data"]["list"][0]["content"],
        format!("CheapFollowers\nDM me\n{avatar}")
    );
    let said = server::community::reports::run(
        &c.app.state,
        server::config::ModerationAction::Remove {
            kind: "profile".into(),
            id: writer.id,
            reason: "Advertising".into(),
        },
    )
    .await
    .expect("removed");
    assert_eq!(said, format!("profile {} removed\n", writer.id));
    let (_, profile) = c
        .app
        .post("/user/profile", json!({ "user_id": writer.id }))
        .await;
    let nickname = profile["data"]["nickname"].as_str().expect("nickname");
    assert!(nickname.starts_with("user_"), "{profile}");
    assert_eq!(
        (&profile["data"]["bio"], &profile["data"]["avatar"]),
        (&json!(""), &json!(""))
    );
    let told = c.call(&writer, "/message/list", json!({})).await;
    assert_eq!(told["data"]["list"][0]["kind"], "reset_profile");
    let wrong = server::community::reports::run(
        &c.app.state,
        server::config::ModerationAction::Remove {
            kind: "banana".into(),
            id: 1,
            reason: "x".into(),
        },
    )
    .await;
    assert!(wrong.is_err());
}

/// However often a post is edited, its history stays small: at most 20 edits a post a day, the
/// newest 50 versions kept, read a page at a time.
async fn a_post_s_history_is_bounded_and_paged(backend: Backend) {
    let c = Community::start(backend).await;
    let writer = c.reader("editor").await;
    c.age();
    let made = c
        .call(&writer, "/post/create", json!({ "content": "version 0" }))
        .await;
    let post = made["data"]["id"].as_i64().expect("post id");
    let edit = async |n: usize| {
        let body = json!({ "id": post, "content": format!("version {n}") });
        c.call(&writer, "/post/edit", body).await["code"].clone()
    };
    for n in 1..=20 {
        assert_eq!(edit(n).await, 2000, "edit {n}");
    }
    assert_eq!(edit(21).await, 4290, "the post's edits for the day");
    for n in 21..=55 {
        if n % 20 == 1 {
            c.app.clock.advance(DAY + 1);
        }
        assert_eq!(edit(n).await, 2000, "edit {n}");
    }
    let mut seen = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let body = json!({ "id": post, "limit": 20, "cursor": cursor });
        let (_, page) = c.app.post("/post/history", body).await;
        assert_eq!(page["data"]["total"], 50, "{page}");
        for version in page["data"]["list"].as_array().expect("versions") {
            seen.push(version["markdown"].as_str().expect("markdown").to_owned());
        }
        cursor = page["data"]["next_cursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    let expected: Vec<String> = (6..=55).rev().map(|n| format!("version {n}")).collect();
    assert_eq!(seen, expected, "the newest 50, newest first, each once");
    let (_, bad) = c
        .app
        .post("/post/history", json!({ "id": post, "cursor": "x" }))
        .await;
    assert_eq!(bad["code"], 4001, "{bad}");
}

on_both_databases!(
    reported_posts_and_profiles_are_taken_down_everywhere,
    a_post_s_history_is_bounded_and_paged,
    posts_are_cleaned_shown_found_edited_and_deleted,
    bad_posts_and_limits,
    people_are_followed_and_their_posts_come_to_the_following_tab,
    bots_push_posts_only_to_community_chats
);
