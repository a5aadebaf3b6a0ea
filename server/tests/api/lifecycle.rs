//! The server binary as an operator runs it: SIGTERM stops accepting, lets requests in flight
//! finish (at most 10 s) and exits 0; `kill -9` loses nothing that was acknowledged.

use std::path::Path;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::binary::Binary;
use crate::common::load::{stored_batches, track_batch};
use crate::common::{Backend, database_url};

/// The binary on `database` (empty: SQLite under `dir`), behind a trusted proxy on loopback.
async fn start_on(dir: &Path, database: &str) -> Binary {
    Binary::start(
        dir,
        &[("DATABASE_URL", database), ("TRUST_PROXY", "127.0.0.1")],
    )
    .await
}

async fn start() -> (Binary, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    (start_on(dir.path(), "").await, dir)
}

const BODY: &str =
    r#"{"type":"bug","content":"sent slowly, before and after SIGTERM","images":[]}"#;

/// A request whose body is only half sent: in flight until the rest comes. It asks to continue
/// (`Expect: 100-continue`) and waits for the server's "100 Continue", which hyper sends when the
/// handler first reads the body: only then is the request surely in flight (a connection still
/// sending its head is closed at once on SIGTERM), however slow the machine.
async fn half_sent(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let head = format!(
        "POST /api/feedback/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        BODY.len()
    );
    stream.write_all(head.as_bytes()).await.expect("head");
    let mut interim = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while !interim.ends_with(b"\r\n\r\n") {
            interim.push(stream.read_u8().await.expect("the interim answer"));
        }
    })
    .await
    .expect("the server asks for the body within 10 s");
    assert!(
        interim.starts_with(b"HTTP/1.1 100 Continue"),
        "{}",
        String::from_utf8_lossy(&interim)
    );
    stream
        .write_all(&BODY.as_bytes()[..20])
        .await
        .expect("half");
    stream
}

fn terminate(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

async fn exit_within(child: &mut Child, limit: Duration) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        assert!(started.elapsed() < limit, "still running after {limit:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn sigterm_finishes_requests_in_flight_then_exits_zero() {
    let (mut server, _dir) = start().await;
    let mut in_flight = half_sent(server.port).await;
    terminate(&server.child);
    let signalled = Instant::now();
    while TcpStream::connect(("127.0.0.1", server.port)).await.is_ok() {
        assert!(
            signalled.elapsed() < Duration::from_secs(5),
            "no new connection is accepted once stopping"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    in_flight
        .write_all(&BODY.as_bytes()[20..])
        .await
        .expect("rest of the body");
    let mut answer = String::new();
    in_flight.read_to_string(&mut answer).await.expect("answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""code":2000"#), "{answer}");
    let status = exit_within(&mut server.child, Duration::from_secs(5)).await;
    assert_eq!(status.code(), Some(0));
}

#[tokio::test]
async fn a_request_that_never_finishes_holds_the_stop_at_most_ten_seconds() {
    let (mut server, _dir) = start().await;
    let _stuck = half_sent(server.port).await;
    let signalled = Instant::now();
    terminate(&server.child);
    let status = exit_within(&mut server.child, Duration::from_secs(13)).await;
    assert_eq!(status.code(), Some(0));
    assert!(
        signalled.elapsed() >= Duration::from_secs(9),
        "it waited for the request"
    );
}

/// Eight loops send tracking batches, each from its own client address, until the server is
/// killed with SIGKILL; after a restart every batch that was answered 2000 is in the table,
/// whole.
async fn kill_9_during_tracking_loses_no_acknowledged_batch(backend: Backend) {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = match backend {
        Backend::Sqlite => String::new(),
        Backend::Postgres => database_url(backend, dir.path()).await,
    };
    let mut server = start_on(dir.path(), &database).await;
    let url = format!("http://127.0.0.1:{}/api/log/track", server.port);
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let loops: Vec<_> = (0..8)
        .map(|task| {
            let (url, acknowledged) = (url.clone(), acknowledged.clone());
            tokio::spawn(async move {
                let http = reqwest::Client::new();
                for i in 0_i64.. {
                    let batch = task * 1_000_000 + i;
                    let sent = http
                        .post(&url)
                        .header(
                            "X-Forwarded-For",
                            format!("10.{task}.{}.{}", i / 250, i % 250),
                        )
                        .json(&track_batch("crash.test", batch, 5))
                        .send()
                        .await;
                    let Ok(response) = sent else { break };
                    let Ok(body) = response.json::<Value>().await else {
                        break;
                    };
                    if body["code"] == 2000 && body["data"]["accepted"] == 5 {
                        acknowledged.lock().expect("lock").push(batch);
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill();
    for l in loops {
        l.await.expect("loop");
    }
    let acknowledged = acknowledged.lock().expect("lock").clone();
    assert!(
        acknowledged.len() >= 20,
        "only {} batches",
        acknowledged.len()
    );

    let _restarted = start_on(dir.path(), &database).await;
    let url = if database.is_empty() {
        format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("data/blockbrief.db").display()
        )
    } else {
        database.clone()
    };
    let db = sea_orm::Database::connect(&url).await.expect("database");
    let stored = stored_batches(&db, "crash.test").await;
    let missing: Vec<&i64> = acknowledged
        .iter()
        .filter(|b| stored.get(b) != Some(&5))
        .collect();
    assert!(
        missing.is_empty(),
        "acknowledged but not stored whole: {missing:?}"
    );
}

on_both_databases!(kill_9_during_tracking_loses_no_acknowledged_batch);
