//! Machine translation on SQLite and PostgreSQL, against a local LibreTranslate-shaped service:
//! each item into each other language once, ever, however many servers; shown to readers who
//! want translations, with the original beside it, cleaned, and found by search in their
//! language; a service that is down, slow, limiting or refusing, or a spent budget, leaves the
//! originals.

use serde_json::{Value, json};
use server::content::translate::{Translator, round};

use crate::common::translate_api::{Mode, TranslateApi};
use crate::common::{ADMIN, Backend, TestApp};

async fn start(backend: Backend, api: &TranslateApi, daily_chars: i64) -> TestApp {
    let url = api.base.clone();
    TestApp::start_with(backend, |c| {
        c.admin_token = Some(ADMIN.to_owned());
        c.translate.translate_url = Some(url);
        c.translate.translate_api_key = Some("translate-key".to_owned());
        c.translate.translate_daily_chars = daily_chars;
    })
    .await
}

fn translator(app: &TestApp) -> Translator {
    Translator::new(&app.state.config.translate)
        .expect("translator")
        .expect("configured")
}

async fn korean(app: &TestApp, slug: &str, title: &str) -> i64 {
    let item = json!({ "source_url": format!("https://news.test/{slug}"), "kind": "article",
        "lang": "ko", "title": title, "summary": "요약", "content": "<p>본문</p>",
        "published_at": app.state.now() - 60 });
    app.publish(item).await
}

async fn items_are_translated_once_and_shown_beside_their_original(backend: Backend) {
    let api = TranslateApi::start().await;
    let app = start(backend, &api, 100_000).await;
    let id = korean(&app, "surge", "비트코인 급등").await;
    // Nothing translated yet: an English reader gets the Korean original.
    let page = app
        .call_as("/feed/list", json!({ "limit": 1 }), "en", None)
        .await;
    assert_eq!(
        (&page["list"][0]["title"], &page["list"][0]["translated"]),
        (&json!("비트코인 급등"), &json!(false))
    );
    // Two servers at once: one holds the lease, and each language is asked for once.
    let beside = app.start_beside().await;
    let (a, b) = (translator(&app), translator(&beside));
    let (one, two) = tokio::join!(
        round(&app.state.ctx, &a, "server-a"),
        round(&beside.state.ctx, &b, "server-b")
    );
    let made = one.expect("round") + two.expect("round");
    assert_eq!(made, 4, "English, both Chinese and Vietnamese");
    let calls = api.calls();
    assert_eq!(
        calls.len(),
        8,
        "a title and summary call and a content call each"
    );
    assert!(
        calls
            .iter()
            .all(|c| c["api_key"] == "translate-key" && c["source"] == "ko")
    );
    assert_eq!(
        round(&app.state.ctx, &a, "server-a").await.expect("round"),
        0
    );
    assert_eq!(api.calls().len(), 8, "once, ever");

    // (Another page size: the first page is cached for a second, by design.)
    let page = app
        .call_as("/feed/list", json!({ "limit": 2 }), "en", None)
        .await;
    let card = &page["list"][0];
    assert_eq!(card["title"], "비트코인 급등 · en rendering");
    assert_eq!(card["translated"], true);
    assert_eq!(
        card["original"],
        json!({ "title": "비트코인 급등", "summary": "요약", "machine": true })
    );
    let detail = app
        .call_as("/feed/detail", json!({ "id": id }), "vi", None)
        .await;
    let content = detail["content"].as_str().expect("content");
    assert!(
        content.contains("vi rendering") && !content.contains("<script"),
        "{content}"
    );
    assert_eq!(detail["original"]["content"], "<p>본문</p>");
    // Search in the reader's language finds the translation.
    let found = app
        .call_as(
            "/search",
            json!({ "q": "rendering", "kind": "feed" }),
            "en",
            None,
        )
        .await;
    assert_eq!(found["list"].as_array().map(Vec::len), Some(1), "{found}");
    // A reader who turned translation off reads the original.
    let me = app.sign_in("reader@example.com").await;
    let token = me["token"].as_str().expect("token");
    app.call_as(
        "/user/settings",
        json!({ "auto_translate": false }),
        "en",
        Some(token),
    )
    .await;
    let page = app
        .call_as("/feed/list", json!({ "limit": 1 }), "en", Some(token))
        .await;
    assert_eq!(
        (&page["list"][0]["title"], &page["list"][0]["original"]),
        (&json!("비트코인 급등"), &Value::Null)
    );
}

async fn a_failing_service_or_a_spent_budget_leaves_the_originals(backend: Backend) {
    let api = TranslateApi::start().await;
    // Room for one item's four languages (18 characters each), not a second's.
    let app = start(backend, &api, 4 * 18 + 10).await;
    korean(&app, "first", "첫 번째 소식").await;
    let t = translator(&app);
    let ctx = &app.state.ctx;

    // Down: three failures open the breaker, and it is left alone for a minute.
    api.mode(Mode::Down);
    assert_eq!(round(ctx, &t, "a").await.expect("round"), 0);
    assert_eq!(api.calls().len(), 3);
    assert_eq!(round(ctx, &t, "a").await.expect("round"), 0);
    assert_eq!(api.calls().len(), 3, "the breaker is open");
    let page = app
        .call_as("/feed/list", json!({ "limit": 1 }), "en", None)
        .await;
    assert_eq!(page["list"][0]["title"], "첫 번째 소식");
    // Over its limit, or refusing the language: nothing stored either; a refusal is not asked
    // again, and does not open the breaker.
    app.clock.advance(61);
    api.mode(Mode::RateLimited);
    assert_eq!(round(ctx, &t, "a").await.expect("round"), 0);
    app.clock.advance(61);
    api.mode(Mode::Refusing);
    let before = api.calls().len();
    assert_eq!(round(ctx, &t, "a").await.expect("round"), 0);
    assert_eq!(api.calls().len(), before + 4, "each language once");
    assert_eq!(round(ctx, &t, "a").await.expect("round"), 0);
    assert_eq!(
        api.calls().len(),
        before + 4,
        "refused ones are not asked again"
    );

    // A fresh translator (another server); slow: given up after 5 s.
    let t = translator(&app);
    api.mode(Mode::Slow);
    let started = std::time::Instant::now();
    let slow = tokio::spawn({
        let ctx = ctx.clone();
        let t = t.clone();
        async move { round(&ctx, &t, "a").await }
    });
    // Pages do not wait for it.
    let page = app
        .call_as("/feed/list", json!({ "limit": 1 }), "en", None)
        .await;
    assert_eq!(page["list"][0]["title"], "첫 번째 소식");
    assert_eq!(slow.await.expect("join").expect("round"), 0);
    assert!(started.elapsed() >= std::time::Duration::from_secs(5));

    // Fine again, and tomorrow's budget: the first item's four languages fit, a second's do not.
    api.mode(Mode::Fine);
    app.clock.advance(86_400);
    korean(&app, "second", "두 번째 소식").await;
    let t = translator(&app);
    let made = round(ctx, &t, "a").await.expect("round");
    assert_eq!(made, 4, "the budget holds four");
    assert_eq!(round(ctx, &t, "a").await.expect("round"), 0, "spent");
}

on_both_databases!(
    items_are_translated_once_and_shown_beside_their_original,
    a_failing_service_or_a_spent_budget_leaves_the_originals,
);
