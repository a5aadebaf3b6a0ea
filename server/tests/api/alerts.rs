//! Alerts on SQLite and PostgreSQL: a reader's rules (kept, listed, changed and deleted by their
//! reader alone, at most 20, bad ones refused with a clear message), what a rule would have
//! matched in the last week (counted the same by the server and over the sample the browser
//! gets), and instant alerts to browsers and linked chats, once per reader and item.

use client_core::alert::{AlertItem, AlertRule, count_matches};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde_json::{Value, json};
use server::entity::{alert_delivery, bot_chat, bot_delivery};

use crate::common::push_service::{Delivered, PushService};
use crate::common::{ADMIN, Backend, SmtpServer, TestApp};
const DAY: i64 = 86_400;

struct Reader {
    token: String,
}

async fn start(backend: Backend) -> TestApp {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let catalogue = json!({
        "tokens": [{ "symbol": "BTC", "name": "Bitcoin" }, { "symbol": "ETH", "name": "Ethereum" }],
        "tags": [{ "code": "etf", "names": { "en": "ETF" } }],
    });
    let (_, made) = app
        .post_with(
            "/admin/catalogue/upsert",
            catalogue,
            &[("X-ADMIN-TOKEN", ADMIN)],
        )
        .await;
    assert_eq!(made["code"], 2000, "{made}");
    app
}

async fn reader(app: &TestApp, name: &str) -> Reader {
    let session = app.sign_in(&format!("{name}@example.com")).await;
    Reader {
        token: session["token"].as_str().expect("token").to_owned(),
    }
}

async fn call(app: &TestApp, who: &Reader, path: &str, body: Value) -> Value {
    app.post_with(path, body, &[("X-TOKEN", who.token.as_str())])
        .await
        .1
}

/// Stores a news item published `ago` seconds before now.
async fn item(app: &TestApp, slug: &str, ago: i64, extra: Value) -> i64 {
    let path = slug.replace(' ', "-");
    let mut item = json!({ "source_url": format!("https://news.test/{path}"), "kind": "flash",
        "lang": "en", "title": slug, "published_at": app.state.now() - ago });
    for (k, v) in extra.as_object().expect("object") {
        item[k] = v.clone();
    }
    app.publish(item).await
}

fn alert(name: &str, rule: Value) -> Value {
    json!({ "name": name, "rule": rule, "deliver": ["push", "email"], "mode": "instant" })
}

async fn rules_are_kept_by_their_reader_alone(backend: Backend) {
    let app = start(backend).await;
    let (a, b) = (reader(&app, "a").await, reader(&app, "b").await);
    let rule = json!({ "keywords": ["BTC", "ETF"], "only_important": true });
    let mut first = alert("BTC or ETF", rule.clone());
    first["quiet"] = json!({ "from": "22:30", "to": "07:00" });
    let made = call(&app, &a, "/alert/add", first).await;
    let id = made["data"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{made}"));
    let listed = call(&app, &a, "/alert/list", json!({})).await;
    let first = &listed["data"]["list"][0];
    assert_eq!(
        (
            &first["name"],
            &first["rule"]["keywords"],
            &first["rule"]["only_important"]
        ),
        (&json!("BTC or ETF"), &json!(["BTC", "ETF"]), &json!(true)),
        "{listed}"
    );
    assert_eq!(first["quiet"], json!({ "from": "22:30", "to": "07:00" }));
    assert_eq!(first["deliver"], json!(["push", "email"]));
    // Another reader sees none of it and changes nothing.
    assert_eq!(
        call(&app, &b, "/alert/list", json!({})).await["data"]["list"],
        json!([])
    );
    let mut change = alert("Mine now", json!({ "tokens": ["eth"] }));
    change["id"] = json!(id);
    assert_eq!(
        call(&app, &b, "/alert/update", change.clone()).await["code"],
        4030
    );
    assert_eq!(
        call(&app, &b, "/alert/del", json!({ "id": id })).await["code"],
        4030
    );
    assert_eq!(call(&app, &a, "/alert/update", change).await["code"], 2000);
    let listed = call(&app, &a, "/alert/list", json!({})).await;
    assert_eq!(
        (
            &listed["data"]["list"][0]["name"],
            &listed["data"]["list"][0]["rule"]["tokens"]
        ),
        (&json!("Mine now"), &json!(["eth"]))
    );
    assert_eq!(
        call(&app, &a, "/alert/del", json!({ "id": id })).await["code"],
        2000
    );
    assert_eq!(
        call(&app, &a, "/alert/del", json!({ "id": id })).await["code"],
        4040
    );
    let (status, anonymous) = app.post("/alert/list", json!({})).await;
    assert_eq!((status.as_u16(), &anonymous["code"]), (401, &json!(4010)));
    // At most 20 a reader.
    for n in 0..20 {
        let made = call(
            &app,
            &a,
            "/alert/add",
            alert(&format!("n{n}"), rule.clone()),
        )
        .await;
        assert_eq!(made["code"], 2000, "{made}");
    }
    let refused = call(&app, &a, "/alert/add", alert("one more", rule)).await;
    assert_eq!(refused["code"], 4001);
    assert!(
        refused["msg"].as_str().expect("msg").contains("20 alerts"),
        "{refused}"
    );
}

async fn bad_rules_are_refused_with_a_clear_message(backend: Backend) {
    let app = start(backend).await;
    let a = reader(&app, "a").await;
    let long = "x".repeat(61);
    let many: Vec<String> = (0..31).map(|n| format!("k{n}")).collect();
    let cases = [
        (alert("empty", json!({})), "Say what to alert you about"),
        (
            alert("only out", json!({ "keywords": ["-scam"] })),
            "Say what to alert you about",
        ),
        (
            alert("many", json!({ "keywords": many })),
            "at most 30 keywords",
        ),
        (
            alert("long", json!({ "keywords": [long] })),
            "1 to 60 characters",
        ),
        (
            alert("ghost", json!({ "tokens": ["NOPE"] })),
            "a token that does not exist",
        ),
        (
            alert("twice", json!({ "tokens": ["btc", "BTC"] })),
            "names one twice",
        ),
        (alert("", json!({ "tokens": ["btc"] })), "name has 1 to 60"),
        (
            json!({ "name": "where", "rule": { "tokens": ["BTC"] }, "deliver": ["sms"], "mode": "instant" }),
            "push, email, telegram and line",
        ),
        (
            json!({ "name": "where", "rule": { "tokens": ["BTC"] }, "deliver": [], "mode": "instant" }),
            "Choose where",
        ),
        (
            json!({ "name": "when", "rule": { "tokens": ["BTC"] }, "deliver": ["push"], "mode": "hourly" }),
            "instant or daily",
        ),
        (
            json!({ "name": "quiet", "rule": { "tokens": ["BTC"] }, "deliver": ["push"],
                "mode": "instant", "quiet": { "from": "24:00", "to": "07:00" } }),
            "HH:MM",
        ),
        (
            json!({ "name": "quiet", "rule": { "tokens": ["BTC"] }, "deliver": ["push"],
                "mode": "instant", "quiet": { "from": "07:00", "to": "07:00" } }),
            "HH:MM",
        ),
    ];
    for (body, said) in cases {
        let refused = call(&app, &a, "/alert/add", body.clone()).await;
        assert_eq!(refused["code"], 4001, "{body}: {refused}");
        let msg = refused["msg"].as_str().expect("msg");
        assert!(msg.contains(said), "{body}: {msg}");
    }
    let malformed = call(
        &app,
        &a,
        "/alert/add",
        json!({ "name": "x", "rule": "BTC" }),
    )
    .await;
    assert_eq!(malformed["code"], 4000, "{malformed}");
    assert_eq!(
        call(&app, &a, "/alert/list", json!({})).await["data"]["list"],
        json!([])
    );
}

async fn a_preview_counts_what_the_browser_counts(backend: Backend) {
    let app = start(backend).await;
    let a = reader(&app, "a").await;
    item(
        &app,
        "Spot ETF inflows hit a record",
        DAY,
        json!({ "important": true, "tags": ["etf"] }),
    )
    .await;
    item(
        &app,
        "BTC miners sell",
        2 * DAY,
        json!({ "tokens": ["BTC"] }),
    )
    .await;
    item(
        &app,
        "Quiet day",
        3 * DAY,
        json!({ "important": true, "translations": { "zh-Hans": { "title": "比特币ETF获批" } } }),
    )
    .await;
    item(
        &app,
        "ETF news of last month",
        30 * DAY,
        json!({ "important": true }),
    )
    .await;
    let rule = json!({ "keywords": ["ETF", "比特币"], "only_important": true });
    let preview = call(
        &app,
        &a,
        "/alert/preview",
        json!({ "rule": rule, "days": 7 }),
    )
    .await;
    assert_eq!(preview["data"]["count"], 2, "{preview}");
    let titles: Vec<&str> = preview["data"]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["title"].as_str().expect("title"))
        .collect();
    assert_eq!(titles, ["Spot ETF inflows hit a record", "Quiet day"]);
    // The sample the editor counts over gives the same count with client-core's matcher.
    let sample = call(&app, &a, "/alert/sample", json!({})).await;
    let facts: Vec<AlertItem> = sample["data"]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| serde_json::from_value(i["facts"].clone()).expect("facts"))
        .collect();
    assert_eq!(facts.len(), 3, "the last week only");
    let parsed: AlertRule = serde_json::from_value(rule.clone()).expect("rule");
    assert_eq!(count_matches(&parsed, &facts), 2);
    for (rule, days, count) in [
        (json!({ "tokens": ["BTC"] }), 7, 1),
        (json!({ "tokens": ["BTC"] }), 1, 0),
        (json!({ "only_important": true }), 7, 2),
        (json!({ "tags": ["etf"], "langs": ["vi"] }), 7, 0),
    ] {
        let got = call(
            &app,
            &a,
            "/alert/preview",
            json!({ "rule": rule, "days": days }),
        )
        .await;
        assert_eq!(
            got["data"]["count"], count,
            "{rule} over {days} days: {got}"
        );
        let parsed: AlertRule = serde_json::from_value(rule).expect("rule");
        if days == 7 {
            assert_eq!(count_matches(&parsed, &facts) as i64, count);
        }
    }
    // A new item is in the next preview.
    item(&app, "Another ETF", 60, json!({ "important": true })).await;
    let again = call(&app, &a, "/alert/preview", json!({ "rule": rule })).await;
    assert_eq!(again["data"]["count"], 3, "{again}");
    for bad in [
        json!({ "rule": rule, "days": 8 }),
        json!({ "rule": {}, "days": 7 }),
    ] {
        assert_eq!(
            call(&app, &a, "/alert/preview", bad.clone()).await["code"],
            4001,
            "{bad}"
        );
    }
}

/// Waits up to 10 s for the push service to have taken `n` messages.
async fn delivered(service: &PushService, n: usize) -> Vec<Delivered> {
    for _ in 0..200 {
        let got = service.delivered();
        if got.len() >= n {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!(
        "{n} pushes did not come within 10 s: {:?}",
        service.refused()
    );
}

/// Waits up to 10 s for `n` deliveries whose `column` is `value`.
async fn rows(app: &TestApp, column: alert_delivery::Column, value: &str, n: u64) {
    for _ in 0..200 {
        let found = alert_delivery::Entity::find()
            .filter(column.eq(value))
            .count(&app.state.db)
            .await
            .expect("db");
        if found == n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{n} deliveries with {column:?} = {value} did not come within 10 s");
}

/// Runs the alert worker of `app`'s server as `holder`.
fn start_alerts(app: &TestApp, holder: &str) {
    let state = &app.state;
    let mailer = state.mailer.clone();
    server::alerts::deliver::spawn(
        state.ctx.clone(),
        state.alerts.clone(),
        mailer,
        holder.to_owned(),
    );
}

/// A Telegram chat linked to `user_id`.
async fn linked_chat(app: &TestApp, user_id: i64) -> i64 {
    bot_chat::ActiveModel {
        platform: Set("telegram".to_owned()),
        chat_ref: Set(format!("{}", 5000 + user_id)),
        thread_id: Set(0),
        kind: Set("private".to_owned()),
        locale: Set("en".to_owned()),
        state: Set("active".to_owned()),
        digest: Set("off".to_owned()),
        digest_at: Set(0),
        muted: Set("[]".to_owned()),
        user_id: Set(Some(user_id)),
        last_error: Set(None),
        created_at: Set(app.state.now()),
        ..Default::default()
    }
    .insert(&app.state.db)
    .await
    .expect("chat")
    .id
}

async fn alerting(backend: Backend) -> (TestApp, PushService) {
    let app = TestApp::start_with(backend, |c| {
        c.admin_token = Some(ADMIN.to_owned());
        c.push.push_allow_loopback = true;
    })
    .await;
    let catalogue = json!({ "tokens": [{ "symbol": "BTC", "name": "Bitcoin" }] });
    app.post_with(
        "/admin/catalogue/upsert",
        catalogue,
        &[("X-ADMIN-TOKEN", ADMIN)],
    )
    .await;
    (app, PushService::start().await)
}

/// "BTC or ETF, important only": a matching item reaches the reader's browser and linked chat
/// once, however many of their rules match; others' rules and unimportant items do not; past 30
/// instant alerts an hour, the rest wait for the daily email.
async fn matching_items_reach_browsers_and_chats_once(backend: Backend) {
    let (app, service) = alerting(backend).await;
    let session = app.sign_in("a@example.com").await;
    let a = Reader {
        token: session["token"].as_str().expect("token").to_owned(),
    };
    let a_id = session["id"].as_i64().expect("id");
    let b = reader(&app, "b").await;
    let rule = json!({ "keywords": ["BTC", "ETF"], "only_important": true });
    let mut both = alert("BTC or ETF", rule);
    both["deliver"] = json!(["push", "telegram"]);
    assert_eq!(call(&app, &a, "/alert/add", both).await["code"], 2000);
    let etf = alert("ETF again", json!({ "keywords": ["\"spot etf\""] }));
    assert_eq!(call(&app, &a, "/alert/add", etf).await["code"], 2000);
    let browser = service.browser("a");
    call(&app, &a, "/push/subscribe", browser.subscription()).await;
    let chat = linked_chat(&app, a_id).await;
    assert_eq!(
        call(
            &app,
            &b,
            "/alert/add",
            alert("BTC", json!({ "tokens": ["BTC"] }))
        )
        .await["code"],
        2000
    );
    call(
        &app,
        &b,
        "/push/subscribe",
        service.browser("b").subscription(),
    )
    .await;
    start_alerts(&app, "test-server");
    item(
        &app,
        "Spot ETF approved",
        0,
        json!({ "important": true, "summary": "The SEC said yes." }),
    )
    .await;
    let got = delivered(&service, 1).await;
    let feed = app.post("/feed/list", json!({})).await.1["data"]["list"][0]["id"].clone();
    assert_eq!(got[0].browser, "a");
    assert_eq!(
        (
            &got[0].payload["title"],
            &got[0].payload["feed_id"],
            &got[0].urgency
        ),
        (&json!("Spot ETF approved"), &feed, &"high".to_owned())
    );
    assert!(
        got[0].payload["url"]
            .as_str()
            .expect("url")
            .ends_with(&format!("/en/feed/{feed}"))
    );
    let queued = bot_delivery::Entity::find()
        .filter(bot_delivery::Column::ChatId.eq(chat))
        .count(&app.state.db)
        .await
        .expect("db");
    assert_eq!(queued, 1, "the linked chat gets it through the bots' queue");
    // Not important: not for A; B's token rule does not name it either.
    item(&app, "ETF chatter", 0, json!({})).await;
    item(&app, "Spot ETF weekly", 0, json!({ "important": true })).await;
    let got = delivered(&service, 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(
        service.delivered().len(),
        2,
        "once per reader and item: {got:?}"
    );
    // Past the hour's limit, the rest wait as daily.
    let now = app.state.now();
    let filler: Vec<alert_delivery::ActiveModel> = (0..28)
        .map(|n| alert_delivery::ActiveModel {
            user_id: Set(a_id),
            feed_id: Set(1_000_000 + n),
            deliver: Set("push".to_owned()),
            mode: Set("instant".to_owned()),
            state: Set("sent".to_owned()),
            created_at: Set(now),
            sent_at: Set(Some(now)),
            ..Default::default()
        })
        .collect();
    alert_delivery::Entity::insert_many(filler)
        .exec(&app.state.db)
        .await
        .expect("filler");
    item(&app, "Spot ETF the 31st", 0, json!({ "important": true })).await;
    rows(&app, alert_delivery::Column::Mode, "daily", 1).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(service.delivered().len(), 2, "no 31st push within the hour");
}

/// Quiet hours in the reader's time zone hold instant alerts; when they end, one notification
/// says how many came.
async fn quiet_hours_hold_alerts_for_one_summary(backend: Backend) {
    let (app, service) = alerting(backend).await;
    let a = reader(&app, "a").await;
    // The clock starts at 00:00 UTC: 08:00 in Taipei, inside 07:30–09:00 there.
    let mut quiet = alert("Numbats", json!({ "keywords": ["numbat"] }));
    quiet["quiet"] = json!({ "from": "07:30", "to": "09:00" });
    quiet["time_zone"] = json!("Mars/Olympus");
    let refused = call(&app, &a, "/alert/add", quiet.clone()).await;
    assert_eq!(refused["code"], 4001, "{refused}");
    quiet["time_zone"] = json!("Asia/Taipei");
    assert_eq!(call(&app, &a, "/alert/add", quiet).await["code"], 2000);
    call(
        &app,
        &a,
        "/push/subscribe",
        service.browser("a").subscription(),
    )
    .await;
    start_alerts(&app, "t");
    item(&app, "Numbat one", 0, json!({})).await;
    item(&app, "Numbat two", 0, json!({})).await;
    rows(&app, alert_delivery::Column::State, "held", 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(service.delivered().is_empty(), "nothing during quiet hours");
    app.clock.advance(3600);
    let got = delivered(&service, 1).await;
    assert_eq!(
        got[0].payload["title"],
        "2 alerts came while you were quiet"
    );
    assert_eq!(got[0].payload["body"], "Numbat two");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(service.delivered().len(), 1, "one summary");
}

/// At 08:00 in the reader's time zone, one email lists what their alerts matched, grouped by
/// alert, with a one-click unsubscribe that works signed out.
async fn the_daily_email_groups_by_alert_and_unsubscribes_in_one_click(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let app = TestApp::start_with(backend, |c| {
        c.admin_token = Some(ADMIN.to_owned());
        c.smtp_url = Some(smtp.url());
    })
    .await;
    // The sign-in code is the first message.
    let a = reader(&app, "a").await;
    let mut daily = alert("Numbat watch", json!({ "keywords": ["numbat"] }));
    daily["mode"] = json!("daily");
    daily["deliver"] = json!(["email"]);
    daily["time_zone"] = json!("Asia/Taipei");
    assert_eq!(call(&app, &a, "/alert/add", daily).await["code"], 2000);
    let mut quolls = alert("Quolls", json!({ "keywords": ["quoll"] }));
    quolls["mode"] = json!("daily");
    quolls["deliver"] = json!(["email"]);
    assert_eq!(call(&app, &a, "/alert/add", quolls).await["code"], 2000);
    // It is 08:00 in Taipei: the day's email is due once there is something to say.
    app.clock.advance(-3600);
    start_alerts(&app, "t");
    item(&app, "Numbat census", 0, json!({})).await;
    item(&app, "Quoll sighting", 0, json!({})).await;
    rows(&app, alert_delivery::Column::Mode, "daily", 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        smtp.wait_for_messages(1).await.len(),
        1,
        "07:00 in Taipei: not yet"
    );
    app.clock.advance(3600);
    let mail = smtp.wait_for_messages(2).await.pop().expect("the email");
    let parsed = mailparse::parse_mail(&mail).expect("mail");
    let header = |name: &str| {
        parsed
            .headers
            .iter()
            .find(|h| h.get_key() == name)
            .map(|h| h.get_value())
    };
    assert_eq!(header("Subject").as_deref(), Some("Your alerts: 2 new"));
    assert_eq!(
        header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let link = header("List-Unsubscribe").expect("List-Unsubscribe");
    let link = link.trim_matches(['<', '>']).to_owned();
    let text = parsed.subparts[0].get_body().expect("text");
    let (numbat, quoll) = (
        text.find("Numbat watch").expect("group"),
        text.find("Quolls").expect("group"),
    );
    assert!(
        numbat < text.find("Numbat census").expect("item")
            && quoll < text.find("Quoll sighting").expect("item"),
        "{text}"
    );
    // Once a day: another item waits for tomorrow.
    item(&app, "Numbat census, revised", 0, json!({})).await;
    rows(&app, alert_delivery::Column::Mode, "daily", 3).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(smtp.wait_for_messages(2).await.len(), 2);
    // One click, signed out; a forged link changes nothing.
    let local = link.replace(&app.state.config.public_url, &app.base);
    let forged = local.replace("&t=", "&t=0");
    let refused = app.http.post(&forged).send().await.expect("post");
    assert_eq!(refused.status(), 404);
    let shown = app.http.get(&local).send().await.expect("get");
    assert!(
        shown
            .text()
            .await
            .expect("page")
            .contains("<form method=\"post\">")
    );
    let done = app
        .http
        .post(&local)
        .form(&[("List-Unsubscribe", "One-Click")])
        .send()
        .await
        .expect("post");
    assert_eq!(done.status(), 200);
    let listed = call(&app, &a, "/alert/list", json!({})).await;
    for alert in listed["data"]["list"].as_array().expect("alerts") {
        assert_eq!(
            (&alert["deliver"], &alert["mode"]),
            (&json!(["push"]), &json!("instant"))
        );
    }
    // Presses are limited per address, signed out as they are.
    for _ in 0..28 {
        app.http.post(&forged).send().await.expect("post");
    }
    let flooded = app.http.post(&local).send().await.expect("post");
    assert_eq!(flooded.status(), 429);
    app.clock.advance(86_400);
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(
        smtp.wait_for_messages(2).await.len(),
        2,
        "no email after unsubscribing"
    );
    // Deliveries are kept a month (an item alerts only while it is new), the one day claimed (no
    // email went the next day) a week.
    app.clock.advance(28 * 86_400);
    let cleanup = || server::cleanup::run_once(&app.state, app.state.config.track_retention_days);
    let removed = cleanup().await.expect("cleanup");
    assert_eq!((removed.alert_deliveries, removed.alert_digests), (0, 1));
    app.clock.advance(2 * 86_400);
    let removed = cleanup().await.expect("cleanup");
    assert_eq!((removed.alert_deliveries, removed.alert_digests), (3, 0));
}

/// Two servers on one PostgreSQL, both matching and sending: one push per reader and item.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_two_servers_alert_once() {
    let (app, service) = alerting(Backend::Postgres).await;
    let beside = app.start_beside().await;
    let a = reader(&app, "a").await;
    call(
        &app,
        &a,
        "/alert/add",
        alert("ETF", json!({ "keywords": ["etf"] })),
    )
    .await;
    call(
        &app,
        &a,
        "/push/subscribe",
        service.browser("a").subscription(),
    )
    .await;
    for (server, holder) in [(&app, "server-a"), (&beside, "server-b")] {
        start_alerts(server, holder);
    }
    for n in 0..5 {
        let on = if n % 2 == 0 { &app } else { &beside };
        item(on, &format!("ETF {n}"), 0, json!({})).await;
    }
    delivered(&service, 5).await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let feeds: Vec<i64> = service
        .delivered()
        .iter()
        .map(|d| d.payload["feed_id"].as_i64().expect("feed"))
        .collect();
    let unique: std::collections::HashSet<i64> = feeds.iter().copied().collect();
    assert_eq!((feeds.len(), unique.len()), (5, 5), "{feeds:?}");
}

on_both_databases!(
    the_daily_email_groups_by_alert_and_unsubscribes_in_one_click,
    quiet_hours_hold_alerts_for_one_summary,
    matching_items_reach_browsers_and_chats_once,
    rules_are_kept_by_their_reader_alone,
    bad_rules_are_refused_with_a_clear_message,
    a_preview_counts_what_the_browser_counts,
);
