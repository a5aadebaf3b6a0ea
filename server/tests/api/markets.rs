//! Prices on SQLite and PostgreSQL, against a local CoinGecko-shaped API: on token chips, token
//! pages and the Markets page; faults that change nothing; a jump held until the next poll says
//! the same; one poll an interval however many servers; charts fetched beside the request; the
//! demo prices without a provider.

use serde_json::{Value, json};
use server::markets::poll::poll_if_due;

use crate::common::price_api::{Mode, PriceApi};
use crate::common::push_service::PushService;
use crate::common::{ADMIN, Backend, SmtpServer, TestApp};

async fn start(backend: Backend, api: Option<&PriceApi>) -> TestApp {
    start_mailing(backend, api, None).await
}

/// With email sent to `smtp`, and pushes allowed to a loopback push service.
async fn start_mailing(
    backend: Backend,
    api: Option<&PriceApi>,
    smtp: Option<&SmtpServer>,
) -> TestApp {
    let url = api.map(|api| api.base.clone());
    let smtp = smtp.map(SmtpServer::url);
    let app = TestApp::start_with(backend, |c| {
        c.admin_token = Some(ADMIN.to_owned());
        c.markets.price_api_url = url;
        c.markets.price_api_key = Some("test-key".to_owned());
        c.push.push_allow_loopback = true;
        c.smtp_url = smtp;
    })
    .await;
    let catalogue = json!({ "tokens": [
        { "symbol": "BTC", "name": "Bitcoin", "price_id": "bitcoin" },
        { "symbol": "ETH", "name": "Ethereum", "price_id": "ethereum" },
        { "symbol": "WOMBAT", "name": "Wombat" },
    ] });
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

async fn poll(app: &TestApp, holder: &str) -> Option<usize> {
    poll_if_due(&app.state.ctx, &app.state.markets, holder)
        .await
        .expect("poll")
}

async fn item(app: &TestApp, title: &str, tokens: Value) {
    let item = json!({ "source_url": format!("https://news.test/{}", title.replace(' ', "-")),
        "kind": "flash", "lang": "en", "title": title, "published_at": app.state.now() - 60,
        "tokens": tokens });
    app.publish(item).await;
}

/// The price on BTC's page, with its time.
async fn btc(app: &TestApp) -> (Value, Value) {
    let (_, page) = app.post("/token/detail", json!({ "symbol": "btc" })).await;
    let market = &page["data"]["market"];
    (market["usd"].clone(), market["as_of"].clone())
}

async fn prices_reach_chips_token_pages_and_the_markets_page(backend: Backend) {
    let api = PriceApi::start().await;
    api.set("bitcoin", 97_000.5, -2.5);
    api.set("ethereum", 3_400.0, 4.25);
    let app = start(backend, Some(&api)).await;
    item(
        &app,
        "Bitcoin and Ether ETFs see inflows",
        json!(["BTC", "ETH"]),
    )
    .await;
    item(&app, "Wombat token launches", json!(["WOMBAT"])).await;
    assert_eq!(poll(&app, "a").await, Some(2));
    assert_eq!(api.calls()[0].1, vec!["bitcoin", "ethereum"]);
    assert_eq!(api.keys()[0].as_deref(), Some("test-key"));

    let (_, list) = app.post("/feed/list", json!({})).await;
    let chips: Vec<Value> = list["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .flat_map(|card| card["tokens"].as_array().cloned().unwrap_or_default())
        .collect();
    let chip = |symbol: &str| {
        chips
            .iter()
            .find(|c| c["symbol"] == symbol)
            .expect("chip")
            .clone()
    };
    let now = app.state.now();
    assert_eq!(
        chip("BTC")["price"],
        json!({ "usd": 97_000.5, "change_24h_pct": -2.5, "as_of": now, "demo": false })
    );
    assert_eq!(chip("ETH")["price"]["usd"], 3_400.0);
    assert_eq!(
        chip("WOMBAT")["price"],
        Value::Null,
        "no provider id, no price"
    );

    let (_, page) = app.post("/token/detail", json!({ "symbol": "BTC" })).await;
    assert_eq!(
        page["data"]["market"],
        json!({ "usd": 97_000.5, "change_24h_pct": -2.5, "market_cap": 97_000_500_000.0,
            "volume_24h": 9_700_050_000.0, "as_of": now, "demo": false })
    );
    let (_, page) = app
        .post("/token/detail", json!({ "symbol": "WOMBAT" }))
        .await;
    assert_eq!(page["data"]["market"], Value::Null);

    let (_, overview) = app.post("/market/overview", json!({})).await;
    let symbols = |table: &str| -> Vec<Value> {
        overview["data"][table]
            .as_array()
            .expect("table")
            .iter()
            .map(|t| t["symbol"].clone())
            .collect()
    };
    assert_eq!(symbols("gainers"), vec![json!("ETH")]);
    assert_eq!(symbols("losers"), vec![json!("BTC")]);
    assert_eq!(symbols("most_mentioned"), vec![json!("BTC"), json!("ETH")]);
    assert_eq!(overview["data"]["most_mentioned"][0]["mentions"], 1);
    assert_eq!(overview["data"]["as_of"], now);
    // A reader's followed tokens come first on their Markets page.
    let session = app.sign_in("holder@example.com").await;
    let auth = [("X-TOKEN", session["token"].as_str().expect("token"))];
    let eth = chip("ETH")["id"].clone();
    app.post_with("/token/follow/add", json!({ "token_id": eth }), &auth)
        .await;
    let (_, followed) = app.post_with("/market/followed", json!({}), &auth).await;
    let list = followed["data"]["list"].as_array().expect("list");
    assert_eq!(list.len(), 1, "{followed}");
    assert_eq!(
        (&list[0]["symbol"], &list[0]["price"]["usd"]),
        (&json!("ETH"), &json!(3_400.0))
    );
    assert_eq!(
        app.post("/market/followed", json!({})).await.0.as_u16(),
        401
    );
}

async fn a_failing_provider_changes_nothing(backend: Backend) {
    let api = PriceApi::start().await;
    api.set("bitcoin", 100.0, 1.0);
    let app = start(backend, Some(&api)).await;
    assert_eq!(poll(&app, "a").await, Some(1));
    let first = btc(&app).await;
    assert_eq!(first.0, 100.0);
    api.set("bitcoin", 120.0, 3.0);
    for mode in [Mode::Error, Mode::RateLimited, Mode::Nonsense, Mode::Slow] {
        api.mode(mode);
        app.clock.advance(60);
        assert_eq!(poll(&app, "a").await, Some(0), "{mode:?}");
        assert_eq!(
            btc(&app).await,
            first,
            "{mode:?}: the last price, with its time"
        );
    }
    // A price 95 % off waits for the next poll to say the same.
    api.mode(Mode::Fine);
    api.set("bitcoin", 5.0, -95.0);
    app.clock.advance(60);
    poll(&app, "a").await;
    assert_eq!(btc(&app).await, first, "held");
    api.set("bitcoin", 5.2, -94.8);
    app.clock.advance(60);
    poll(&app, "a").await;
    assert_eq!(btc(&app).await.0, 5.2, "confirmed");
    // A price within the limit is taken at once.
    api.set("bitcoin", 6.0, 10.0);
    app.clock.advance(60);
    poll(&app, "a").await;
    assert_eq!(btc(&app).await.0, 6.0);
}

async fn servers_poll_once_an_interval_between_them(backend: Backend) {
    let api = PriceApi::start().await;
    api.set("bitcoin", 100.0, 1.0);
    let app = start(backend, Some(&api)).await;
    let beside = app.start_beside().await;
    let (a, b) = tokio::join!(poll(&app, "server-a"), poll(&beside, "server-b"));
    assert_eq!(
        usize::from(a.is_some()) + usize::from(b.is_some()),
        1,
        "one of them: {a:?} {b:?}"
    );
    assert_eq!(api.calls().len(), 1);
    // Each server has its own clock.
    let advance = |seconds| {
        app.clock.advance(seconds);
        beside.clock.advance(seconds);
    };
    advance(30);
    assert_eq!(
        (
            poll(&app, "server-a").await,
            poll(&beside, "server-b").await
        ),
        (None, None)
    );
    advance(31);
    let holder = if a.is_some() {
        (&app, "server-a")
    } else {
        (&beside, "server-b")
    };
    assert_eq!(poll(holder.0, holder.1).await, Some(1));
    assert_eq!(api.calls().len(), 2);
}

async fn charts_are_fetched_beside_the_request(backend: Backend) {
    let api = PriceApi::start().await;
    api.set("bitcoin", 100.0, 1.0);
    let app = start(backend, Some(&api)).await;
    let history = || app.post("/market/history", json!({ "symbol": "BTC", "days": 7 }));
    // The first asks the provider beside the answer, which has nothing yet.
    let (_, first) = history().await;
    assert_eq!(first["data"]["points"], json!([]), "{first}");
    assert_eq!(first["data"]["as_of"], Value::Null);
    let mut chart = first;
    for _ in 0..100 {
        (_, chart) = history().await;
        if chart["data"]["points"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let points = chart["data"]["points"].as_array().expect("points");
    assert_eq!(points.len(), 7 * 24);
    assert_eq!(points.last().expect("last")[1], 100.0);
    assert_eq!(points[0][0], 1_795_305_600 - (7 * 24 - 1) * 3_600);
    assert_eq!(chart["data"]["demo"], false);
    let fetched = api
        .calls()
        .iter()
        .filter(|(path, _)| path == "/coins/bitcoin/market_chart")
        .count();
    assert_eq!(fetched, 1, "kept: asked once");
    // Bad input: a clear error, the right status.
    for (body, code, status) in [
        (json!({ "symbol": "BTC", "days": 2 }), 4001, 200),
        (json!({ "symbol": "BTC", "days": "7" }), 4000, 400),
        (json!({ "days": 7 }), 4000, 400),
        (json!({ "symbol": "NOPE", "days": 7 }), 4040, 404),
    ] {
        let (got, answer) = app.post("/market/history", body.clone()).await;
        assert_eq!(
            (answer["code"].clone(), got.as_u16()),
            (json!(code), status),
            "{body}: {answer}"
        );
    }
    // A provider id must look like one.
    let bad = json!({ "tokens": [{ "symbol": "BAD", "name": "Bad", "price_id": "<script>" }] });
    let (_, refused) = app
        .post_with("/admin/catalogue/upsert", bad, &[("X-ADMIN-TOKEN", ADMIN)])
        .await;
    assert_eq!(refused["code"], 4001, "{refused}");
}

async fn demo_prices_play_without_a_provider(backend: Backend) {
    let app = start(backend, None).await;
    assert_eq!(poll(&app, "a").await, Some(2));
    let (_, page) = app.post("/token/detail", json!({ "symbol": "BTC" })).await;
    let market = &page["data"]["market"];
    assert_eq!(market["demo"], true);
    let usd = market["usd"].as_f64().expect("usd");
    assert!((60_000.0..140_000.0).contains(&usd), "{usd}");
    // It moves as time passes.
    app.clock.advance(3_600);
    poll(&app, "a").await;
    assert_ne!(btc(&app).await.0, json!(usd));
    let (_, chart) = app
        .post("/market/history", json!({ "symbol": "ETH", "days": 1 }))
        .await;
    assert_eq!(chart["data"]["demo"], true);
    assert_eq!(
        chart["data"]["points"].as_array().expect("points").len(),
        289
    );
}

const PARTNER_SECRET: &str = "partner-secret-0123456789";

/// The hex HMAC-SHA256 of `body` under `secret`, as an exchange signs its postbacks.
fn signed(body: &str, secret: &str) -> String {
    use hmac::{Hmac, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).expect("key");
    mac.update(body.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

async fn postback(app: &TestApp, code: &str, body: &str, signature: &str) -> (u16, Value) {
    let response = app
        .http
        .post(format!("{}/api/exchange/postback/{code}", app.base))
        .header("content-type", "application/json")
        .header("x-signature", signature)
        .body(body.to_owned())
        .send()
        .await
        .expect("postback");
    let status = response.status().as_u16();
    (status, response.json().await.expect("envelope"))
}

async fn exchanges_refer_readers_and_confirm_registrations_once(backend: Backend) {
    let app = start(backend, None).await;
    let admin =
        |body: Value| app.post_with("/admin/exchange/upsert", body, &[("X-ADMIN-TOKEN", ADMIN)]);
    let exchange = json!({ "code": "okb", "name": "OKB Exchange",
        "url_template": "https://okb.example/register?ref=blockbrief&sub_id={sub_id}",
        "secret": PARTNER_SECRET, "perks": { "en": "20 % off fees", "ko": "수수료 20 % 할인" }, "award": 300 });
    for (field, bad) in [
        (
            "url_template",
            json!("http://okb.example/register?sub_id={sub_id}"),
        ),
        ("url_template", json!("https://okb.example/register")),
        ("secret", json!("short")),
        ("code", json!("OKB!")),
    ] {
        let mut body = exchange.clone();
        body[field] = bad;
        assert_eq!(admin(body).await.1["code"], 4001, "{field}");
    }
    assert_eq!(admin(exchange.clone()).await.1["code"], 2000);

    // A visitor sees the exchange without a link; a reader gets their own, which names them by
    // an opaque id only.
    let (_, listed) = app.post("/exchange/list", json!({})).await;
    assert_eq!(listed["data"]["list"][0]["link"], Value::Null);
    assert_eq!(listed["data"]["list"][0]["perks"], "20 % off fees");
    let session = app.sign_in("trader@example.com").await;
    let token = session["token"].as_str().expect("token").to_owned();
    let user_id = session["id"].as_i64().expect("id");
    let auth = [("X-TOKEN", token.as_str())];
    let (_, listed) = app.post_with("/exchange/list", json!({}), &auth).await;
    let link = listed["data"]["list"][0]["link"]
        .as_str()
        .expect("link")
        .to_owned();
    let sub_id = link
        .strip_prefix("https://okb.example/register?ref=blockbrief&sub_id=")
        .expect("the template")
        .to_owned();
    // 16 bytes of a MAC, base64url: nothing of the reader's id.
    assert_eq!(sub_id.len(), 22, "{sub_id}");
    assert_ne!(sub_id, user_id.to_string());
    let task_list = || async {
        let (_, tasks) = app
            .post_with(
                "/point/task/list",
                json!({ "group": "exchange_register" }),
                &auth,
            )
            .await;
        tasks["data"]["list"][0].clone()
    };
    let task = task_list().await;
    assert_eq!(
        (
            &task["event_type"],
            &task["status"],
            &task["award"],
            &task["title"]
        ),
        (
            &json!("exchange_register:okb"),
            &json!("not_start"),
            &json!(300),
            &json!("Register on OKB Exchange")
        )
    );
    assert_eq!(task["button"]["app_link"], format!("external:{link}"));
    assert_eq!(task["button"]["disabled"], false);
    // Our own client cannot say the reader registered.
    let report = json!({ "event_type": "exchange_register:okb" });
    app.post_with("/point/task_event_report", report, &auth)
        .await;
    assert_eq!(task_list().await["status"], "not_start");

    let now = app.state.now();
    let body =
        json!({ "event_id": "evt-1", "sub_id": sub_id, "event": "register", "occurred_at": now })
            .to_string();
    // Refused: a wrong signature, another exchange's code, an unknown reader, a body that is
    // no postback (each signed properly where it must be).
    assert_eq!(
        postback(&app, "okb", &body, &signed(&body, "another-secret-012345"))
            .await
            .0,
        401
    );
    assert_eq!(postback(&app, "okb", &body, "not hex").await.0, 401);
    assert_eq!(
        postback(&app, "nope", &body, &signed(&body, PARTNER_SECRET))
            .await
            .0,
        404
    );
    let stranger = json!({ "event_id": "evt-2", "sub_id": "AAAAAAAAAAAAAAAAAAAAAA", "event": "register", "occurred_at": now }).to_string();
    assert_eq!(
        postback(&app, "okb", &stranger, &signed(&stranger, PARTNER_SECRET))
            .await
            .0,
        404
    );
    for junk in [
        "{",
        r#"{"event_id":"e","sub_id":"s","event":"signup","occurred_at":1}"#,
        r#"{"event_id":"e","sub_id":"s","event":"register","occurred_at":1,"user_id":7}"#,
    ] {
        let (status, answer) = postback(&app, "okb", junk, &signed(junk, PARTNER_SECRET)).await;
        assert_eq!(
            (status, answer["code"].clone()),
            (400, json!(4000)),
            "{junk}"
        );
    }
    assert_eq!(
        task_list().await["status"],
        "not_start",
        "nothing moved yet"
    );

    // The real one moves the task once; a replay changes nothing.
    let (status, answer) = postback(&app, "okb", &body, &signed(&body, PARTNER_SECRET)).await;
    assert_eq!(
        (status, answer["data"].clone()),
        (200, json!({ "new": true }))
    );
    let task = task_list().await;
    assert_eq!(task["status"], "to_receive");
    let (_, collected) = app
        .post_with(
            "/point/collect",
            json!({ "point_id": task["point_id"] }),
            &auth,
        )
        .await;
    assert_eq!(collected["data"]["award"], 300);
    let (_, again) = postback(&app, "okb", &body, &signed(&body, PARTNER_SECRET)).await;
    assert_eq!(again["data"], json!({ "new": false }));
    assert_eq!(task_list().await["status"], "completed");
    let (_, balance) = app.post_with("/point/balance", json!({}), &auth).await;
    assert_eq!(balance["data"]["balance"], 300, "paid once");
    // A deposit is kept, and moves no task.
    let deposit =
        json!({ "event_id": "evt-3", "sub_id": sub_id, "event": "deposit", "occurred_at": now })
            .to_string();
    let (_, answer) = postback(&app, "okb", &deposit, &signed(&deposit, PARTNER_SECRET)).await;
    assert_eq!(answer["data"], json!({ "new": true }));
}

async fn presales_are_listed_by_status_and_followers_hear_when_one_starts(backend: Backend) {
    let app = TestApp::start_with(backend, |c| {
        c.admin_token = Some(ADMIN.to_owned());
        c.push.push_allow_loopback = true;
    })
    .await;
    let now = app.state.now();
    let sale = |project: &str, starts: i64, ends: i64| {
        json!({ "project": project, "symbol": "pre", "chain": "Solana", "starts_at": now + starts,
            "ends_at": now + ends, "target_usd": 2_000_000.0, "price_usd": 0.02,
            "links": [{ "label": "Website", "url": "https://presale.example/" }],
            "descriptions": { "en": "A wombat DEX." } })
    };
    let admin =
        |body: Value| app.post_with("/admin/presale/upsert", body, &[("X-ADMIN-TOKEN", ADMIN)]);
    let mut ids = Vec::new();
    for (project, starts, ends) in [
        ("Wombat DEX", 3_600, 90_000),
        ("Quoll Chain", -60, 86_400),
        ("Numbat Pay", -90_000, -3_600),
    ] {
        let (_, made) = admin(sale(project, starts, ends)).await;
        ids.push(
            made["data"]["id"]
                .as_i64()
                .unwrap_or_else(|| panic!("{made}")),
        );
    }
    for (field, bad) in [
        ("ends_at", json!(now - 100_000)),
        ("price_usd", json!(-1.0)),
        (
            "links",
            json!([{ "label": "x", "url": "http://presale.example/" }]),
        ),
    ] {
        let mut body = sale("Bad", 10, 20);
        body[field] = bad;
        assert_eq!(admin(body).await.1["code"], 4001, "{field}");
    }
    for (status, project) in [
        ("upcoming", "Wombat DEX"),
        ("live", "Quoll Chain"),
        ("ended", "Numbat Pay"),
    ] {
        let (_, page) = app.post("/presale/list", json!({ "status": status })).await;
        let list = page["data"]["list"].as_array().expect("list");
        assert_eq!(list.len(), 1, "{status}: {page}");
        assert_eq!(
            (&list[0]["project"], &list[0]["status"]),
            (&json!(project), &json!(status))
        );
        assert!(
            list[0]["risk_notice"]
                .as_str()
                .is_some_and(|r| r.contains("risky"))
        );
        assert_eq!(list[0]["following"], Value::Null, "visitors follow nothing");
    }
    let (status, refused) = app.post("/presale/list", json!({ "status": "soon" })).await;
    assert_eq!(
        (status.as_u16(), refused["code"].clone()),
        (400, json!(4000))
    );

    // A reader follows the upcoming one, and hears when it starts, once.
    let session = app.sign_in("early@example.com").await;
    let token = session["token"].as_str().expect("token").to_owned();
    let auth = [("X-TOKEN", token.as_str())];
    let service = PushService::start().await;
    app.post_with(
        "/push/subscribe",
        service.browser("early").subscription(),
        &auth,
    )
    .await;
    let follow = json!({ "id": ids[0], "follow": true });
    assert_eq!(
        app.post_with("/presale/follow", follow.clone(), &auth)
            .await
            .1["data"]["following"],
        true
    );
    assert_eq!(
        app.post_with("/presale/follow", follow, &auth).await.1["code"],
        2000,
        "again: no change"
    );
    let (_, detail) = app
        .post_with("/presale/detail", json!({ "id": ids[0] }), &auth)
        .await;
    assert_eq!(
        (&detail["data"]["following"], &detail["data"]["description"]),
        (&json!(true), &json!("A wombat DEX."))
    );
    assert_eq!(
        app.post_with(
            "/presale/follow",
            json!({ "id": 999_999, "follow": true }),
            &auth
        )
        .await
        .1["code"],
        4040
    );
    assert_eq!(
        app.post("/presale/follow", json!({ "id": ids[0], "follow": true }))
            .await
            .0
            .as_u16(),
        401
    );
    server::alerts::deliver::spawn(
        app.state.ctx.clone(),
        app.state.alerts.clone(),
        app.state.mailer.clone(),
        "t".to_owned(),
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(service.delivered().is_empty(), "not started yet");
    app.clock.advance(3_601);
    let mut got = service.delivered();
    for _ in 0..200 {
        if !got.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        got = service.delivered();
    }
    assert_eq!(
        got.first().map(|d| d.payload["title"].clone()),
        Some(json!("Presale started: Wombat DEX"))
    );
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(service.delivered().len(), 1, "once");
}

/// Polls the provider after `seconds` more, then lets the alerts worker round run.
async fn tick(app: &TestApp, seconds: i64) {
    app.clock.advance(seconds);
    assert!(poll(app, "a").await.is_some(), "a poll was due");
    server::alerts::deliver::round(&app.state.ctx, &app.state.alerts, &app.state.mailer)
        .await
        .expect("alerts round");
}

/// A price alert fires once when the price crosses its line, again only after the price went
/// back 1 % past it; a move alert fires on the window's change; both reach the browser and the
/// email; bad rules are refused.
async fn price_alerts_fire_once_per_crossing(backend: Backend) {
    let api = PriceApi::start().await;
    api.set("bitcoin", 95_000.0, 0.0);
    api.set("ethereum", 3_000.0, 0.0);
    let smtp = SmtpServer::start().await;
    let app = start_mailing(backend, Some(&api), Some(&smtp)).await;
    let session = app.sign_in("watcher@example.com").await;
    let token = session["token"].as_str().expect("token").to_owned();
    let auth = [("X-TOKEN", token.as_str())];
    let service = PushService::start().await;
    app.post_with(
        "/push/subscribe",
        service.browser("watcher").subscription(),
        &auth,
    )
    .await;
    let alert = |name: &str, price: Value, deliver: Value, mode: &str| json!({ "name": name, "rule": { "price": price }, "deliver": deliver, "mode": mode });
    for (body, why) in [
        (
            alert(
                "x",
                json!({ "symbol": "BTC", "above": 1 }),
                json!(["telegram"]),
                "instant",
            ),
            "Price alerts come at once, as browser notifications and email",
        ),
        (
            alert(
                "x",
                json!({ "symbol": "BTC", "above": 1 }),
                json!(["push"]),
                "daily",
            ),
            "Price alerts come at once, as browser notifications and email",
        ),
        (
            alert(
                "x",
                json!({ "symbol": "NOPE", "above": 1 }),
                json!(["push"]),
                "instant",
            ),
            "The price alert names a token that does not exist",
        ),
        (
            alert(
                "x",
                json!({ "symbol": "BTC", "above": 90, "below": 100 }),
                json!(["push"]),
                "instant",
            ),
            "The price to rise above must be higher than the price to fall below",
        ),
        (
            alert(
                "x",
                json!({ "symbol": "BTC", "above": "lots" }),
                json!(["push"]),
                "instant",
            ),
            "",
        ),
    ] {
        let (status, refused) = app.post_with("/alert/add", body, &auth).await;
        assert!(status.as_u16() < 500, "{refused}");
        assert_ne!(refused["code"], 2000, "{why}: {refused}");
        if !why.is_empty() {
            assert_eq!(refused["msg"], why, "{refused}");
        }
    }
    let lines = alert(
        "BTC 100k",
        json!({ "symbol": "btc", "above": 100_000, "below": 90_000 }),
        json!(["push", "email"]),
        "instant",
    );
    let (_, made) = app.post_with("/alert/add", lines, &auth).await;
    assert_eq!(made["code"], 2000, "{made}");
    let moves = alert(
        "ETH moves",
        json!({ "symbol": "ETH", "move_pct": 5, "window_minutes": 5 }),
        json!(["push"]),
        "instant",
    );
    let (_, made) = app.post_with("/alert/add", moves, &auth).await;
    assert_eq!(made["code"], 2000, "{made}");

    let titles = || -> Vec<String> {
        service
            .delivered()
            .iter()
            .map(|d| d.payload["title"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    tick(&app, 0).await;
    assert_eq!(titles(), Vec::<String>::new(), "no line crossed yet");
    let mut seen = Vec::new();
    // The move alert measures against the price 5 minutes before: from the sixth poll on.
    for (btc, eth, fired) in [
        (100_500.0, 3_000.0, &["BTC rose above $100,000.00"][..]),
        (100_600.0, 3_000.0, &[]),
        (99_500.0, 3_000.0, &[]),
        (100_200.0, 3_000.0, &[]),
        (98_000.0, 3_000.0, &[]),
        (101_000.0, 3_000.0, &["BTC rose above $100,000.00"]),
        (
            89_000.0,
            3_200.0,
            &["BTC fell below $90,000.00", "ETH moved +6.7% in 5 min"],
        ),
        (89_000.0, 3_250.0, &[]),
        (89_000.0, 3_000.0, &[]),
        (89_000.0, 2_800.0, &["ETH moved -6.7% in 5 min"]),
    ] {
        api.set("bitcoin", btc, 0.0);
        api.set("ethereum", eth, 0.0);
        tick(&app, 61).await;
        seen.extend(fired.iter().map(|f| (*f).to_owned()));
        assert_eq!(titles(), seen, "at BTC {btc}, ETH {eth}");
    }
    let first = &service.delivered()[0];
    assert_eq!(first.payload["body"], "Now $100,500.00");
    assert!(
        first.payload["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("/en/token/BTC")),
        "{:?}",
        first.payload
    );
    assert_eq!(first.urgency, "high");
    // The line alert chose email too: one email per crossing.
    let mails = smtp.wait_for_messages(4).await;
    let subjects: Vec<String> = mails[1..]
        .iter()
        .map(|m| {
            let parsed = mailparse::parse_mail(m).expect("mail");
            parsed
                .headers
                .iter()
                .find(|h| h.get_key() == "Subject")
                .map(|h| h.get_value())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        subjects,
        [
            "BTC rose above $100,000.00",
            "BTC rose above $100,000.00",
            "BTC fell below $90,000.00"
        ]
    );
}

on_both_databases!(
    price_alerts_fire_once_per_crossing,
    prices_reach_chips_token_pages_and_the_markets_page,
    a_failing_provider_changes_nothing,
    servers_poll_once_an_interval_between_them,
    charts_are_fetched_beside_the_request,
    demo_prices_play_without_a_provider,
    exchanges_refer_readers_and_confirm_registrations_once,
    presales_are_listed_by_status_and_followers_hear_when_one_starts,
);
