//! Alerts on SQLite and PostgreSQL: a reader's rules (kept, listed, changed and deleted by their
//! reader alone, at most 20, bad ones refused with a clear message), and what a rule would have
//! matched in the last week, counted the same by the server and over the sample the browser gets.

use client_core::alert::{AlertItem, AlertRule, count_matches};
use serde_json::{Value, json};

use crate::common::{Backend, TestApp};

const ADMIN: &str = "admin-token-for-tests-0123456789";
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
    let (_, made) = app
        .post_with("/admin/feed/upsert", item, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    made["data"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{made}"))
}

fn alert(name: &str, rule: Value) -> Value {
    json!({ "name": name, "rule": rule, "deliver": ["push", "email"], "mode": "instant",
        "quiet": { "from": "22:30", "to": "07:00" } })
}

async fn rules_are_kept_by_their_reader_alone(backend: Backend) {
    let app = start(backend).await;
    let (a, b) = (reader(&app, "a").await, reader(&app, "b").await);
    let rule = json!({ "keywords": ["BTC", "ETF"], "only_important": true });
    let made = call(&app, &a, "/alert/add", alert("BTC or ETF", rule.clone())).await;
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

on_both_databases!(
    rules_are_kept_by_their_reader_alone,
    bad_rules_are_refused_with_a_clear_message,
    a_preview_counts_what_the_browser_counts,
);
