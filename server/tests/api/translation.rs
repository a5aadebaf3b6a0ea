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

/// Rounds until one translates nothing; gives how many were made.
async fn translate_all(app: &TestApp, t: &Translator) -> usize {
    let mut made = 0;
    loop {
        match round(&app.state.ctx, t, "a").await.expect("round") {
            0 => return made,
            n => made += n,
        }
    }
}

async fn readers_texts_are_translated_and_shown_beside_their_original(backend: Backend) {
    let api = TranslateApi::start().await;
    let app = start(backend, &api, 100_000).await;
    let tags = json!({ "tags": [{ "code": "defi", "names": { "en": "DeFi" } }] });
    let (_, made) = app
        .post_with("/admin/catalogue/upsert", tags, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    assert_eq!(made["code"], 2000, "{made}");
    let tag = app.call_as("/tag/detail", json!({ "code": "defi" }), "en", None);
    let tag = tag.await["id"].as_i64().expect("tag id");
    let token = |session: Value| session["token"].as_str().expect("token").to_owned();
    let asker = token(app.sign_in("asker@example.com").await);
    let answerer = token(app.sign_in("answerer@example.com").await);
    // Written in the language each reader uses the site in: Korean and Vietnamese.
    let question = app
        .call_as(
            "/question/create",
            json!({ "title": "스테이킹 수익은 어디서 오나요?", "content": "궁금합니다", "tags": [tag] }),
            "ko",
            Some(&asker),
        )
        .await;
    let question_id = question["id"].as_i64().expect("question id");
    assert_eq!(
        (&question["lang"], &question["original"]),
        (&json!("ko"), &Value::Null)
    );
    let answer = json!({ "question_id": question_id, "content": "Từ phí giao dịch" });
    let answered = app.call_as("/answer/create", answer, "vi", Some(&answerer));
    let answer_id = answered.await["id"].as_i64().expect("answer id");
    let comment = json!({ "question_id": question_id, "content": "좋은 질문" });
    app.call_as("/comment/add", comment, "ko", Some(&asker))
        .await;

    // Each text into its four other languages, once: the question's title and text in one call.
    let t = translator(&app);
    assert_eq!(translate_all(&app, &t).await, 12);
    assert_eq!(api.calls().len(), 12);
    assert_eq!(translate_all(&app, &t).await, 0, "once, ever");

    let detail = app
        .call_as("/question/detail", json!({ "id": question_id }), "en", None)
        .await;
    assert_eq!(
        (&detail["title"], &detail["content"], &detail["lang"]),
        (
            &json!("스테이킹 수익은 어디서 오나요? · en rendering"),
            &json!("궁금합니다 · en rendering"),
            &json!("ko")
        )
    );
    assert_eq!(
        detail["original"],
        json!({ "title": "스테이킹 수익은 어디서 오나요?", "content": "궁금합니다" })
    );
    let first = &detail["answers"][0];
    assert_eq!(
        (&first["content"], &first["original"]["content"]),
        (
            &json!("Từ phí giao dịch · en rendering"),
            &json!("Từ phí giao dịch")
        )
    );
    let thread = json!({ "question_id": question_id });
    let comments = app.call_as("/comment/list", thread.clone(), "zh-Hant", None);
    let comments = comments.await;
    assert_eq!(
        (
            &comments["list"][0]["content"],
            &comments["list"][0]["original"]
        ),
        (
            &json!("좋은 질문 · zh-Hant rendering"),
            &json!({ "content": "좋은 질문" })
        )
    );
    let listed = app.call_as("/question/list", json!({}), "vi", None).await;
    assert_eq!(
        listed["list"][0]["title"],
        "스테이킹 수익은 어디서 오나요? · vi rendering"
    );
    // In the language it was written in, the original, and nothing beside it.
    let korean = app
        .call_as("/question/detail", json!({ "id": question_id }), "ko", None)
        .await;
    assert_eq!(
        (&korean["title"], &korean["original"]),
        (&json!("스테이킹 수익은 어디서 오나요?"), &Value::Null)
    );
    // A reader who turned translation off reads originals.
    let plain = token(app.sign_in("plain@example.com").await);
    let off = json!({ "auto_translate": false });
    app.call_as("/user/settings", off, "en", Some(&plain)).await;
    let detail = app
        .call_as(
            "/question/detail",
            json!({ "id": question_id }),
            "en",
            Some(&plain),
        )
        .await;
    assert_eq!(
        (&detail["title"], &detail["answers"][0]["content"]),
        (
            &json!("스테이킹 수익은 어디서 오나요?"),
            &json!("Từ phí giao dịch")
        )
    );
    let comments = app
        .call_as("/comment/list", thread, "en", Some(&plain))
        .await;
    assert_eq!(comments["list"][0]["content"], "좋은 질문");

    // Rewritten, an answer's old translations go, and the new text is translated in its turn.
    let edit = json!({ "id": answer_id, "content": "Mostly from fees" });
    app.call_as("/answer/edit", edit, "en", Some(&answerer))
        .await;
    let answers = json!({ "id": question_id });
    let page = app
        .call_as("/question/answers", answers.clone(), "vi", None)
        .await;
    assert_eq!(
        (&page["list"][0]["content"], &page["list"][0]["original"]),
        (&json!("Mostly from fees"), &Value::Null)
    );
    assert_eq!(translate_all(&app, &t).await, 4);
    let page = app.call_as("/question/answers", answers, "vi", None).await;
    assert_eq!(
        page["list"][0]["content"],
        "Mostly from fees · vi rendering"
    );
}

/// Readers' texts are filed under the language they are written in where the text shows it (a
/// Korean question from an English interface, a Vietnamese comment from a Chinese one), and
/// under the writer's interface language where it is too short to tell ("gm"); an edit files it
/// again.
async fn readers_texts_are_filed_under_the_language_they_are_written_in(backend: Backend) {
    let api = TranslateApi::start().await;
    let app = start(backend, &api, 100_000).await;
    let tags = json!({ "tags": [{ "code": "defi", "names": { "en": "DeFi" } }] });
    app.post_with("/admin/catalogue/upsert", tags, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    let tag = app.call_as("/tag/detail", json!({ "code": "defi" }), "en", None);
    let tag = tag.await["id"].as_i64().expect("tag id");
    let session = app.sign_in("polyglot@example.com").await;
    let token = session["token"].as_str().expect("token");
    let question = json!({ "title": "스테이킹 수익은 도대체 어디서 나오는 건가요?",
        "content": "디파이 프로토콜의 이자 구조가 궁금합니다", "tags": [tag] });
    let asked = app
        .call_as("/question/create", question, "en", Some(token))
        .await;
    assert_eq!(asked["lang"], "ko", "{asked}");
    let id = asked["id"].as_i64().expect("question id");
    let comment = |content: &str| json!({ "question_id": id, "content": content });
    let said = app
        .call_as(
            "/comment/add",
            comment("Phí giao dịch trên các sàn phi tập trung là nguồn thu chính"),
            "zh-Hans",
            Some(token),
        )
        .await;
    assert_eq!(said["lang"], "vi", "{said}");
    let short = app
        .call_as("/comment/add", comment("gm"), "vi", Some(token))
        .await;
    assert_eq!(short["lang"], "vi", "{short}");
    let edited = app
        .call_as(
            "/comment/edit",
            json!({ "id": short["id"], "content": "Good morning to everyone reading this thread today" }),
            "vi",
            Some(token),
        )
        .await;
    assert_eq!(edited["lang"], "en", "{edited}");
    // A post likewise, and its edit in another language files it again.
    let post = |title: &str, content: &str| {
        json!({ "title": title, "content": content,
        "tags": [], "tokens": [], "images": [] })
    };
    let made = app
        .call_as(
            "/post/create",
            post(
                "스테이킹 수익 정리",
                "이번 주 디파이 프로토콜의 이자율을 정리해 보았습니다",
            ),
            "en",
            Some(token),
        )
        .await;
    let id = made["id"].clone();
    let lang = || async {
        app.call_as("/feed/detail", json!({ "id": id }), "en", None)
            .await["lang"]
            .clone()
    };
    assert_eq!(lang().await, "ko");
    let mut changed = post(
        "Staking yields this week",
        "I went through the interest rates of the main lending protocols this week",
    );
    changed["id"] = id.clone();
    app.call_as("/post/edit", changed, "ko", Some(token)).await;
    assert_eq!(lang().await, "en");
}

async fn a_machine_translation_brings_an_item_into_its_story(backend: Backend) {
    let api = TranslateApi::start().await;
    let app = start(backend, &api, 100_000).await;
    let now = app.state.now();
    let (title, summary) = (
        "Hackers drain a lending protocol after an oracle bug",
        "The attackers took funds from the lending pool through a faulty price oracle.",
    );
    let flash = |slug: &str, lang: &str, title: &str, summary: &str, ago: i64| {
        app.publish(
            json!({ "source_url": format!("https://news.test/{slug}"), "kind": "flash",
            "lang": lang, "title": title, "summary": summary, "published_at": now - ago }),
        )
    };
    let english = flash("drain-en", "en", title, summary, 600).await;
    let (ko_title, ko_summary) = (
        "오라클 버그로 대출 프로토콜 해킹 피해",
        "공격자가 잘못된 가격 오라클을 통해 대출 풀의 자금을 탈취했다.",
    );
    let korean = flash("drain-ko", "ko", ko_title, ko_summary, 300).await;
    let story = |id: i64| {
        let app = &app;
        async move {
            let item = app
                .call_as("/feed/detail", json!({ "id": id }), "en", None)
                .await;
            item["story"].clone()
        }
    };
    // Nothing in common that grouping can see across the two scripts.
    assert_eq!(
        (story(english).await, story(korean).await),
        (Value::Null, Value::Null)
    );
    api.teach(ko_title, "en", title);
    api.teach(ko_summary, "en", summary);
    translate_all(&app, &translator(&app)).await;
    let (a, b) = (story(english).await, story(korean).await);
    assert_eq!(a["size"], 2, "{a}");
    assert_eq!((&a["id"], &a["first_lang"]), (&b["id"], &json!("en")));
}

on_both_databases!(
    readers_texts_are_filed_under_the_language_they_are_written_in,
    items_are_translated_once_and_shown_beside_their_original,
    a_failing_service_or_a_spent_budget_leaves_the_originals,
    readers_texts_are_translated_and_shown_beside_their_original,
    a_machine_translation_brings_an_item_into_its_story,
);
