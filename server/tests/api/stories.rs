//! Stories on SQLite and PostgreSQL. The labelled set (`server/demo/stories.json`: 303 items in
//! five languages, each labelled with the event it reports) comes in as an importer sends it,
//! in order of publication; the stories formed at ingest are measured against the labels over
//! every pair of items (precision ≥ 0.95, recall ≥ 0.8). Feeds show one card per story, a
//! story lists its reports and who had it first, and an admin splits a misgrouped item off.

use serde_json::{Value, json};

use crate::common::{ADMIN, Backend, TestApp};

const SET: &str = include_str!("../../demo/stories.json");

struct Labelled {
    id: i64,
    event: String,
    title: String,
}

/// Publishes the labelled set, earliest first; gives each item with its label.
async fn load(app: &TestApp) -> Vec<Labelled> {
    let set: Value = serde_json::from_str(SET).expect("the labelled set");
    let now = app.state.now();
    let mut items = Vec::new();
    for event in set["events"].as_array().expect("events") {
        let hours_ago = event["hours_ago"].as_i64().expect("hours_ago");
        for (n, item) in event["items"].as_array().expect("items").iter().enumerate() {
            let at = now - hours_ago * 3600 + item[2].as_i64().expect("minutes") * 60;
            let id = event["id"].as_str().expect("id");
            let body = json!({ "source_url": format!("https://news.test/{id}/{n}"),
                "kind": "flash", "lang": item[0], "source_name": item[1], "title": item[3],
                "summary": item[4], "published_at": at, "tokens": event["tokens"] });
            items.push((at, id.to_owned(), body));
        }
    }
    items.sort_by_key(|(at, _, _)| *at);
    let mut labelled = Vec::new();
    for (_, event, body) in items {
        let title = body["title"].as_str().unwrap_or_default().to_owned();
        labelled.push(Labelled {
            id: app.publish(body).await,
            event,
            title,
        });
    }
    labelled
}

async fn story_of(app: &TestApp, id: i64) -> Option<i64> {
    let item = app
        .call_as("/feed/detail", json!({ "id": id }), "en", None)
        .await;
    item["story"]["id"].as_i64()
}

async fn the_labelled_set_groups_with_high_precision_and_recall(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let items = load(&app).await;
    assert!(items.len() >= 300, "{} items", items.len());
    let mut stories = Vec::new();
    for item in &items {
        stories.push(story_of(&app, item.id).await);
    }
    let (mut both, mut only_grouped, mut only_labelled) = (0, 0, 0);
    for a in 0..items.len() {
        for b in a + 1..items.len() {
            let labelled = items[a].event == items[b].event;
            let grouped = stories[a].is_some() && stories[a] == stories[b];
            match (labelled, grouped) {
                (true, true) => both += 1,
                (false, true) => only_grouped += 1,
                (true, false) => only_labelled += 1,
                (false, false) => {}
            }
        }
    }
    let precision = f64::from(both) / f64::from(both + only_grouped);
    let recall = f64::from(both) / f64::from(both + only_labelled);
    eprintln!(
        "stories on {backend:?}: {} items, {both} pairs right, {only_grouped} wrongly together, \
         {only_labelled} wrongly apart: precision {precision:.3}, recall {recall:.3}",
        items.len()
    );
    assert!(precision >= 0.95, "precision {precision:.3}");
    assert!(recall >= 0.8, "recall {recall:.3}");

    // The home feed: one card per story, each saying how many reports it stands for.
    let mut cards = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let page = app
            .call_as(
                "/feed/list",
                json!({ "limit": 50, "cursor": cursor }),
                "en",
                None,
            )
            .await;
        cards.extend(page["list"].as_array().expect("list").iter().cloned());
        cursor = page["next_cursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    let mut shown_stories: Vec<i64> = cards
        .iter()
        .filter_map(|c| c["story"]["id"].as_i64())
        .collect();
    let with_story = shown_stories.len();
    shown_stories.sort_unstable();
    shown_stories.dedup();
    assert_eq!(shown_stories.len(), with_story, "a story shows once");
    let hidden: i64 = cards
        .iter()
        .filter_map(|c| c["story"]["size"].as_i64())
        .map(|size| size - 1)
        .sum();
    assert_eq!(cards.len() as i64 + hidden, items.len() as i64);

    // The Nordex hack, reported first in English at 0 and in Chinese two minutes later.
    let nordex = items
        .iter()
        .position(|i| i.title == "Exchange Nordex hacked for $1.5 billion in ether")
        .expect("in the set");
    let story = stories[nordex].expect("grouped");
    let detail = app
        .call_as("/story/detail", json!({ "id": story }), "en", None)
        .await;
    let sources: Vec<&str> = detail["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["source_name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(detail["size"], json!(sources.len()), "{detail}");
    assert!(sources.len() >= 5, "{sources:?}");
    assert_eq!(sources[0], "BlockWire");
    assert_eq!(detail["first_lang"], "en");
    assert_eq!(detail["ahead_minutes"], 2, "{detail}");
}

async fn an_admin_splits_a_misgrouped_item_off(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let now = app.state.now();
    let item = |slug: &str, lang: &str, title: &str, ago: i64, important: bool| {
        json!({ "source_url": format!("https://news.test/{slug}"), "kind": "flash",
            "lang": lang, "title": title, "important": important,
            "published_at": now - ago, "tokens": ["ETH"] })
    };
    let en = app
        .publish(item(
            "en",
            "en",
            "Exchange Nordex hacked for $1.5 billion in ether",
            600,
            false,
        ))
        .await;
    let zh = app
        .publish(item(
            "zh",
            "zh-Hans",
            "交易所 Nordex 被盗约 15亿美元 ETH",
            300,
            true,
        ))
        .await;
    let ko = app
        .publish(item(
            "ko",
            "ko",
            "노덱스 거래소 해킹…Nordex 15억 달러 이더리움 탈취",
            60,
            false,
        ))
        .await;
    let story = story_of(&app, en).await.expect("grouped");
    assert_eq!(story_of(&app, zh).await, Some(story));
    assert_eq!(story_of(&app, ko).await, Some(story));
    // The card is the important report; the story was first reported in English.
    let page = app.call_as("/feed/list", json!({}), "en", None).await;
    assert_eq!(page["list"].as_array().map(Vec::len), Some(1), "{page}");
    assert_eq!(page["list"][0]["id"], zh);
    assert_eq!(
        page["list"][0]["story"],
        json!({ "id": story, "size": 3, "first_lang": "en", "first_at": now - 600 })
    );
    // A reader of other languages gets the story's earliest report in theirs.
    for (langs, card) in [
        (json!(["en"]), en),
        (json!(["ko", "en"]), en),
        (json!(["ko"]), ko),
        (json!(["zh-Hans", "ko"]), zh),
    ] {
        let page = app
            .call_as("/feed/list", json!({ "langs": langs }), "en", None)
            .await;
        let ids: Vec<&Value> = page["list"]
            .as_array()
            .expect("list")
            .iter()
            .map(|c| &c["id"])
            .collect();
        assert_eq!(ids, [&json!(card)], "{langs}");
    }
    let split = |feed_id: i64, token: &'static str| {
        let app = &app;
        async move {
            app.post_with(
                "/admin/story/split",
                json!({ "feed_id": feed_id }),
                &[("X-ADMIN-TOKEN", token)],
            )
            .await
        }
    };
    let (status, refused) = split(ko, "wrong").await;
    assert_eq!((status.as_u16(), &refused["code"]), (403, &json!(4030)));
    let (status, done) = split(ko, ADMIN).await;
    assert_eq!(
        (status.as_u16(), &done["code"]),
        (200, &json!(2000)),
        "{done}"
    );
    assert_eq!(story_of(&app, ko).await, None);
    let detail = app
        .call_as("/story/detail", json!({ "id": story }), "en", None)
        .await;
    assert_eq!(detail["size"], 2);
    assert_eq!(detail["ahead_minutes"], 5);
    let page = app.call_as("/feed/list", json!({}), "en", None).await;
    let ids: Vec<i64> = page["list"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|c| c["id"].as_i64())
        .collect();
    assert_eq!(ids, [ko, zh], "the split item has its own card");
    // Split again, or an unknown item: a clear refusal, nothing changed.
    let (status, again) = split(ko, ADMIN).await;
    assert_eq!(
        (status.as_u16(), &again["code"]),
        (200, &json!(4001)),
        "{again}"
    );
    let (status, unknown) = split(999_999, ADMIN).await;
    assert_eq!(status.as_u16(), 404, "{unknown}");
    // The split item joins no story again, though a new report matches it.
    let late = app
        .publish(item(
            "ko2",
            "ko",
            "노덱스 해킹 후속…Nordex 15억 달러 이더리움 추적",
            30,
            false,
        ))
        .await;
    assert_eq!(story_of(&app, late).await, Some(story));
    assert_eq!(story_of(&app, ko).await, None);
    // Splitting one of two ends the story.
    for id in [late, en] {
        let (_, done) = split(id, ADMIN).await;
        assert_eq!(done["code"], 2000, "{done}");
    }
    assert_eq!(story_of(&app, zh).await, None);
    let (status, gone) = app.post("/story/detail", json!({ "id": story })).await;
    assert_eq!(
        (status.as_u16(), &gone["code"]),
        (404, &json!(4040)),
        "{gone}"
    );
    let (status, bad) = app.post("/story/detail", json!({ "id": "one" })).await;
    assert_eq!(
        (status.as_u16(), &bad["code"]),
        (400, &json!(4000)),
        "{bad}"
    );
}

/// Each of an item's keys brings only its latest items as candidates: a report still finds its
/// story when more than that many newer items share its common keys (the same two tokens), since
/// its own keys (the exchange's name, the amount) bring the earlier report.
async fn a_report_finds_its_story_past_many_items_sharing_its_tokens(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let now = app.state.now();
    let item = |slug: String, lang: &str, title: String, ago: i64| {
        json!({ "source_url": format!("https://news.test/{slug}"), "kind": "flash",
            "lang": lang, "title": title, "published_at": now - ago, "tokens": ["BTC", "ETH"] })
    };
    let first = app
        .publish(item(
            "first".into(),
            "en",
            "Exchange Nordex hacked for $1.5 billion in ether".into(),
            10 * 3600,
        ))
        .await;
    let mut others = Vec::new();
    for n in 0..30 {
        let title = format!("Market wrap {n}: traders weigh week {n} of the rally");
        let ago = 9 * 3600 - n * 600;
        others.push(
            app.publish(item(format!("wrap-{n}"), "en", title, ago))
                .await,
        );
    }
    let report = app
        .publish(item(
            "report".into(),
            "zh-Hans",
            "交易所 Nordex 被盗约 15亿美元 ETH".into(),
            1800,
        ))
        .await;
    let story = story_of(&app, first)
        .await
        .expect("the report joined the first");
    assert_eq!(story_of(&app, report).await, Some(story));
    let detail = app
        .call_as("/story/detail", json!({ "id": story }), "en", None)
        .await;
    assert_eq!(detail["size"], 2, "{detail}");
    for other in others {
        assert_ne!(story_of(&app, other).await, Some(story), "wrap {other}");
    }
}

/// Three sites report one event at the same moment, as breaking news arrives: the three
/// reports, stored concurrently, form one story of three (on PostgreSQL each used to look for
/// the others before any was committed, and all three stayed alone).
async fn reports_stored_at_once_form_one_story(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let now = app.state.now();
    let report = |site: &str, title: String, name: &str| {
        json!({ "source_url": format!("https://{site}/{name}"), "kind": "flash", "lang": "en",
            "title": title, "published_at": now, "tokens": ["ETH"] })
    };
    // Five events at once, three sites each: fifteen stores in flight together.
    let events = ["Nordex", "Kestrel", "Vortexa", "Quokka", "Zephyr"];
    let reports = events.iter().flat_map(|name| {
        [
            (
                "a.example",
                format!("Exchange {name} hacked for $1.5 billion in ether"),
            ),
            (
                "b.example",
                format!("{name} exchange hacked, $1.5 billion in ether gone"),
            ),
            (
                "c.example",
                format!("Hackers drain $1.5 billion in ether from exchange {name}"),
            ),
        ]
        .map(|(site, title)| report(site, title, name))
    });
    let ids = futures_util::future::join_all(reports.map(|r| app.publish(r))).await;
    for (event, ids) in events.iter().zip(ids.chunks(3)) {
        let story = story_of(&app, ids[0]).await;
        assert!(story.is_some(), "{event}: not grouped");
        for id in &ids[1..] {
            assert_eq!(story_of(&app, *id).await, story, "{event}");
        }
    }
}

/// A story gathers reports within a day of its first: a later event that reads the same starts
/// a story of its own, and the first story's lead claim is not made from it.
async fn a_story_gathers_reports_within_a_day_of_its_first(backend: Backend) {
    let app = TestApp::start_with(backend, |c| c.admin_token = Some(ADMIN.to_owned())).await;
    let now = app.state.now();
    let report = |site: &str, lang: &str, title: &str, hours_ago: i64| {
        json!({ "source_url": format!("https://{site}/sol-etf-{hours_ago}"), "kind": "flash",
            "lang": lang, "title": title, "published_at": now - hours_ago * 3600, "tokens": ["SOL"] })
    };
    let hk = app
        .publish(report(
            "hk.example",
            "en",
            "Regulator approves first spot Solana ETF",
            38,
        ))
        .await;
    let hk_en = app
        .publish(report(
            "wire.example",
            "en",
            "Regulator approves first spot Solana ETF",
            37,
        ))
        .await;
    let story = story_of(&app, hk).await.expect("grouped");
    assert_eq!(story_of(&app, hk_en).await, Some(story));
    // Word for word the same, a day and a half later: another regulator, another event.
    let sec = app
        .publish(report(
            "us.example",
            "en",
            "Regulator approves first spot Solana ETF",
            0,
        ))
        .await;
    assert_ne!(story_of(&app, sec).await, Some(story));
    let detail = app
        .call_as("/feed/detail", json!({ "id": hk }), "en", None)
        .await;
    assert_eq!(detail["story"]["size"], 2, "{detail}");
}

on_both_databases!(
    the_labelled_set_groups_with_high_precision_and_recall,
    an_admin_splits_a_misgrouped_item_off,
    a_report_finds_its_story_past_many_items_sharing_its_tokens,
    reports_stored_at_once_form_one_story,
    a_story_gathers_reports_within_a_day_of_its_first,
);
