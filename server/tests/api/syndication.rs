//! Feeds for feed readers (`/rss/{locale}/…`) on SQLite and PostgreSQL: RSS 2.0 and Atom 1.0
//! parsed back with feed-rs, in the reader's language, answered with 304 when unchanged, and
//! linked from the pages' heads.

use feed_rs::model::FeedType;
use reqwest::StatusCode;
use reqwest::header::{
    CONTENT_TYPE, ETAG, HeaderMap, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED,
};
use serde_json::{Value, json};
use server::content::demo;

use crate::common::{Backend, TestApp};

const ADMIN: &str = "admin-token-for-tests-0123456789";

async fn fetch(
    app: &TestApp,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, HeaderMap, String) {
    let mut request = app.http.get(format!("{}{path}", app.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let res = request.send().await.expect("request");
    let (status, head) = (res.status(), res.headers().clone());
    (status, head, res.text().await.expect("body"))
}

/// A feed that parses, with its entries' titles and links.
async fn parsed(app: &TestApp, path: &str, kind: FeedType) -> feed_rs::model::Feed {
    let (status, head, body) = fetch(app, path, &[]).await;
    assert_eq!(status, 200, "{path}: {body}");
    let mime = if kind == FeedType::Atom {
        "application/atom+xml"
    } else {
        "application/rss+xml"
    };
    let content_type = head[CONTENT_TYPE].to_str().expect("type");
    assert!(content_type.starts_with(mime), "{path}: {content_type}");
    let feed = feed_rs::parser::parse(body.as_bytes()).expect("a valid feed");
    assert_eq!(feed.feed_type, kind, "{path}");
    feed
}

fn titles(feed: &feed_rs::model::Feed) -> Vec<String> {
    feed.entries
        .iter()
        .map(|e| e.title.as_ref().expect("title").content.clone())
        .collect()
}

async fn page(app: &TestApp, body: Value, locale: &str) -> Vec<Value> {
    let cookie = format!("NEXT_LOCALE={locale}");
    let (_, got) = app
        .post_with("/feed/list", body, &[("Cookie", cookie.as_str())])
        .await;
    got["data"]["list"].as_array().expect("list").clone()
}

async fn feeds_for_readers(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    demo::generate(&app.state, &app.state.linking, demo::DEMO_ITEMS)
        .await
        .expect("demo");
    let base = app.state.config.public_url.trim_end_matches('/').to_owned();

    // The newest 50, as the home feed lists them, in the reader's language.
    let news = parsed(&app, "/rss/zh-Hant/news.xml", FeedType::RSS2).await;
    assert_eq!(news.entries.len(), 50);
    // feed-rs lower-cases the language tag it reads.
    assert_eq!(news.language.as_deref(), Some("zh-hant"));
    let home = page(&app, json!({ "limit": 50 }), "zh-Hant").await;
    let expected: Vec<String> = home
        .iter()
        .map(|f| f["title"].as_str().expect("t").to_owned())
        .collect();
    assert_eq!(titles(&news), expected);
    let first = &news.entries[0];
    assert_eq!(
        first.links[0].href,
        format!("{base}/zh-Hant/feed/{}", home[0]["id"])
    );
    assert!(first.published.is_some());
    let atom = parsed(&app, "/rss/zh-Hant/news.atom", FeedType::Atom).await;
    assert_eq!(titles(&atom), expected);
    assert!(
        atom.links.iter().any(|l| l.rel.as_deref() == Some("self")
            && l.href == format!("{base}/rss/zh-Hant/news.atom"))
    );

    let important = parsed(&app, "/rss/en/important.xml", FeedType::RSS2).await;
    let listed = page(&app, json!({ "limit": 50, "only_important": true }), "en").await;
    let expected: Vec<String> = listed
        .iter()
        .map(|f| f["title"].as_str().expect("t").to_owned())
        .collect();
    assert_eq!(titles(&important), expected);

    let (_, tag) = app.post("/tag/detail", json!({ "code": "btc" })).await;
    let (_, token) = app.post("/token/detail", json!({ "symbol": "ETH" })).await;
    for (path, scope) in [
        (
            "/rss/ko/tag/btc.atom",
            json!({ "tag_id": tag["data"]["id"] }),
        ),
        (
            "/rss/ko/token/ETH.xml",
            json!({ "token_id": token["data"]["id"] }),
        ),
        (
            "/rss/ko/channel/fund_movement.atom",
            json!({ "channel": "fund_movement" }),
        ),
    ] {
        let kind = if path.ends_with(".atom") {
            FeedType::Atom
        } else {
            FeedType::RSS2
        };
        let feed = parsed(&app, path, kind).await;
        let mut body = scope;
        body["limit"] = json!(50);
        let listed = page(&app, body, "ko").await;
        let expected: Vec<String> = listed
            .iter()
            .map(|f| f["title"].as_str().expect("t").to_owned())
            .collect();
        assert!(!expected.is_empty(), "{path}");
        assert_eq!(titles(&feed), expected, "{path}");
    }

    // Unchanged: 304 by ETag or by date; a new item makes a new feed.
    let (_, head, _) = fetch(&app, "/rss/en/news.xml", &[]).await;
    let etag = head[ETAG].to_str().expect("etag").to_owned();
    let modified = head[LAST_MODIFIED].to_str().expect("date").to_owned();
    let (status, _, body) =
        fetch(&app, "/rss/en/news.xml", &[(IF_NONE_MATCH.as_str(), &etag)]).await;
    assert_eq!((status, body.as_str()), (StatusCode::NOT_MODIFIED, ""));
    // Compared weakly: a reader that sends the tag back without `W/` is answered the same.
    let strong = etag.trim_start_matches("W/").to_owned();
    let listed = format!("\"stale\", {strong}");
    let (status, _, _) = fetch(
        &app,
        "/rss/en/news.xml",
        &[(IF_NONE_MATCH.as_str(), &listed)],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (status, _, _) = fetch(
        &app,
        "/rss/en/news.xml",
        &[(IF_MODIFIED_SINCE.as_str(), &modified)],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (status, _, _) = fetch(
        &app,
        "/rss/en/news.xml",
        &[(IF_NONE_MATCH.as_str(), "\"other\"")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, done) = app
        .post_with(
            "/admin/feed/upsert",
            json!({ "source_url": "https://news.example/new", "kind": "flash", "lang": "en",
                    "title": "Echidnacoin 5 < 6 & \"more\"", "published_at": app.state.now() }),
            &[("X-ADMIN-TOKEN", ADMIN)],
        )
        .await;
    assert_eq!(done["code"], 2000, "{done}");
    let (status, head, body) =
        fetch(&app, "/rss/en/news.xml", &[(IF_NONE_MATCH.as_str(), &etag)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(head[ETAG].to_str().expect("etag"), etag);
    let feed = feed_rs::parser::parse(body.as_bytes()).expect("valid");
    assert_eq!(
        titles(&feed)[0],
        "Echidnacoin 5 < 6 & \"more\"",
        "escaped and read back"
    );

    for missing in [
        "/rss/en/tag/no-such-tag.xml",
        "/rss/en/token/NOSUCH.atom",
        "/rss/en/channel/nowhere.xml",
        "/rss/xx/news.xml",
        "/rss/en/news.json",
        "/rss/en/everything.xml",
        "/rss/en/kol/1.xml",
        "/rss/en/.xml",
    ] {
        let (status, _, _) = fetch(&app, missing, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    }

    // Pages name their feeds in the head the server writes.
    for (page, feed) in [
        ("/vi/tag/btc", "/rss/vi/tag/btc.xml"),
        ("/token/ETH", "/rss/en/token/ETH.xml"),
        (
            "/ko/channel/fund_movement",
            "/rss/ko/channel/fund_movement.atom",
        ),
        ("/", "/rss/en/news.xml"),
    ] {
        let (_, _, html) = fetch(&app, page, &[]).await;
        assert!(html.contains(&format!("href=\"{base}{feed}\"")), "{page}");
    }
    let (_, _, html) = fetch(&app, "/explore", &[]).await;
    assert!(!html.contains("application/rss+xml"));
}

/// A control character in what is written (here an item's title, through the admin API) is
/// dropped as it is read, and no feed ever carries one: XML forbids them.
async fn control_characters_never_reach_a_feed(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let item = json!({ "source_url": "https://news.test/control", "kind": "flash", "lang": "en",
        "title": "Bell\u{7} and \\u0001 stay\u{1}", "tags": ["ctl"],
        "published_at": app.state.now() });
    let (_, made) = app
        .post_with("/admin/feed/upsert", item, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    assert_eq!(made["code"], 2000, "{made}");
    let (_, detail) = app
        .post("/feed/detail", json!({ "id": made["data"]["id"] }))
        .await;
    assert_eq!(detail["data"]["title"], "Bell and \\u0001 stay");
    for path in [
        "/rss/en/tag/ctl.xml",
        "/rss/en/tag/ctl.atom",
        "/rss/en/news.xml",
    ] {
        let (status, _, body) = fetch(&app, path, &[]).await;
        assert_eq!(status, 200, "{path}");
        assert!(body.contains("Bell and \\u0001 stay"), "{path}: {body}");
        assert!(
            !body.chars().any(client_core::text::xml_forbidden),
            "{path} carries a character XML forbids"
        );
    }
}

crate::on_both_databases!(feeds_for_readers, control_characters_never_reach_a_feed);
