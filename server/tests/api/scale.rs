//! Two servers on one PostgreSQL and one S3-compatible store (moto), behind no proxy, under a
//! mixed load of readers (sign-ins, follows, task collects, uploads, feedback, tracking), one of
//! them killed with `kill -9` halfway: every write answered with success is there afterwards, no
//! award is paid twice, no upload is missing and no stored file is unknown.
//!
//! `make test` runs it for SCALE_SECONDS=6; `make test-scale` for 60 s, printing its figures.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::multipart::{Form, Part};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use server::entity::{feedback, follow, point_ledger, upload};

use crate::common::binary::Binary;
use crate::common::images::png;
use crate::common::load::{s3_with_bucket, stored_batches, track_batch};
use crate::common::{Backend, SmtpServer, database_url};

const BUCKET: &str = "blockbrief-scale";
const PUBLIC_URL: &str = "http://blockbrief.test";
const READERS: i64 = 8;

/// What the servers answered with success.
#[derive(Default)]
struct Acknowledged {
    follows: Vec<(i64, i64)>,
    collects: Vec<(i64, i64)>,
    uploads: Vec<String>,
    feedback: Vec<i64>,
    batches: Vec<i64>,
}

struct Load {
    http: reqwest::Client,
    servers: [String; 2],
    /// The first server was killed.
    killed: AtomicBool,
    acknowledged: Mutex<Acknowledged>,
    requests: AtomicU64,
    unanswered: AtomicU64,
}

impl Load {
    /// The server for the `n`th request: either, until the first is killed.
    fn server(&self, n: i64) -> &str {
        let first = n % 2 == 0 && !self.killed.load(Ordering::Acquire);
        &self.servers[usize::from(!first)]
    }

    /// POSTs JSON; `None` when no answer came (the server was killed).
    async fn post(&self, base: &str, path: &str, body: Value, token: &str) -> Option<Value> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let sent = self
            .http
            .post(format!("{base}/api{path}"))
            .header("X-TOKEN", token)
            .json(&body)
            .send()
            .await;
        self.answer(sent).await
    }

    async fn answer(&self, sent: reqwest::Result<reqwest::Response>) -> Option<Value> {
        match sent {
            Ok(response) => {
                assert!(response.status().as_u16() < 500, "{response:?}");
                response.json().await.ok()
            }
            Err(_) => {
                self.unanswered.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    fn record(&self, write: impl FnOnce(&mut Acknowledged)) {
        write(&mut self.acknowledged.lock().expect("lock"));
    }
}

/// The code mailed to `email`, read from the SMTP server's mailbox.
async fn mailed_code(smtp: &SmtpServer, email: &str) -> String {
    for _ in 0..200 {
        for entry in std::fs::read_dir(smtp.maildir.join("new"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let raw = std::fs::read(entry.path()).unwrap_or_default();
            let text = String::from_utf8_lossy(&raw);
            let code = text
                .lines()
                .find_map(|l| l.strip_prefix("Subject: Your Blockbrief sign-in code: "));
            if let Some(code) = code.filter(|_| text.contains(&format!("To: {email}"))) {
                return code.trim().to_owned();
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no code for {email}");
}

async fn reader(load: Arc<Load>, smtp: Arc<SmtpServer>, n: i64, deadline: Instant, tags: Vec<i64>) {
    let email = format!("reader{n}@example.org");
    let base = load.server(n).to_owned();
    let sent = load
        .post(
            &base,
            "/otp/email",
            json!({ "email": email, "purpose": "login" }),
            "",
        )
        .await
        .expect("the code is sent before the kill");
    assert_eq!(sent["code"], 2000, "{sent}");
    let code = mailed_code(&smtp, &email).await;
    let session = load
        .post(
            &base,
            "/user/login/email",
            json!({ "email": email, "otp": code }),
            "",
        )
        .await
        .expect("signed in before the kill");
    let token = session["data"]["token"].as_str().expect("token").to_owned();
    let user = session["data"]["id"].as_i64().expect("id");
    let tasks = load
        .post(
            &base,
            "/point/task/list",
            json!({ "group": "novice" }),
            &token,
        )
        .await
        .expect("tasks");
    let join = tasks["data"]["list"]
        .as_array()
        .and_then(|l| l.iter().find(|t| t["event_type"] == "rate_app"))
        .and_then(|t| t["point_id"].as_i64())
        .expect("the rate_app task");
    let mut i = n;
    while Instant::now() < deadline {
        i += 1;
        let base = load.server(i).to_owned();
        match i % 4 {
            0 => {
                let tag = tags[(i as usize) % tags.len()];
                let got = load
                    .post(&base, "/tag/follow/add", json!({ "tag_id": tag }), &token)
                    .await;
                if got.is_some_and(|b| b["code"] == 2000) {
                    load.record(|a| a.follows.push((user, tag)));
                }
            }
            1 => {
                let batch = n * 1_000_000 + i;
                let body = track_batch("scale.test", batch, 3);
                let got = load.post(&base, "/log/track", body, &token).await;
                if got.is_some_and(|b| b["code"] == 2000 && b["data"]["accepted"] == 3) {
                    load.record(|a| a.batches.push(batch));
                }
            }
            2 => {
                let part = Part::bytes(png(4, 4, None))
                    .file_name("a.png")
                    .mime_str("image/png")
                    .expect("mime");
                load.requests.fetch_add(1, Ordering::Relaxed);
                let sent = load
                    .http
                    .post(format!("{base}/api/img/upload/feedback/v2"))
                    .header("X-TOKEN", &token)
                    .multipart(Form::new().part("img_file", part))
                    .send()
                    .await;
                let Some(got) = load.answer(sent).await.filter(|b| b["code"] == 2000) else {
                    continue;
                };
                let url = got["data"]["absolute"].as_str().expect("url").to_owned();
                load.record(|a| {
                    a.uploads
                        .push(url.rsplit('/').next().unwrap_or_default().to_owned())
                });
                let form = json!({ "type": "bug", "content": "Seen under load", "images": [url] });
                let got = load.post(&base, "/feedback/create", form, &token).await;
                if let Some(id) = got
                    .filter(|b| b["code"] == 2000)
                    .and_then(|b| b["data"]["id"].as_i64())
                {
                    load.record(|a| a.feedback.push(id));
                }
            }
            _ => {
                let report = json!({ "event_type": "rate_app" });
                load.post(&base, "/point/task_event_report", report, &token)
                    .await;
                // The same collect twice at once, on both servers while both run: it pays once.
                let collect = json!({ "point_id": join });
                let (a, b) = tokio::join!(
                    load.post(load.server(0), "/point/collect", collect.clone(), &token),
                    load.post(load.server(1), "/point/collect", collect, &token),
                );
                for got in [a, b].into_iter().flatten() {
                    if got["code"] == 2000 {
                        load.record(|a| a.collects.push((user, join)));
                    }
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_two_servers_lose_nothing_when_one_is_killed() {
    let seconds: u64 = std::env::var("SCALE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let (_s3, s3) = s3_with_bucket(BUCKET).await;
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let smtp = Arc::new(SmtpServer::start().await);
    let dir = tempfile::tempdir().expect("temp dir");
    let database = database_url(Backend::Postgres, dir.path()).await;
    let store = format!("s3://{BUCKET}/media");
    let smtp_url = smtp.url();
    let env = |demo: &'static str| {
        [
            ("DATABASE_URL", database.clone()),
            ("PUBLIC_URL", PUBLIC_URL.to_owned()),
            ("UPLOAD_STORE", store.clone()),
            ("AWS_ENDPOINT", s3.clone()),
            ("AWS_ALLOW_HTTP", "true".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
            ("AWS_ACCESS_KEY_ID", "test".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "test".to_owned()),
            ("SMTP_URL", smtp_url.clone()),
            ("DEMO_CONTENT", demo.to_owned()),
            // The app is in a store: its rating task is the one readers report and collect.
            (
                "APP_STORE_URL",
                "https://apps.apple.com/app/blockbrief/id6450000001".to_owned(),
            ),
        ]
    };
    let start = |name: &str, demo: &'static str| {
        let data = dir.path().join(name);
        let env = env(demo);
        async move {
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            Binary::start(&data, &env).await
        }
    };
    // The first loads the demo content into the empty database; the second starts after it.
    let mut first = start("a", "true").await;
    let second = start("b", "false").await;
    let load = Arc::new(Load {
        http: http.clone(),
        servers: [first.base(), second.base()],
        killed: AtomicBool::new(false),
        acknowledged: Mutex::new(Acknowledged::default()),
        requests: AtomicU64::new(0),
        unanswered: AtomicU64::new(0),
    });
    let tags: Vec<i64> = load
        .post(&load.servers[1], "/tag/list", json!({ "limit": 20 }), "")
        .await
        .expect("tags")["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|t| t["id"].as_i64())
        .collect();
    assert!(!tags.is_empty());

    let began = Instant::now();
    let deadline = began + Duration::from_secs(seconds);
    let readers: Vec<_> = (0..READERS)
        .map(|n| {
            tokio::spawn(reader(
                load.clone(),
                smtp.clone(),
                n,
                deadline,
                tags.clone(),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(seconds) / 2).await;
    load.killed.store(true, Ordering::Release);
    first.kill();
    for r in readers {
        r.await.expect("reader");
    }
    let elapsed = began.elapsed().as_secs_f64();

    let db = sea_orm::Database::connect(&database)
        .await
        .expect("database");
    let acknowledged = std::mem::take(&mut *load.acknowledged.lock().expect("lock"));
    let follows: HashSet<(i64, i64)> = follow::Entity::find()
        .filter(follow::Column::Kind.eq("tag"))
        .all(&db)
        .await
        .expect("follows")
        .into_iter()
        .map(|f| (f.user_id, f.target_id))
        .collect();
    for pair in &acknowledged.follows {
        assert!(
            follows.contains(pair),
            "follow {pair:?} answered 2000 but missing"
        );
    }
    let ledger = point_ledger::Entity::find().all(&db).await.expect("ledger");
    let mut paid: HashMap<(i64, i64, String), usize> = HashMap::new();
    for row in &ledger {
        *paid
            .entry((row.user_id, row.task_id, row.period.clone()))
            .or_default() += 1;
    }
    assert!(
        paid.values().all(|n| *n == 1),
        "an award paid twice: {paid:?}"
    );
    let mut collected: HashMap<(i64, i64), usize> = HashMap::new();
    for pair in &acknowledged.collects {
        *collected.entry(*pair).or_default() += 1;
    }
    for ((user, task), n) in &collected {
        assert_eq!(*n, 1, "user {user} was answered twice for task {task}");
        assert!(
            ledger
                .iter()
                .any(|r| r.user_id == *user && r.task_id == *task)
        );
    }
    let rows: HashSet<String> = upload::Entity::find()
        .all(&db)
        .await
        .expect("uploads")
        .into_iter()
        .map(|u| u.key)
        .collect();
    let listing = http
        .get(format!("{s3}/{BUCKET}?list-type=2&max-keys=10000"))
        .send()
        .await
        .expect("list")
        .text()
        .await
        .expect("listing");
    let objects: HashSet<String> = listing
        .split("<Key>")
        .skip(1)
        .filter_map(|k| k.split("</Key>").next())
        .map(|k| k.trim_start_matches("media/").to_owned())
        .collect();
    for name in &acknowledged.uploads {
        let key = format!("feedback/{name}");
        assert!(
            rows.contains(&key) && objects.contains(&key),
            "upload {key} missing"
        );
    }
    for key in &objects {
        assert!(
            rows.contains(key),
            "stored file {key} is unknown (orphaned)"
        );
    }
    let feedback_ids: HashSet<i64> = feedback::Entity::find()
        .all(&db)
        .await
        .expect("feedback")
        .into_iter()
        .map(|f| f.id)
        .collect();
    for id in &acknowledged.feedback {
        assert!(feedback_ids.contains(id), "feedback {id} missing");
    }
    let entries = stored_batches(&db, "scale.test").await;
    for batch in &acknowledged.batches {
        assert_eq!(
            entries.get(batch),
            Some(&3),
            "batch {batch} not stored whole"
        );
    }
    assert!(
        acknowledged.batches.len() > 10 && !acknowledged.follows.is_empty(),
        "too little load to judge"
    );
    let requests = load.requests.load(Ordering::Relaxed);
    println!(
        "scale: {READERS} readers on 2 servers for {elapsed:.1} s, the first killed at {:.1} s: \
         {requests} requests ({:.0}/s), {} unanswered (the killed server's); acknowledged and \
         found after: {} follows, {} collects ({} ledger rows, none twice), {} uploads ({} files, \
         none unknown), {} feedback, {} tracking batches",
        seconds as f64 / 2.0,
        requests as f64 / elapsed,
        load.unanswered.load(Ordering::Relaxed),
        acknowledged.follows.len(),
        acknowledged.collects.len(),
        ledger.len(),
        acknowledged.uploads.len(),
        objects.len(),
        acknowledged.feedback.len(),
        acknowledged.batches.len(),
    );
}
