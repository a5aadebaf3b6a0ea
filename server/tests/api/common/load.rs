//! What the tests that put a real server under load share: tracking batches they can find again,
//! and an S3-compatible store (moto) on loopback.

use std::collections::HashMap;
use std::process::Command;

use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use server::entity::track_log;

use super::{Peer, free_port};

/// A `/log/track` body: `n` entries of `event` stamped now, each carrying `batch`.
pub fn track_batch(event: &str, batch: i64, n: usize) -> Value {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let entries: Vec<Value> = (0..n)
        .map(|k| {
            json!({ "type": "view", "event": event, "time": now_ms,
                          "prop": { "batch": batch, "k": k } })
        })
        .collect();
    json!({ "track_logs": entries })
}

/// How many entries of `event` the table holds for each batch.
pub async fn stored_batches(db: &DatabaseConnection, event: &str) -> HashMap<i64, usize> {
    let mut stored = HashMap::new();
    for row in track_log::Entity::find()
        .filter(track_log::Column::Event.eq(event))
        .all(db)
        .await
        .expect("rows")
    {
        let prop: Value = serde_json::from_str(&row.prop).expect("JSON");
        *stored
            .entry(prop["batch"].as_i64().expect("batch"))
            .or_default() += 1;
    }
    stored
}

/// moto's S3 server on loopback with `bucket` made: the peer (stopped when dropped) and its URL.
pub async fn s3_with_bucket(bucket: &str) -> (Peer, String) {
    let port = free_port();
    let mut moto = Command::new("python3");
    moto.args([
        "-m",
        "moto.server",
        "-H",
        "127.0.0.1",
        "-p",
        &port.to_string(),
    ]);
    let peer = Peer::start(moto, port).await;
    let url = format!("http://127.0.0.1:{port}");
    let made = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
        .put(format!("{url}/{bucket}"))
        .send()
        .await
        .expect("create bucket");
    assert!(made.status().is_success(), "{made:?}");
    (peer, url)
}
