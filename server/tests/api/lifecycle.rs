//! The server binary as an operator runs it: SIGTERM stops accepting, lets requests in flight
//! finish (at most 10 s) and exits 0.

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::free_port;

struct Running {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start() -> Running {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_blockbrief"))
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("DATA_DIR", dir.path().join("data"))
        .env("WEB_DIR", dir.path().join("no-web"))
        .env("DATABASE_URL", "")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("server starts");
    // Owned before waiting, so a server that never listens is still killed and reaped.
    let running = Running {
        child,
        port,
        _dir: dir,
    };
    for _ in 0..300 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return running;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not listen");
}

const BODY: &str =
    r#"{"type":"bug","content":"sent slowly, before and after SIGTERM","images":[]}"#;

/// A request whose body is only half sent: in flight until the rest comes.
async fn half_sent(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    let head = format!(
        "POST /api/feedback/create HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        BODY.len()
    );
    stream.write_all(head.as_bytes()).await.expect("head");
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
    let mut server = start().await;
    let mut in_flight = half_sent(server.port).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    terminate(&server.child);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        TcpStream::connect(("127.0.0.1", server.port))
            .await
            .is_err(),
        "no new connection is accepted once stopping"
    );
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
    let mut server = start().await;
    let _stuck = half_sent(server.port).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let signalled = Instant::now();
    terminate(&server.child);
    let status = exit_within(&mut server.child, Duration::from_secs(13)).await;
    assert_eq!(status.code(), Some(0));
    assert!(
        signalled.elapsed() >= Duration::from_secs(9),
        "it waited for the request"
    );
}
