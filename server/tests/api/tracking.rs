//! Tracking-log ingestion, on SQLite and PostgreSQL.

use crate::common::{Backend, START, TestApp, assert_error};
use sea_orm::EntityTrait;
use serde_json::{Value, json};
use server::entity::track_log;

fn entry(kind: &str, event: &str, time_ms: i64) -> Value {
    json!({ "type": kind, "event": event, "time": time_ms, "prop": { "from": "home", "ic": "AB12CD34" } })
}

async fn good_entries_are_kept_and_bad_ones_counted(backend: Backend) {
    let app = TestApp::start(backend).await;
    let now = START * 1000;
    let batch = json!({ "track_logs": [
        entry("click", "feed.card", now - 1000),
        entry("view", "page:/explore", now),
        entry("scroll", "feed.card", now),                     // unknown type
        entry("click", "", now),                               // no event
        entry("click", "<script>", now),                       // characters an event never has
        entry("view", "old", now - 8 * 24 * 3600 * 1000),      // a week and a day old
        { "type": "view", "event": "x", "time": "yesterday" }, // not a time
        { "type": "view", "event": "x", "time": now, "prop": [1, 2] },
        42,
    ]});
    let (_, got) = app.post("/log/track", batch).await;
    assert_eq!(
        got["data"],
        json!({ "accepted": 2, "rejected": 7 }),
        "{got}"
    );
    let (_, guest) = app.post("/user/gtoken", json!({})).await;
    let gtoken = guest["data"]["token"].as_str().expect("token");
    let one = json!({ "track_logs": [entry("view", "feed.detail", now)] });
    assert_eq!(
        app.post_with("/log/track", one, &[("X-GTOKEN", gtoken)])
            .await
            .1["data"]["accepted"],
        1
    );
    let rows = track_log::Entity::find()
        .all(&app.state.db)
        .await
        .expect("rows");
    assert_eq!(rows.len(), 3);
    assert_eq!(
        (
            rows[0].kind.as_str(),
            rows[0].event.as_str(),
            rows[0].time_ms
        ),
        ("click", "feed.card", now - 1000)
    );
    assert_eq!(
        serde_json::from_str::<Value>(&rows[0].prop).expect("prop"),
        json!({ "from": "home", "ic": "AB12CD34" })
    );
    assert!(rows[0].guest_id.is_none() && rows[2].guest_id.is_some());
    assert_eq!(
        app.post("/log/track", json!({ "track_logs": [] })).await.1["data"],
        json!({ "accepted": 0, "rejected": 0 })
    );
}

async fn oversized_batches_are_refused_whole(backend: Backend) {
    let app = TestApp::start(backend).await;
    // 10,000 tiny entries fit the byte limit but not the entry limit.
    let many: Vec<Value> = (0..10_000).map(|_| json!({})).collect();
    let got = app.post("/log/track", json!({ "track_logs": many })).await;
    assert_error(&got, 413, 4130);
    assert_eq!(got.1["msg"], "A batch holds at most 500 entries");
    // 300 KB of entries pass the entry limit but not the 256 KB byte limit.
    let fat: Vec<Value> = (0..300)
        .map(|_| entry("view", &"x".repeat(60), START * 1000))
        .map(|mut e| {
            e["prop"] = json!({ "pad": "y".repeat(900) });
            e
        })
        .collect();
    assert_error(
        &app.post("/log/track", json!({ "track_logs": fat })).await,
        413,
        4130,
    );
    assert_error(
        &app.post("/log/track", json!({ "logs": [] })).await,
        400,
        4000,
    );
    assert!(
        track_log::Entity::find()
            .all(&app.state.db)
            .await
            .expect("rows")
            .is_empty()
    );
}

on_both_databases!(
    good_entries_are_kept_and_bad_ones_counted,
    oversized_batches_are_refused_whole
);
