//! Votes and the feeds they rank, on SQLite and PostgreSQL: bullish and bearish exclude each
//! other, a vote counts once however often it is sent, new and banned accounts do not vote, 60 a
//! minute; hot and rising order, paging that keeps its ranking while votes come in, and a
//! token's sentiment.

use serde_json::{Value, json};

use crate::common::{ADMIN, Backend, TestApp};

struct Voters {
    app: TestApp,
    tokens: Vec<String>,
    ids: Vec<i64>,
}

impl Voters {
    /// Readers whose accounts are a day old by the time the items come.
    async fn start(backend: Backend, readers: usize) -> Self {
        let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
        let (_, made) = app
            .post_with(
                "/admin/catalogue/upsert",
                json!({ "tokens": [{ "symbol": "BTC", "name": "Bitcoin" }] }),
                &[("X-ADMIN-TOKEN", ADMIN)],
            )
            .await;
        assert_eq!(made["code"], 2000, "{made}");
        let mut tokens = Vec::new();
        for i in 0..readers {
            let session = app.sign_in(&format!("voter{i}@example.com")).await;
            tokens.push(session["token"].as_str().expect("token").to_owned());
        }
        Self {
            app,
            tokens,
            ids: Vec::new(),
        }
    }

    /// An item published `ago` seconds ago.
    async fn item(&mut self, title: &str, ago: i64, important: bool) -> i64 {
        let app = &self.app;
        let item = json!({ "source_url": format!("https://news.test/{}", title.replace(' ', "-")),
            "kind": "flash", "lang": "en", "title": title, "important": important,
            "published_at": app.state.now() - ago, "tokens": ["BTC"] });
        let id = app.publish(item).await;
        self.ids.push(id);
        id
    }

    async fn vote(&self, reader: usize, feed_id: i64, kind: &str, on: bool) -> (u16, Value) {
        let (status, body) = self
            .app
            .post_with(
                "/vote/set",
                json!({ "feed_id": feed_id, "kind": kind, "on": on }),
                &[("X-TOKEN", self.tokens[reader].as_str())],
            )
            .await;
        (status.as_u16(), body)
    }

    /// The titles of a page, and its cursor.
    async fn titles(&self, body: Value) -> (Vec<String>, Value) {
        let (_, page) = self.app.post("/feed/list", body).await;
        assert_eq!(page["code"], 2000, "{page}");
        let titles = page["data"]["list"]
            .as_array()
            .expect("list")
            .iter()
            .map(|c| c["title"].as_str().unwrap_or_default().to_owned())
            .collect();
        (titles, page["data"]["next_cursor"].clone())
    }
}

async fn votes_exclude_count_once_and_are_refused_where_they_should_be(backend: Backend) {
    let mut v = Voters::start(backend, 3).await;
    let id = v.item("Bitcoin ETF approved", 60, false).await;
    let (status, young) = v.vote(0, id, "bullish", true).await;
    assert_eq!(
        (status, young["msg"].clone()),
        (403, json!("New accounts can vote a day after signing up"))
    );
    v.app.clock.advance(25 * 3600);
    for (feed_id, kind, code) in [(id, "rocket", 4001), (999_999, "bullish", 4040)] {
        let (status, refused) = v.vote(0, feed_id, kind, true).await;
        assert!(status < 500, "{refused}");
        assert_eq!(refused["code"], code, "{refused}");
    }
    let (status, _) = v
        .app
        .post(
            "/vote/set",
            json!({ "feed_id": id, "kind": "lol", "on": true }),
        )
        .await;
    assert_eq!(status.as_u16(), 401);

    let (_, set) = v.vote(0, id, "bullish", true).await;
    assert_eq!(
        set["data"],
        json!({ "votes": { "bullish": 1, "bearish": 0, "important": 0, "lol": 0, "toxic": 0 },
            "mine": ["bullish"] })
    );
    // Bearish clears bullish.
    let (_, set) = v.vote(0, id, "bearish", true).await;
    assert_eq!(
        (
            &set["data"]["votes"]["bullish"],
            &set["data"]["votes"]["bearish"]
        ),
        (&json!(0), &json!(1))
    );
    assert_eq!(set["data"]["mine"], json!(["bearish"]));
    // Twenty identical calls at once count once.
    let calls = (0..20).map(|_| v.vote(1, id, "important", true));
    let answers = futures_util::future::join_all(calls).await;
    assert!(answers.iter().all(|(s, _)| *s == 200), "{answers:?}");
    let (_, set) = v.vote(1, id, "important", true).await;
    assert_eq!(set["data"]["votes"]["important"], 1, "{set}");
    // Off, twice: once.
    v.vote(1, id, "important", false).await;
    let (_, set) = v.vote(1, id, "important", false).await;
    assert_eq!(
        (&set["data"]["votes"]["important"], &set["data"]["mine"]),
        (&json!(0), &json!([]))
    );
    v.vote(1, id, "important", true).await;

    // Cards carry the counts, and a signed-in reader's own votes.
    let (_, page) = v
        .app
        .post_with(
            "/feed/list",
            json!({}),
            &[("X-TOKEN", v.tokens[0].as_str())],
        )
        .await;
    let card = &page["data"]["list"][0];
    assert_eq!(card["votes"]["bearish"], 1, "{card}");
    assert_eq!(card["votes"]["important"], 1, "{card}");
    assert_eq!(card["mine"], json!(["bearish"]));
    let (_, page) = v.app.post("/feed/list", json!({})).await;
    assert_eq!(page["data"]["list"][0]["mine"], Value::Null, "visitors");

    // The token's sentiment: one bearish vote of one.
    let (_, mood) = v
        .app
        .post("/token/sentiment", json!({ "symbol": "btc", "hours": 24 }))
        .await;
    assert_eq!(
        mood["data"],
        json!({ "bullish": 0, "bearish": 1, "bullish_share": 0.0, "bearish_share": 1.0,
            "hours": 24 })
    );
    for bad in [
        json!({ "symbol": "btc", "hours": 0 }),
        json!({ "symbol": "nope" }),
    ] {
        let (status, refused) = v.app.post("/token/sentiment", bad).await;
        assert!(
            status.as_u16() < 500 && refused["code"] != 2000,
            "{refused}"
        );
    }

    // Banned readers do not vote.
    let (_, who) = v
        .app
        .post_with(
            "/user/info",
            json!({}),
            &[("X-TOKEN", v.tokens[2].as_str())],
        )
        .await;
    let banned = who["data"]["id"].as_i64().expect("id");
    let (_, ban) = v
        .app
        .post_with(
            "/admin/user/ban",
            json!({ "user_id": banned, "until": v.app.state.now() + 3600, "reason": "spam" }),
            &[("X-ADMIN-TOKEN", ADMIN)],
        )
        .await;
    assert_eq!(ban["code"], 2000, "{ban}");
    let (status, refused) = v.vote(2, id, "lol", true).await;
    assert_eq!((status, refused["code"].clone()), (403, json!(4031)));

    // Sixty a minute, in a minute of its own.
    v.app.clock.advance(61);
    for i in 0..60 {
        let (_, ok) = v.vote(0, id, "lol", i % 2 == 0).await;
        assert_eq!(ok["code"], 2000, "{i}: {ok}");
    }
    assert_eq!(v.vote(0, id, "lol", true).await.0, 429);
}

async fn hot_and_rising_rank_and_paging_keeps_its_ranking(backend: Backend) {
    let mut v = Voters::start(backend, 4).await;
    v.app.clock.advance(25 * 3600);
    // An important item from two hours ago, voted important by three readers.
    let old = v.item("Old and weighty", 2 * 3600, true).await;
    for reader in 0..3 {
        assert_eq!(v.vote(reader, old, "important", true).await.0, 200);
    }
    v.app.clock.advance(2 * 3600);
    // Now: one bullish vote on a new item; a quiet one from half an hour ago.
    let new = v.item("New with a vote", 600, false).await;
    let quiet = v.item("Quiet half hour", 1800, false).await;
    assert_eq!(v.vote(3, new, "bullish", true).await.0, 200);

    let order = |sort: &str| json!({ "sort": sort });
    assert_eq!(
        v.titles(order("new")).await.0,
        ["New with a vote", "Quiet half hour", "Old and weighty"]
    );
    // Hot: weight 13 at 4 h (0.88) over 2 at 10 min (0.63) over 1 at 30 min (0.25).
    assert_eq!(
        v.titles(order("hot")).await.0,
        ["Old and weighty", "New with a vote", "Quiet half hour"]
    );
    // Rising: the old item gained nothing this hour and only decayed.
    assert_eq!(
        v.titles(order("rising")).await.0,
        ["New with a vote", "Quiet half hour", "Old and weighty"]
    );
    let (_, bad) = v.app.post("/feed/list", order("best")).await;
    assert_eq!(bad["code"], 4001, "{bad}");

    // Paging keeps the ranking it started from while votes move the scores.
    let (first, cursor) = v.titles(json!({ "sort": "hot", "limit": 1 })).await;
    assert_eq!(first, ["Old and weighty"]);
    for reader in 0..3 {
        assert_eq!(v.vote(reader, quiet, "important", true).await.0, 200);
    }
    let mut seen = first;
    let mut cursor = cursor;
    while let Some(next) = cursor.as_str().map(str::to_owned) {
        let (page, more) = v
            .titles(json!({ "sort": "hot", "limit": 1, "cursor": next }))
            .await;
        seen.extend(page);
        cursor = more;
    }
    assert_eq!(
        seen,
        ["Old and weighty", "New with a vote", "Quiet half hour"]
    );
    // A minute on, new readers get a new ranking, with the votes in it.
    v.app.clock.advance(61);
    assert_eq!(
        v.titles(json!({ "sort": "hot", "limit": 3 })).await.0[0],
        "Quiet half hour"
    );
    let (_, expired) = v
        .app
        .post("/feed/list", json!({ "sort": "hot", "cursor": "999999.1" }))
        .await;
    assert_eq!(expired["code"], 4001, "{expired}");
    assert!(v.ids.contains(&old));
}

async fn search_sorts_by_time_and_score(backend: Backend) {
    let mut v = Voters::start(backend, 2).await;
    v.app.clock.advance(25 * 3600);
    let weighty = v.item("Bitcoin treasury buys more", 3 * 3600, true).await;
    for reader in 0..2 {
        assert_eq!(v.vote(reader, weighty, "important", true).await.0, 200);
    }
    v.item("Bitcoin miners rest", 600, false).await;
    v.item("Ether staking grows", 60, false).await;
    let search = |sort: &'static str| {
        let app = &v.app;
        async move {
            let body = json!({ "q": "bitcoin", "sort": sort });
            let page = app.call_as("/search", body, "en", None).await;
            page["list"]
                .as_array()
                .expect("list")
                .iter()
                .map(|h| {
                    (
                        h["kind"].clone(),
                        h["title"].clone(),
                        h["published_at"].clone(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    let now = v.app.state.now();
    let (treasury, miners) = (
        (
            json!("feed"),
            json!("Bitcoin treasury buys more"),
            json!(now - 3 * 3600),
        ),
        (
            json!("feed"),
            json!("Bitcoin miners rest"),
            json!(now - 600),
        ),
    );
    assert_eq!(search("new").await, [miners.clone(), treasury.clone()]);
    assert_eq!(search("hot").await, [treasury.clone(), miners.clone()]);
    // By relevance the token comes first (no date), then the items with the term in a title.
    let relevance = search("relevance").await;
    assert_eq!(relevance[0].0, "token");
    assert_eq!(relevance[0].2, Value::Null);
    assert_eq!(relevance.len(), 3, "{relevance:?}");
    for (body, what) in [
        (json!({ "q": "bitcoin", "sort": "best" }), "sort"),
        (
            json!({ "q": "bitcoin", "sort": "new", "cursor": "soon" }),
            "cursor",
        ),
    ] {
        let (status, bad) = v.app.post("/search", body).await;
        assert_eq!(
            (status.as_u16(), &bad["code"]),
            (200, &json!(4001)),
            "{what}: {bad}"
        );
    }
}

on_both_databases!(
    votes_exclude_count_once_and_are_refused_where_they_should_be,
    hot_and_rising_rank_and_paging_keeps_its_ranking,
    search_sorts_by_time_and_score,
);
