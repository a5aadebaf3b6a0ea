//! The Telegram and LINE bots against local fakes of their APIs: commands through the webhook
//! and through polling, delivery of new items with the platforms' limits and error answers,
//! account linking, digests, muted words, several servers, and the operators' status.

use std::time::Duration;

use clap::Parser;

use serde_json::{Value, json};
use server::bots::sender::{Limits, send_round};
use server::bots::{Platform, telegram};
use server::config::Config;

use crate::common::bot_apis::*;
use crate::common::{Backend, START, TestApp};

const ADMIN: &str = "admin-token-for-tests-0123456789";
const SECRET: &str = "telegram-webhook-secret";

fn telegram_config(fake: &FakeTelegram) -> impl FnOnce(&mut Config) + '_ {
    move |c: &mut Config| {
        c.admin_token = Some(ADMIN.to_owned());
        c.telegram_bot_token = Some(BOT_TOKEN.to_owned());
        c.telegram_api_url = fake.url.clone();
        c.telegram_webhook_secret = Some(SECRET.to_owned());
        c.public_url = "https://blockbrief.test".to_owned();
        // The manual clock stands still: the reply budgets are the test's own to try.
        c.telegram_replies_per_second = 1000;
        c.telegram_replies_per_chat_minute = 1000;
    }
}

async fn webhook(app: &TestApp, secret: Option<&str>, body: &str) -> u16 {
    let mut req = app
        .http
        .post(format!("{}/webhooks/telegram", app.base))
        .header("content-type", "application/json")
        .body(body.to_owned());
    if let Some(s) = secret {
        req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
    }
    req.send().await.expect("webhook").status().as_u16()
}

async fn update(app: &TestApp, update: Value) {
    assert_eq!(webhook(app, Some(SECRET), &update.to_string()).await, 200);
}

/// Publishes an item through the admin API; returns its id.
async fn publish(app: &TestApp, item: Value) -> i64 {
    let mut item = item;
    if item.get("published_at").is_none() {
        item["published_at"] = json!(app.state.now());
    }
    item["kind"] = item.get("kind").cloned().unwrap_or(json!("flash"));
    item["lang"] = item.get("lang").cloned().unwrap_or(json!("en"));
    let (status, body) = app
        .post_with("/admin/feed/upsert", item, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["id"].as_i64().expect("id")
}

/// Tags and tokens exist once an item names them; this one is too old to be pushed.
async fn seed_catalogue(app: &TestApp) {
    publish(
        app,
        json!({
            "source_url": "https://news.test/seed", "title": "Seed", "published_at": START - 3 * 86_400,
            "tags": ["bitcoin", "defi"], "tokens": ["ETH", "BTC"]
        }),
    )
    .await;
}

async fn round(app: &TestApp, platform: Platform, limits: &Limits) -> usize {
    send_round(&app.state, &app.state.bots, platform, limits)
        .await
        .expect("send round")
}

/// Runs send rounds until nothing more is sent.
async fn drain(app: &TestApp, platform: Platform) -> usize {
    let limits = Limits::of(platform);
    let mut total = 0;
    for _ in 0..20 {
        let sent = round(app, platform, &limits).await;
        total += sent;
        if sent == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
    total
}

async fn telegram_commands_and_delivery(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    seed_catalogue(&app).await;

    // Without the secret, or with a wrong one: 401 and nothing stored or sent.
    let start = private_text(1, 501, "vi", "/start").to_string();
    assert_eq!(webhook(&app, None, &start).await, 401);
    assert_eq!(webhook(&app, Some("wrong"), &start).await, 401);
    assert!(fake.sent().is_empty());

    update(&app, private_text(2, 501, "vi", "/start")).await;
    let welcome = fake.sent_to("501");
    assert_eq!(welcome.len(), 1);
    assert!(welcome[0].text.contains("Chào mừng"), "{}", welcome[0].text);
    assert!(welcome[0].buttons.contains(&"sub important".to_owned()));
    assert!(welcome[0].buttons.iter().all(|b| b.len() <= 64));

    update(&app, private_text(3, 501, "vi", "/lang en")).await;
    update(
        &app,
        private_text(4, 501, "en", "/sub bitcoin $ETH important"),
    )
    .await;
    let answer = fake.sent_to("501").pop().expect("answer").text;
    assert!(
        answer.contains("bitcoin") && answer.contains("$ETH") && answer.contains("important"),
        "{answer}"
    );

    // An unknown target names the closest matches and subscribes nothing.
    update(&app, private_text(5, 501, "en", "/sub bitcoi important")).await;
    let answer = fake.sent_to("501").pop().expect("answer").text;
    assert!(
        answer.contains("bitcoi") && answer.contains("bitcoin"),
        "{answer}"
    );
    update(&app, private_text(6, 501, "en", "/list")).await;
    let list = fake.sent_to("501").pop().expect("list").text;
    assert_eq!(list, "This chat receives: bitcoin, $ETH, important.");

    // Unknown commands are answered; plain talk and other bots' commands are not.
    tokio::time::sleep(Duration::from_millis(1100)).await; // Telegram's limit on one chat.
    let before = fake.sent_to("501").len();
    update(&app, private_text(7, 501, "en", "/frobnicate")).await;
    update(&app, private_text(8, 501, "en", "hello there")).await;
    update(&app, private_text(9, 501, "en", "/sub@OtherBot bitcoin")).await;
    let after = fake.sent_to("501");
    assert_eq!(after.len(), before + 1);
    assert!(after[before].text.contains("/help"));

    // The answers above used the chat's burst at Telegram; it refills at one a second.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    fake.clear();
    let tagged = publish(
        &app,
        json!({
            "source_url": "https://news.test/1", "title": "Bitcoin <b>breaks</b> 1 < 2 & runs",
            "summary": "A summary", "tags": ["bitcoin"],
            "translations": { "vi": { "title": "Bitcoin bứt phá" } }
        }),
    )
    .await;
    let by_token = publish(
        &app,
        json!({ "source_url": "https://news.test/2", "title": "Ether moves", "tokens": ["ETH"] }),
    )
    .await;
    publish(
        &app,
        json!({ "source_url": "https://news.test/3", "title": "Unrelated", "tags": ["defi"] }),
    )
    .await;
    let important = publish(&app, json!({ "source_url": "https://news.test/4", "title": "Big one", "important": true, "kind": "article" })).await;
    assert_eq!(drain(&app, Platform::Telegram).await, 3);
    let got = fake.sent_to("501");
    assert_eq!(got.len(), 3);
    assert!(got.iter().all(|m| m.html));
    assert_eq!(
        got[0].text,
        format!(
            "<b>Bitcoin breaks 1 &lt; 2 &amp; runs</b>\n\nA summary\n\n<a href=\"https://blockbrief.test/feed/{tagged}?from=telegram\">Read on Blockbrief</a>"
        )
    );
    assert!(got[1].text.contains(&format!("/feed/{by_token}?")));
    assert!(got[2].text.contains(&format!("/feed/{important}?")));
    // In order, and one a second at most to this chat.
    assert!(got[1].at.duration_since(got[0].at) >= Duration::from_millis(900));

    // An update of an item, a restart of the sender: nothing is sent again.
    publish(&app, json!({ "source_url": "https://news.test/1", "title": "Bitcoin breaks (updated)", "tags": ["bitcoin"] })).await;
    let beside = app.start_beside().await;
    assert_eq!(drain(&beside, Platform::Telegram).await, 0);
    assert_eq!(fake.sent_to("501").len(), 3);

    // The chat's language: Vietnamese gets the translation, and the link its locale.
    update(&app, private_text(10, 501, "en", "/lang vi")).await;
    fake.clear();
    let again = publish(
        &app,
        json!({
            "source_url": "https://news.test/5", "title": "Bitcoin again", "tags": ["bitcoin"],
            "translations": { "vi": { "title": "Lại là Bitcoin" } }
        }),
    )
    .await;
    drain(&app, Platform::Telegram).await;
    let got = fake.sent_to("501");
    assert_eq!(got.len(), 1);
    assert!(
        got[0].text.starts_with("<b>Lại là Bitcoin</b>"),
        "{}",
        got[0].text
    );
    assert!(got[0].text.contains(&format!(
        "https://blockbrief.test/vi/feed/{again}?from=telegram"
    )));
    assert_eq!(fake.too_many(), 0);
}

async fn telegram_error_answers(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    for (i, chat) in [601, 602, 603, 604].into_iter().enumerate() {
        update(&app, private_text(i as i64 + 1, chat, "en", "/sub news")).await;
    }
    fake.answer_chat("601", ChatAnswer::Blocked);
    fake.answer_chat("602", ChatAnswer::Migrated(-100_602));
    fake.answer_chat(
        "603",
        ChatAnswer::TooMany {
            retry_after: 2,
            times: 1,
        },
    );
    fake.answer_chat("604", ChatAnswer::Broken(1));
    fake.clear();
    let first = publish(
        &app,
        json!({ "source_url": "https://news.test/e1", "title": "First" }),
    )
    .await;
    let second = publish(
        &app,
        json!({ "source_url": "https://news.test/e2", "title": "Second" }),
    )
    .await;
    let limits = Limits::of(Platform::Telegram);
    round(&app, Platform::Telegram, &limits).await;
    // Blocked: paused, its queue dropped. Migrated: sent to the new id at once.
    let status = app
        .post_with("/admin/bots/status", json!({}), &[("X-ADMIN-TOKEN", ADMIN)])
        .await
        .1;
    let chats = status["data"]["chats"].as_array().expect("chats").clone();
    assert!(
        chats.contains(&json!({ "platform": "telegram", "state": "paused", "chats": 1 })),
        "{status}"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    round(&app, Platform::Telegram, &limits).await;
    assert_eq!(fake.sent_to("-100602").len(), 1);
    assert!(fake.sent_to("601").is_empty());
    // 429: the chat waits retry_after, its second item behind the first.
    assert!(fake.sent_to("603").is_empty());
    app.clock.advance(3);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    round(&app, Platform::Telegram, &limits).await;
    let third = fake.sent_to("603");
    assert!(
        third[0].text.contains(&format!("/feed/{first}?")),
        "{third:?}"
    );
    // 500: tried again with backoff.
    app.clock.advance(31);
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(1100)).await;
        round(&app, Platform::Telegram, &limits).await;
    }
    for chat in ["-100602", "603", "604"] {
        let got = fake.sent_to(chat);
        assert_eq!(got.len(), 2, "{chat}: {got:?}");
        assert!(got[0].text.contains(&format!("/feed/{first}?")));
        assert!(got[1].text.contains(&format!("/feed/{second}?")));
    }
    // /start resumes a paused chat.
    fake.answer_chat("601", ChatAnswer::Broken(0));
    update(&app, private_text(20, 601, "en", "/start")).await;
    publish(
        &app,
        json!({ "source_url": "https://news.test/e3", "title": "Third" }),
    )
    .await;
    round(&app, Platform::Telegram, &limits).await;
    assert_eq!(fake.sent_to("601").len(), 2, "welcome and the third item");
    let status = app
        .post_with("/admin/bots/status", json!({}), &[("X-ADMIN-TOKEN", ADMIN)])
        .await
        .1;
    assert_eq!(
        status["data"]["last_errors"][0]["platform"], "telegram",
        "{status}"
    );
}

async fn telegram_groups_and_topics(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    seed_catalogue(&app).await;
    let group = -100_700;
    fake.make_admin(group, 71);
    update(&app, group_text(1, group, 72, None, "/sub bitcoin")).await;
    assert!(fake.sent_to("-100700")[0].text.contains("administrators"));
    update(&app, group_text(2, group, 72, None, "/list")).await;
    assert!(fake.sent_to("-100700")[1].text.contains("no subscriptions"));
    update(
        &app,
        group_text(
            3,
            group,
            71,
            Some(9),
            &format!("/sub@{BOT_USERNAME} bitcoin"),
        ),
    )
    .await;
    let answer = fake.sent_to("-100700").pop().expect("answer");
    assert_eq!(answer.thread_id, Some(9));
    fake.clear();
    publish(
        &app,
        json!({ "source_url": "https://news.test/g1", "title": "Topic news", "tags": ["bitcoin"] }),
    )
    .await;
    drain(&app, Platform::Telegram).await;
    let got = fake.sent_to("-100700");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].thread_id, Some(9));

    // Removed from the group: paused, nothing more queued; added again: resumed.
    let member = |id: i64, status: &str| {
        json!({ "update_id": id, "my_chat_member": {
            "chat": { "id": group, "type": "supergroup" }, "date": 0,
            "from": { "id": 71, "is_bot": false, "first_name": "A" },
            "old_chat_member": { "status": "member", "user": { "id": 1, "is_bot": true, "first_name": "B" } },
            "new_chat_member": { "status": status, "user": { "id": 1, "is_bot": true, "first_name": "B" } }
        }})
    };
    update(&app, member(4, "kicked")).await;
    publish(
        &app,
        json!({ "source_url": "https://news.test/g2", "title": "While away", "tags": ["bitcoin"] }),
    )
    .await;
    update(&app, member(5, "member")).await;
    publish(
        &app,
        json!({ "source_url": "https://news.test/g3", "title": "Back", "tags": ["bitcoin"] }),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    drain(&app, Platform::Telegram).await;
    let got = fake.sent_to("-100700");
    assert_eq!(got.len(), 2);
    assert!(got[1].text.contains("Back"));

    // Callback data that is not ours does nothing; ours runs its command.
    let callback = |id: i64, data: &str| {
        json!({ "update_id": id, "callback_query": {
            "id": format!("q{id}"), "chat_instance": "x", "data": data,
            "from": { "id": 71, "is_bot": false, "first_name": "A", "language_code": "ko" },
            "message": { "message_id": 1, "date": 0, "chat": { "id": group, "type": "supergroup" } }
        }})
    };
    fake.clear();
    update(&app, callback(6, "\u{0}not ours at all")).await;
    assert!(fake.sent().is_empty());
    update(&app, callback(7, "sub important")).await;
    assert_eq!(fake.calls("answerCallbackQuery").len(), 2);
    assert!(fake.sent_to("-100700")[0].text.contains("important"));
}

async fn telegram_bad_updates(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    update(&app, private_text(1, 801, "en", "/sub news")).await;
    let id = publish(
        &app,
        json!({ "source_url": "https://news.test/b1", "title": "Queued" }),
    )
    .await;
    let long = format!("/sub {}", "a".repeat(5000));
    for body in [
        "not json".to_owned(),
        "{}".to_owned(),
        json!({ "update_id": "x" }).to_string(),
        json!({ "update_id": 5, "message": { "chat": "nope" } }).to_string(),
        private_text(6, 802, "en", &long).to_string(),
        json!({ "update_id": 7, "edited_message": { "text": "/sub news" } }).to_string(),
    ] {
        assert_eq!(webhook(&app, Some(SECRET), &body).await, 200, "{body}");
    }
    // A flood of updates: every one answered, nothing queued lost.
    let mut flood = Vec::new();
    for i in 0..200 {
        let body = private_text(100 + i, 900 + i, "en", "/help").to_string();
        let app = &app;
        flood.push(async move { webhook(app, Some(SECRET), &body).await });
    }
    let answers = futures_util::future::join_all(flood).await;
    assert!(answers.iter().all(|s| *s == 200));
    // The flood's answers used Telegram's budget: the item waits its retry_after, then goes.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    app.clock.advance(2);
    drain(&app, Platform::Telegram).await;
    assert!(
        fake.sent_to("801")
            .iter()
            .any(|m| m.text.contains(&format!("/feed/{id}?")))
    );
    assert!(
        fake.sent_to("802")
            .pop()
            .expect("answer")
            .text
            .contains("too long")
    );
}

async fn telegram_polling_lease(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, |c| {
        telegram_config(&fake)(c);
        c.telegram_webhook_secret = None;
    })
    .await;
    // Without a secret the webhook is not there.
    assert_eq!(webhook(&app, Some(SECRET), "{}").await, 404);
    let other = app.start_beside().await;
    fake.push_update(private_text(10, 1001, "ko", "/start"));
    fake.push_update(private_text(11, 1001, "ko", "/sub news"));
    assert_eq!(
        telegram::poll_once(&app.state, &app.state.bots, 0)
            .await
            .expect("poll"),
        Some(2)
    );
    // The other server does not poll while the lease runs.
    assert_eq!(
        telegram::poll_once(&other.state, &other.state.bots, 0)
            .await
            .expect("poll"),
        None
    );
    assert_eq!(fake.calls("getUpdates").last().expect("call")["offset"], 0);
    assert_eq!(
        telegram::poll_once(&app.state, &app.state.bots, 0)
            .await
            .expect("poll"),
        Some(0)
    );
    assert_eq!(fake.calls("getUpdates").last().expect("call")["offset"], 12);
    assert!(fake.sent_to("1001")[0].text.contains("환영"));
    // The polling server dies: within 30 s the other takes over from the stored offset.
    fake.push_update(private_text(12, 1001, "ko", "/list"));
    other.clock.advance(telegram::POLL_LEASE_SECONDS + 1);
    assert_eq!(
        telegram::poll_once(&other.state, &other.state.bots, 0)
            .await
            .expect("poll"),
        Some(1)
    );
    assert_eq!(fake.calls("getUpdates").last().expect("call")["offset"], 12);
    assert_eq!(fake.sent_to("1001").len(), 3);
}

async fn two_servers_send_each_item_once(backend: Backend) {
    if backend == Backend::Sqlite {
        return; // Several servers share PostgreSQL; a SQLite file has one server.
    }
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    let other = app.start_beside().await;
    for chat in 0..20 {
        update(&app, private_text(chat + 1, 2000 + chat, "en", "/sub news")).await;
    }
    fake.clear();
    for i in 0..3 {
        publish(&app, json!({ "source_url": format!("https://news.test/t{i}"), "title": format!("Item {i}") })).await;
    }
    // Both servers try at once, each as if it held the lease: the claims still send each once.
    let limits_a = Limits::of(Platform::Telegram);
    let limits_b = Limits::of(Platform::Telegram);
    for _ in 0..5 {
        let (a, b) = tokio::join!(
            send_round(&app.state, &app.state.bots, Platform::Telegram, &limits_a),
            send_round(
                &other.state,
                &other.state.bots,
                Platform::Telegram,
                &limits_b
            )
        );
        a.expect("a");
        b.expect("b");
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
    for chat in 0..20 {
        let got = fake.sent_to(&(2000 + chat).to_string());
        assert_eq!(got.len(), 3, "chat {chat}: {got:?}");
    }
}

async fn line_webhook_and_push(backend: Backend) {
    let fake = FakeLine::start().await;
    let app = TestApp::start_with(backend, |c| {
        c.admin_token = Some(ADMIN.to_owned());
        c.line_channel_secret = Some(LINE_SECRET.to_owned());
        c.line_channel_access_token = Some(LINE_TOKEN.to_owned());
        c.line_api_url = fake.url.clone();
        c.public_url = "https://blockbrief.test".to_owned();
    })
    .await;
    seed_catalogue(&app).await;
    let post = |body: String, signature: Option<String>| {
        let mut req = app
            .http
            .post(format!("{}/webhooks/line", app.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(s) = signature {
            req = req.header("X-Line-Signature", s);
        }
        async move { req.send().await.expect("line").status().as_u16() }
    };
    let event = |kind: &str, extra: Value| {
        let mut e = json!({ "type": kind, "timestamp": 0, "mode": "active", "webhookEventId": "x",
            "source": { "type": "user", "userId": "U1" }, "replyToken": format!("r-{kind}") });
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            e[k] = v;
        }
        e
    };
    let follow = json!({ "destination": "x", "events": [event("follow", json!({}))] }).to_string();
    assert_eq!(post(follow.clone(), None).await, 401);
    assert_eq!(post(follow.clone(), Some("AAAA".to_owned())).await, 401);
    assert!(fake.replies().is_empty());
    let empty = json!({ "destination": "x", "events": [] }).to_string();
    assert_eq!(
        post(empty.clone(), Some(line_signature(empty.as_bytes()))).await,
        200
    );
    assert_eq!(
        post("nope".to_owned(), Some(line_signature(b"nope"))).await,
        400
    );

    fake.set_language("U1", "zh-TW");
    assert_eq!(
        post(follow.clone(), Some(line_signature(follow.as_bytes()))).await,
        200
    );
    let reply = &fake.replies()[0];
    assert_eq!(reply["replyToken"], "r-follow");
    assert!(
        reply["messages"][0]["text"]
            .as_str()
            .expect("text")
            .contains("歡迎")
    );
    assert!(
        reply["messages"][0]["quickReply"]["items"]
            .as_array()
            .expect("items")
            .len()
            >= 3
    );

    let sub = json!({ "events": [event("message", json!({ "message": { "type": "text", "id": "1", "text": "sub bitcoin" } }))] }).to_string();
    assert_eq!(
        post(sub.clone(), Some(line_signature(sub.as_bytes()))).await,
        200
    );
    assert!(
        fake.replies()[1]["messages"][0]["text"]
            .as_str()
            .expect("text")
            .contains("bitcoin")
    );
    let postback = json!({ "events": [event("postback", json!({ "postback": { "data": "sub important" } }))] }).to_string();
    assert_eq!(
        post(postback.clone(), Some(line_signature(postback.as_bytes()))).await,
        200
    );

    // A push that LINE accepted but answered 500 is sent again with the same key: shown once.
    fake.fail_pushes(1);
    let id = publish(
        &app,
        json!({ "source_url": "https://news.test/l1", "title": "LINE news", "tags": ["bitcoin"] }),
    )
    .await;
    let limits = Limits::of(Platform::Line);
    round(&app, Platform::Line, &limits).await;
    app.clock.advance(31);
    round(&app, Platform::Line, &limits).await;
    let pushes = fake.pushes();
    assert_eq!(pushes.len(), 1, "{pushes:?}");
    assert_eq!(pushes[0].0, "U1");
    assert!(pushes[0].1.contains(&format!(
        "https://blockbrief.test/zh-Hant/feed/{id}?from=line"
    )));
    assert_eq!(pushes[0].2.len(), 36);
    let status = app
        .post_with("/admin/bots/status", json!({}), &[("X-ADMIN-TOKEN", ADMIN)])
        .await
        .1;
    assert_eq!(status["data"]["queue"][0]["queued"], 0, "{status}");

    // Unfollow pauses: nothing more is pushed.
    let unfollow = json!({ "events": [event("unfollow", json!({}))] }).to_string();
    assert_eq!(
        post(unfollow.clone(), Some(line_signature(unfollow.as_bytes()))).await,
        200
    );
    publish(
        &app,
        json!({ "source_url": "https://news.test/l2", "title": "After", "tags": ["bitcoin"] }),
    )
    .await;
    round(&app, Platform::Line, &limits).await;
    assert_eq!(fake.pushes().len(), 1);
}

async fn account_link_and_following(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    seed_catalogue(&app).await;
    let session = app.sign_in("linker@example.com").await;
    let token = session["token"].as_str().expect("token").to_owned();
    let auth = [("X-TOKEN", token.as_str())];
    let (_, link) = app.post_with("/bot/telegram/link", json!({}), &auth).await;
    let url = link["data"]["url"].as_str().expect("url").to_owned();
    let prefix = format!("https://t.me/{BOT_USERNAME}?start=");
    assert!(url.starts_with(&prefix), "{url}");
    let code = &url[prefix.len()..];
    assert!(code.len() >= 22, "at least 128 bits");

    // A visitor cannot make a code.
    let (status, _) = app.post("/bot/telegram/link", json!({})).await;
    assert_eq!(status, 401);

    update(&app, private_text(1, 1101, "en", "/sub following")).await;
    assert!(fake.sent_to("1101")[0].text.contains("Connect Telegram"));
    // Opening the link only asks: whoever made the code could have handed its link to anyone.
    update(&app, private_text(2, 1101, "en", &format!("/start {code}"))).await;
    let asked = &fake.sent_to("1101")[1];
    let nickname = session["nickname"].as_str().expect("nickname");
    assert!(
        asked.text.contains("Link this chat") && asked.text.contains(nickname),
        "{}",
        asked.text
    );
    assert!(
        asked.buttons.contains(&format!("link {code}")),
        "{:?}",
        asked.buttons
    );
    let linked_to = async || {
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
        server::entity::bot_chat::Entity::find()
            .filter(server::entity::bot_chat::Column::ChatRef.eq("1101"))
            .one(&app.state.db)
            .await
            .expect("db")
            .expect("chat")
            .user_id
    };
    assert_eq!(
        linked_to().await,
        None,
        "not linked before the chat confirms"
    );
    let press = json!({ "update_id": 20, "callback_query": {
        "id": "q20", "chat_instance": "x", "data": format!("link {code}"),
        "from": { "id": 1101, "is_bot": false, "first_name": "A", "language_code": "en" },
        "message": { "message_id": 1, "date": 0, "chat": { "id": 1101, "type": "private" } }
    }});
    update(&app, press).await;
    assert!(fake.sent_to("1101")[2].text.contains("linked"));
    assert_eq!(linked_to().await, session["id"].as_i64());
    // Single use.
    update(&app, private_text(3, 1102, "en", &format!("/start {code}"))).await;
    assert!(fake.sent_to("1102")[0].text.contains("expired or was used"));
    let (_, tasks) = app
        .post_with("/point/task/list", json!({ "group": "novice" }), &auth)
        .await;
    let join = tasks["data"]["list"]
        .as_array()
        .expect("tasks")
        .iter()
        .find(|t| t["event_type"] == "join_community")
        .cloned()
        .expect("join_community");
    assert_eq!(join["status"], "to_receive", "{join}");

    // Following: the account's tags, kept in step as it follows.
    update(&app, private_text(4, 1101, "en", "/sub following")).await;
    let (_, tag) = app.post("/tag/detail", json!({ "code": "defi" })).await;
    let tag_id = tag["data"]["id"].as_i64().expect("tag id");
    app.post_with("/tag/follow/add", json!({ "tag_id": tag_id }), &auth)
        .await;
    fake.clear();
    publish(
        &app,
        json!({ "source_url": "https://news.test/f1", "title": "Followed tag", "tags": ["defi"] }),
    )
    .await;
    publish(&app, json!({ "source_url": "https://news.test/f2", "title": "Not followed", "tags": ["bitcoin"] })).await;
    drain(&app, Platform::Telegram).await;
    let got = fake.sent_to("1101");
    assert_eq!(got.len(), 1);
    assert!(got[0].text.contains("Followed tag"));

    // A linked chat gets only what is written in, or translated into, the account's languages.
    let (_, set) = app
        .post_with("/user/settings", json!({ "read_langs": ["ko"] }), &auth)
        .await;
    assert_eq!(set["data"]["read_langs"], json!(["ko"]), "{set}");
    fake.clear();
    publish(
        &app,
        json!({ "source_url": "https://news.test/f3", "lang": "vi",
        "title": "Tin tiếng Việt", "tags": ["defi"] }),
    )
    .await;
    publish(
        &app,
        json!({ "source_url": "https://news.test/f4", "lang": "vi",
        "title": "Tin có bản dịch", "tags": ["defi"],
        "translations": { "ko": { "title": "번역된 소식" } } }),
    )
    .await;
    drain(&app, Platform::Telegram).await;
    let got = fake.sent_to("1101");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].text.contains("Tin có bản dịch"), "{got:?}");

    let (_, chats) = app.post_with("/bot/chat/list", json!({}), &auth).await;
    let chat_id = chats["data"]["list"][0]["id"].as_i64().expect("chat");
    let (_, refused) = app
        .post_with("/bot/chat/unlink", json!({ "id": chat_id + 1000 }), &auth)
        .await;
    assert_eq!(refused["code"], 4040);
    let (_, done) = app
        .post_with("/bot/chat/unlink", json!({ "id": chat_id }), &auth)
        .await;
    assert_eq!(done["code"], 2000);
    let (_, chats) = app.post_with("/bot/chat/list", json!({}), &auth).await;
    assert_eq!(chats["data"]["list"], json!([]));
}

async fn digests_and_muted_words(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    update(&app, private_text(1, 1201, "en", "/sub news")).await;
    update(&app, private_text(2, 1201, "en", "/mute Scam")).await;
    update(&app, private_text(3, 1202, "en", "/sub news")).await;
    update(&app, private_text(4, 1202, "en", "/digest hourly")).await;
    fake.clear();
    publish(
        &app,
        json!({ "source_url": "https://news.test/m1", "title": "Fine news" }),
    )
    .await;
    publish(
        &app,
        json!({ "source_url": "https://news.test/m2", "title": "Another",
        "translations": { "ko": { "title": "스캠 SCAM 경보" } } }),
    )
    .await;
    drain(&app, Platform::Telegram).await;
    let muted = fake.sent_to("1201");
    assert_eq!(
        muted.len(),
        1,
        "the muted word is in a translation: {muted:?}"
    );
    assert!(
        fake.sent_to("1202").is_empty(),
        "the digest waits for its hour"
    );
    app.clock.advance(3601);
    drain(&app, Platform::Telegram).await;
    let digest = fake.sent_to("1202");
    assert_eq!(digest.len(), 1);
    assert!(
        digest[0].text.contains("2 new items")
            && digest[0].text.contains("Fine news")
            && digest[0].text.contains("Another"),
        "{}",
        digest[0].text
    );
    drain(&app, Platform::Telegram).await;
    assert_eq!(fake.sent_to("1202").len(), 1);
}

/// Telegram's limits are per chat: a forum's topics (a row each) share their group's. And chats
/// waiting out a retry do not take a round's places from the chats that are due.
async fn limits_hold_per_chat_and_deferred_chats_wait_aside(backend: Backend) {
    use sea_orm::{ActiveModelTrait, Set};
    use server::entity::{bot_chat, bot_delivery};
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    seed_catalogue(&app).await;
    // Three hundred chats (a round's worth) whose oldest delivery waits an hour for a retry.
    let waiting_on = publish(
        &app,
        json!({ "source_url": "https://news.test/w", "title": "W" }),
    )
    .await;
    let now = app.state.now();
    for n in 0..300 {
        let chat = bot_chat::ActiveModel {
            platform: Set("telegram".into()),
            chat_ref: Set(format!("{}", 900_000 + n)),
            thread_id: Set(0),
            kind: Set("private".into()),
            locale: Set("en".into()),
            state: Set("active".into()),
            digest: Set("off".into()),
            digest_at: Set(now),
            muted: Set("[]".into()),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&app.state.db)
        .await
        .expect("chat");
        bot_delivery::ActiveModel {
            chat_id: Set(chat.id),
            feed_id: Set(waiting_on),
            state: Set("queued".into()),
            created_at: Set(now),
            due_at: Set(now + 3600),
            attempts: Set(1),
            ..Default::default()
        }
        .insert(&app.state.db)
        .await
        .expect("delivery");
    }
    // A forum with two topics subscribed, and a private chat.
    let group = -100_800;
    fake.make_admin(group, 71);
    for (id, topic) in [(1, 9), (2, 10)] {
        update(&app, group_text(id, group, 71, Some(topic), "/sub bitcoin")).await;
    }
    update(&app, private_text(3, 502, "en", "/sub bitcoin")).await;
    fake.clear();
    publish(
        &app,
        json!({ "source_url": "https://news.test/t", "title": "Topics", "tags": ["bitcoin"] }),
    )
    .await;
    let limits = Limits::of(Platform::Telegram);
    assert_eq!(
        round(&app, Platform::Telegram, &limits).await,
        2,
        "one topic and the private chat"
    );
    assert_eq!(
        fake.sent_to("-100800").len(),
        1,
        "one message a round to one chat"
    );
    assert_eq!(
        fake.sent_to("502").len(),
        1,
        "due, though 300 older chats wait"
    );
    tokio::time::sleep(Duration::from_millis(3100)).await;
    assert_eq!(round(&app, Platform::Telegram, &limits).await, 1);
    assert_eq!(
        fake.sent_to("-100800").len(),
        2,
        "the other topic, once the group's limit allows"
    );
}

/// A channel's readers see the bot's buttons but cannot steer it: only its administrators'
/// presses count, and a reader's press says nothing in the channel.
async fn only_a_channel_s_administrators_steer_it(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    seed_catalogue(&app).await;
    let channel = -100_900;
    let post = json!({ "update_id": 1, "channel_post": {
        "message_id": 1, "date": 0, "text": "/start",
        "chat": { "id": channel, "type": "channel", "title": "News" },
        "sender_chat": { "id": channel, "type": "channel", "title": "News" }
    }});
    update(&app, post).await;
    let welcome = fake.sent_to("-100900");
    assert!(
        welcome[0].buttons.contains(&"sub news".to_owned()),
        "{:?}",
        welcome[0].buttons
    );
    let press = |id: i64, user: i64| {
        json!({ "update_id": id, "callback_query": {
            "id": format!("q{id}"), "chat_instance": "x", "data": "sub news",
            "from": { "id": user, "is_bot": false, "first_name": "R" },
            "message": { "message_id": 1, "date": 0, "chat": { "id": channel, "type": "channel" } }
        }})
    };
    let subscriptions = async || {
        use sea_orm::{EntityTrait, PaginatorTrait};
        server::entity::bot_subscription::Entity::find()
            .count(&app.state.db)
            .await
            .expect("count")
    };
    fake.clear();
    update(&app, press(2, 81)).await;
    assert_eq!(subscriptions().await, 0, "a reader's press changes nothing");
    assert!(
        fake.sent_to("-100900").is_empty(),
        "and says nothing in the channel"
    );
    fake.make_admin(channel, 80);
    update(&app, press(3, 80)).await;
    assert_eq!(
        subscriptions().await,
        1,
        "an administrator's press subscribes"
    );
    assert!(fake.sent_to("-100900")[0].text.contains("news"));
}

/// Command replies share Telegram's limits with the news: one chat is heard ten times a minute,
/// and replies on every server together stay within their share a second.
async fn a_flood_of_commands_loses_its_own_answers(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let defaults = Config::parse_from(["blockbrief"]);
    let app = TestApp::start_with(backend, |c| {
        telegram_config(&fake)(c);
        c.telegram_replies_per_second = defaults.telegram_replies_per_second;
        c.telegram_replies_per_chat_minute = defaults.telegram_replies_per_chat_minute;
    })
    .await;
    // On PostgreSQL a second server shares the budgets; on SQLite there is one server.
    let beside = match backend {
        Backend::Postgres => Some(app.start_beside().await),
        Backend::Sqlite => None,
    };
    let tick = || {
        app.clock.advance(1);
        if let Some(beside) = &beside {
            beside.clock.advance(1);
        }
    };
    for n in 0..15 {
        update(&app, private_text(n, 601, "en", "/help")).await;
    }
    assert_eq!(
        fake.sent_to("601").len(),
        5,
        "the second's share, for all chats"
    );
    tick();
    // The chat asked ten times this minute (its budget counts asking, answered or not).
    update(&app, private_text(15, 601, "en", "/help")).await;
    assert_eq!(fake.sent_to("601").len(), 5, "ten a minute from one chat");
    for _ in 0..60 {
        tick();
    }
    // (The local Telegram holds to its own one message a second to a chat, in real time.)
    tokio::time::sleep(Duration::from_millis(1100)).await;
    update(&app, private_text(16, 601, "en", "/help")).await;
    assert_eq!(
        fake.sent_to("601").len(),
        6,
        "a minute later it is answered again"
    );
    tick();
    // Other chats still get answers, through either server, five a second in all.
    let other = beside.as_ref().unwrap_or(&app);
    for n in 30..35 {
        update(other, private_text(n, 600 + n, "en", "/help")).await;
        assert_eq!(fake.sent_to(&(600 + n).to_string()).len(), 1);
    }
    update(&app, private_text(35, 699, "en", "/help")).await;
    assert!(
        fake.sent_to("699").is_empty(),
        "five a second, on every server together"
    );
}

on_both_databases!(
    a_flood_of_commands_loses_its_own_answers,
    only_a_channel_s_administrators_steer_it,
    limits_hold_per_chat_and_deferred_chats_wait_aside,
    telegram_commands_and_delivery,
    telegram_error_answers,
    telegram_groups_and_topics,
    telegram_bad_updates,
    telegram_polling_lease,
    two_servers_send_each_item_once,
    line_webhook_and_push,
    account_link_and_following,
    digests_and_muted_words,
);

fn widget_hash(fields: &[(&str, String)], token: &str) -> String {
    use hmac::{Hmac, Mac};
    use sha2::{Digest, Sha256};
    let mut sorted: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    sorted.sort();
    let key = Sha256::digest(token.as_bytes());
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("key");
    mac.update(sorted.join("\n").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

fn mini_app_init_data(user_json: &str, auth_date: i64, token: &str) -> String {
    use hmac::{Hmac, Mac};
    use sha2::Sha256;
    let fields = [
        ("auth_date", auth_date.to_string()),
        ("query_id", "AAH".to_owned()),
        ("user", user_json.to_owned()),
    ];
    let check: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut key = Hmac::<Sha256>::new_from_slice(b"WebAppData").expect("key");
    key.update(token.as_bytes());
    let key = key.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("key");
    mac.update(check.join("\n").as_bytes());
    let hash = hex::encode(mac.finalize().into_bytes());
    let encode = |s: &str| {
        percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
    };
    format!(
        "query_id=AAH&user={}&auth_date={auth_date}&hash={hash}",
        encode(user_json)
    )
}

async fn sign_in_with_telegram(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    let (_, start) = app.post("/user/login/telegram/start", json!({})).await;
    assert_eq!(start["data"]["bot_username"], BOT_USERNAME);
    let now = app.state.now();
    let widget = |auth_date: i64, token: &str| {
        let fields = vec![
            ("id", "777001".to_owned()),
            ("first_name", "Mai".to_owned()),
            ("username", "mai_reads".to_owned()),
            ("photo_url", "https://t.me/i/userpic/1.jpg".to_owned()),
            ("auth_date", auth_date.to_string()),
        ];
        let hash = widget_hash(&fields, token);
        let mut body = json!({ "hash": hash });
        for (k, v) in fields {
            body[k] = if k == "id" || k == "auth_date" {
                json!(v.parse::<i64>().expect("n"))
            } else {
                json!(v)
            };
        }
        body
    };
    let data = widget(now - 60, BOT_TOKEN);
    let (status, session) = app.post("/user/login/telegram", data.clone()).await;
    assert_eq!(status, 200, "{session}");
    let me = session["data"]["token"].as_str().expect("token").to_owned();
    let (_, accounts) = app
        .post_with("/user/account/list", json!({}), &[("X-TOKEN", me.as_str())])
        .await;
    assert_eq!(
        accounts["data"]["list"][0]["type"], "telegram",
        "{accounts}"
    );
    assert_eq!(accounts["data"]["list"][0]["name"], "Mai");
    let user_id = session["data"]["id"].clone();
    // The same data again: refused (each hash once).
    let (status, replay) = app.post("/user/login/telegram", data).await;
    assert_eq!(
        (status.as_u16(), replay["code"].as_i64()),
        (401, Some(401)),
        "{replay}"
    );
    // Stale, forged (another bot's token), tampered.
    let (status, _) = app
        .post("/user/login/telegram", widget(now - 25 * 3600, BOT_TOKEN))
        .await;
    assert_eq!(status, 401);
    let (status, _) = app
        .post("/user/login/telegram", widget(now - 30, "999:OTHER"))
        .await;
    assert_eq!(status, 401);
    let mut tampered = widget(now - 10, BOT_TOKEN);
    tampered["id"] = json!(1);
    let (status, _) = app.post("/user/login/telegram", tampered).await;
    assert_eq!(status, 401);
    let (_, bad) = app.post("/user/login/telegram", json!({ "id": 1 })).await;
    assert_eq!(bad["code"], 4001, "{bad}");
    let (_, bad) = app
        .post("/user/login/telegram", json!({ "init_data": 5 }))
        .await;
    assert_eq!(bad["code"], 4001, "{bad}");

    // A Mini App's initData: the same Telegram user, the same account.
    let init = mini_app_init_data(
        r#"{"id":777001,"first_name":"Mai","language_code":"vi"}"#,
        now - 5,
        BOT_TOKEN,
    );
    let (status, mini) = app
        .post("/user/login/telegram", json!({ "init_data": init }))
        .await;
    assert_eq!(status, 200, "{mini}");
    assert_eq!(mini["data"]["id"], user_id);

    // Bound to another account: refused while the first holds it; its accounts list it.
    let other = app.sign_in("binder@example.com").await;
    let token = other["token"].as_str().expect("token");
    let (_, bound) = app
        .post_with(
            "/user/account/bind/telegram",
            widget(now - 3, BOT_TOKEN),
            &[("X-TOKEN", token)],
        )
        .await;
    assert_ne!(bound["code"], 2000, "{bound}");
    let mut fresh = widget(now - 2, BOT_TOKEN);
    fresh["id"] = json!(888002);
    let fields: Vec<(&str, String)> = fresh
        .as_object()
        .expect("object")
        .iter()
        .filter(|(k, _)| *k != "hash")
        .map(|(k, v)| {
            (
                k.as_str(),
                v.as_str().map_or_else(|| v.to_string(), str::to_owned),
            )
        })
        .collect();
    fresh["hash"] = json!(widget_hash(&fields, BOT_TOKEN));
    let (_, bound) = app
        .post_with("/user/account/bind/telegram", fresh, &[("X-TOKEN", token)])
        .await;
    assert_eq!(bound["code"], 2000, "{bound}");
    assert_eq!(bound["data"]["type"], "telegram");
}

on_both_databases!(sign_in_with_telegram);

async fn guides_have_stable_names(backend: Backend) {
    let app = TestApp::start(backend).await;
    assert_eq!(
        server::bots::guides::ensure(&app.state, &app.state.linking)
            .await
            .expect("guides"),
        2
    );
    assert_eq!(
        server::bots::guides::ensure(&app.state, &app.state.linking)
            .await
            .expect("guides"),
        0
    );
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let go = |path: &str| {
        let url = format!("{}{path}", app.base);
        let http = http.clone();
        async move {
            let r = http.get(url).send().await.expect("get");
            (
                r.status().as_u16(),
                r.headers()
                    .get("location")
                    .map(|l| l.to_str().expect("ascii").to_owned()),
            )
        }
    };
    let (status, telegram) = go("/guides/telegram").await;
    assert_eq!(status, 303);
    let telegram = telegram.expect("location");
    assert!(telegram.starts_with("/feed/"), "{telegram}");
    let (_, line) = go("/vi/guides/line").await;
    let line = line.expect("location");
    assert!(
        line.starts_with("/vi/feed/") && !line.ends_with(&telegram[6..]),
        "{line}"
    );
    assert_eq!(go("/guides/nothing").await.0, 404);
    assert_eq!(go("/xx/guides/line").await.0, 404);
    // Each guide reads in every language.
    let id: i64 = telegram[6..].parse().expect("id");
    for (locale, marker) in [
        ("zh-Hans", "Telegram 机器人"),
        ("zh-Hant", "Telegram 機器人"),
        ("vi", "Bot Telegram"),
        ("ko", "텔레그램 봇"),
    ] {
        let (_, detail) = app
            .post_with(
                "/feed/detail",
                json!({ "id": id }),
                &[("Cookie", &format!("NEXT_LOCALE={locale}"))],
            )
            .await;
        let title = detail["data"]["title"].as_str().expect("title");
        assert!(title.contains(marker), "{locale}: {title}");
    }
}

on_both_databases!(guides_have_stable_names);

/// The server binary killed (`kill -9`) while it sends: restarted on the same database, it sends
/// what was left, and every chat gets every item (at most the one in flight at the kill twice).
async fn a_server_killed_while_sending_loses_nothing(backend: Backend) {
    use crate::common::binary::Binary;
    let fake = FakeTelegram::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let database = crate::common::database_url(backend, dir.path()).await;
    let env = [
        ("DATABASE_URL", database.as_str()),
        ("ADMIN_TOKEN", ADMIN),
        ("TELEGRAM_BOT_TOKEN", BOT_TOKEN),
        ("TELEGRAM_API_URL", fake.url.as_str()),
        ("TELEGRAM_WEBHOOK_SECRET", SECRET),
    ];
    let mut server = Binary::start(dir.path(), &env).await;
    let http = reqwest::Client::new();
    let chats: Vec<i64> = (0..5).map(|i| 3000 + i).collect();
    for (i, chat) in chats.iter().enumerate() {
        let update = private_text(i as i64 + 1, *chat, "en", "/sub news");
        let status = http
            .post(format!("{}/webhooks/telegram", server.base()))
            .header("X-Telegram-Bot-Api-Secret-Token", SECRET)
            .json(&update)
            .send()
            .await
            .expect("webhook")
            .status();
        assert_eq!(status, 200);
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("time")
        .as_secs();
    let mut ids = Vec::new();
    for i in 0..8 {
        let item = json!({ "source_url": format!("https://news.test/k{i}"), "title": format!("Kill item {i}"),
            "kind": "flash", "lang": "en", "published_at": now });
        let answer: Value = http
            .post(format!("{}/api/admin/feed/upsert", server.base()))
            .header("X-ADMIN-TOKEN", ADMIN)
            .json(&item)
            .send()
            .await
            .expect("publish")
            .json()
            .await
            .expect("json");
        ids.push(
            answer["data"]["id"]
                .as_i64()
                .unwrap_or_else(|| panic!("{answer}")),
        );
    }
    // One a second per chat: after about three seconds, some of each chat's items are out.
    fake.wait_for("3000", 3, Duration::from_secs(20)).await;
    server.kill();
    let before = fake.sent().len();
    assert!(before < 5 * 9, "killed mid-delivery ({before} sent)");
    let _restarted = Binary::start(dir.path(), &env).await;
    for chat in &chats {
        // About 40 s when the machine is idle (the in-flight claim runs out after 30 s, then one a
        // second per chat); the bound is generous because what is tested is that nothing is lost.
        let has_all = |got: &[crate::common::bot_apis::Sent]| {
            ids.iter()
                .all(|id| got.iter().any(|m| m.text.contains(&format!("/feed/{id}?"))))
        };
        let mut got = fake
            .wait_for(&chat.to_string(), 9, Duration::from_secs(150))
            .await;
        if !has_all(&got) {
            // The item in flight at the kill came twice, so nine messages are not yet all.
            got = fake
                .wait_for(&chat.to_string(), 10, Duration::from_secs(60))
                .await;
        }
        for id in &ids {
            let copies = got
                .iter()
                .filter(|m| m.text.contains(&format!("/feed/{id}?")))
                .count();
            assert!(
                (1..=2).contains(&copies),
                "chat {chat}, item {id}: {copies} copies"
            );
        }
        // In order, each item after the one before.
        let order: Vec<usize> = ids
            .iter()
            .map(|id| {
                got.iter()
                    .rposition(|m| m.text.contains(&format!("/feed/{id}?")))
                    .expect("sent")
            })
            .collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "chat {chat}: {order:?}"
        );
    }
}

on_both_databases!(a_server_killed_while_sending_loses_nothing);

async fn telegram_start_up_registers_the_webhook_and_menus(backend: Backend) {
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    telegram::spawn(app.state.ctx.clone(), app.state.bots.clone());
    for _ in 0..200 {
        if !fake.calls("setWebhook").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let hook = fake.calls("setWebhook");
    assert_eq!(hook.len(), 1);
    assert_eq!(hook[0]["url"], "https://blockbrief.test/webhooks/telegram");
    assert_eq!(hook[0]["secret_token"], SECRET);
    // One menu per language Telegram can name, and the default one in English.
    let menus = fake.calls("setMyCommands");
    let codes: Vec<Value> = menus.iter().map(|m| m["language_code"].clone()).collect();
    assert_eq!(codes, [Value::Null, json!("zh"), json!("vi"), json!("ko")]);
    assert_eq!(menus[0]["commands"][1]["command"], "sub");
    assert!(
        menus[3]["commands"][1]["description"]
            .as_str()
            .expect("text")
            .contains("구독")
    );
    assert!(
        fake.calls("getUpdates").is_empty(),
        "a webhook server does not poll"
    );
}

on_both_databases!(telegram_start_up_registers_the_webhook_and_menus);

/// Done deliveries are removed a week on (queued ones never), used or expired link codes, and
/// sign-in hashes once they are too old to be accepted again.
async fn cleanup_removes_what_the_bots_no_longer_need(backend: Backend) {
    use sea_orm::{EntityTrait, PaginatorTrait};
    use server::entity::{bot_delivery, bot_link_code, telegram_login};
    let fake = FakeTelegram::start().await;
    let app = TestApp::start_with(backend, telegram_config(&fake)).await;
    update(&app, private_text(1, 1301, "en", "/sub news")).await;
    update(&app, private_text(2, 1302, "en", "/sub news")).await;
    fake.answer_chat(
        "1302",
        ChatAnswer::TooMany {
            retry_after: 3600,
            times: 1,
        },
    );
    publish(
        &app,
        json!({ "source_url": "https://news.test/c1", "title": "Old news" }),
    )
    .await;
    drain(&app, Platform::Telegram).await;
    let session = app.sign_in("cleaner@example.com").await;
    let token = session["token"].as_str().expect("token");
    app.post_with("/bot/telegram/link", json!({}), &[("X-TOKEN", token)])
        .await;
    let hash_data = {
        let fields = vec![
            ("id", "5".to_owned()),
            ("auth_date", app.state.now().to_string()),
        ];
        let hash = widget_hash(&fields, BOT_TOKEN);
        json!({ "id": "5", "auth_date": app.state.now().to_string(), "hash": hash })
    };
    let (_, signed) = app.post("/user/login/telegram", hash_data).await;
    assert_eq!(signed["code"], 2000, "{signed}");
    let count = || async {
        (
            bot_delivery::Entity::find()
                .count(&app.state.db)
                .await
                .expect("count"),
            bot_link_code::Entity::find()
                .count(&app.state.db)
                .await
                .expect("count"),
            telegram_login::Entity::find()
                .count(&app.state.db)
                .await
                .expect("count"),
        )
    };
    assert_eq!(count().await, (2, 1, 1));
    app.clock.advance(25 * 3600);
    let removed = server::cleanup::run_once(&app.state, app.state.config.track_retention_days)
        .await
        .expect("cleanup");
    assert_eq!(
        (
            removed.bot_deliveries,
            removed.bot_link_codes,
            removed.telegram_logins
        ),
        (0, 1, 0)
    );
    app.clock.advance(6 * 86_400);
    let removed = server::cleanup::run_once(&app.state, app.state.config.track_retention_days)
        .await
        .expect("cleanup");
    // The sent one goes; the one still waiting on its retry_after stays.
    assert_eq!((removed.bot_deliveries, removed.telegram_logins), (1, 1));
    assert_eq!(count().await, (1, 0, 0));
}

on_both_databases!(cleanup_removes_what_the_bots_no_longer_need);

async fn line_groups_join_talk_and_leave(backend: Backend) {
    let fake = FakeLine::start().await;
    let app = TestApp::start_with(backend, |c| {
        c.line_channel_secret = Some(LINE_SECRET.to_owned());
        c.line_channel_access_token = Some(LINE_TOKEN.to_owned());
        c.line_api_url = fake.url.clone();
    })
    .await;
    let post_as = |user: &str, kind: &str, extra: Value| {
        let mut event = json!({ "type": kind, "timestamp": 0, "mode": "active",
            "source": { "type": "group", "groupId": "G1", "userId": user }, "replyToken": format!("r-{kind}") });
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            event[k] = v;
        }
        let body = json!({ "events": [event] }).to_string();
        let req = app
            .http
            .post(format!("{}/webhooks/line", app.base))
            .header("X-Line-Signature", line_signature(body.as_bytes()))
            .body(body);
        async move { req.send().await.expect("line").status().as_u16() }
    };
    let post = |kind: &str, extra: Value| post_as("U9", kind, extra);
    assert_eq!(post("join", json!({})).await, 200);
    assert!(
        fake.replies()[0]["messages"][0]["text"]
            .as_str()
            .expect("text")
            .contains("Welcome")
    );
    // The members' talk gets no answer; a command does.
    let text = |t: &str| json!({ "message": { "type": "text", "id": "1", "text": t } });
    assert_eq!(post("message", text("good morning all")).await, 200);
    assert_eq!(fake.replies().len(), 1);
    assert_eq!(post("message", text("/sub news")).await, 200);
    assert!(
        fake.replies()[1]["messages"][0]["text"]
            .as_str()
            .expect("text")
            .contains("news")
    );
    // U9 changed it first and steers it now: another member's change is refused, with a word.
    let subscriptions = async || {
        use sea_orm::{EntityTrait, PaginatorTrait};
        server::entity::bot_subscription::Entity::find()
            .count(&app.state.db)
            .await
            .expect("count")
    };
    let before = subscriptions().await;
    assert_eq!(post_as("U8", "message", text("/sub important")).await, 200);
    assert_eq!(subscriptions().await, before, "U8 does not steer the group");
    let refused = fake.replies();
    let refused = refused.last().expect("reply")["messages"][0]["text"].clone();
    assert!(
        refused.as_str().expect("text").contains("first set up"),
        "{refused}"
    );
    assert_eq!(
        post_as("U8", "message", text("/list")).await,
        200,
        "reading is for all"
    );
    assert_eq!(post("message", text("/sub important")).await, 200);
    assert_eq!(subscriptions().await, before + 1, "U9 does");
    assert_eq!(post("leave", json!({})).await, 200);
    let status = server::bots::status::status(&app.state.db)
        .await
        .expect("status");
    assert_eq!(status.chats[0].platform, "line");
    assert_eq!(status.chats[0].state, "paused");
}

on_both_databases!(line_groups_join_talk_and_leave);
