//! `make bench-stream`'s clients: opens STREAMS live streams on one server, then upserts ITEMS
//! important items one after another through an admin (optionally on another server) and times
//! each item from its upsert returning to every stream receiving it. Prints `opened`, one JSON
//! line of figures once a `go` line comes on stdin, then `holding` and keeps the streams open until its stdin closes, so the
//! script can measure the server meanwhile.
//!
//! Usage: stream_load <stream base URL> <upsert base URL> <admin token> <streams> <items>

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use std::io::{BufRead, Read, StdinLock};
use tokio::sync::{Mutex, Notify, Semaphore};

/// Streams opened at once (the listen backlog would drop a burst of 10,000).
const OPENING_AT_ONCE: usize = 200;
/// An item that has not reached every stream by then counts as lost.
const ITEM_WAIT: Duration = Duration::from_secs(10);

struct Shared {
    /// `received[k]`: when each stream saw item `k`.
    received: Vec<Mutex<Vec<Instant>>>,
    /// Streams that saw each item, to know when an item is everywhere.
    counts: Vec<AtomicUsize>,
    changed: Notify,
    opened: AtomicUsize,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, stream_base, upsert_base, admin, streams, items] = &args[..] else {
        eprintln!("usage: stream_load <stream base> <upsert base> <admin token> <streams> <items>");
        std::process::exit(2);
    };
    let streams: usize = streams.parse().expect("streams is a number");
    let items: usize = items.parse().expect("items is a number");
    let shared = Arc::new(Shared {
        received: (0..items).map(|_| Mutex::new(Vec::new())).collect(),
        counts: (0..items).map(|_| AtomicUsize::new(0)).collect(),
        changed: Notify::new(),
        opened: AtomicUsize::new(0),
    });
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client");

    let gate = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    let started = Instant::now();
    for n in 0..streams {
        let permit = gate.clone().acquire_owned().await.expect("gate");
        let (http, shared) = (http.clone(), shared.clone());
        let url = format!("{stream_base}/api/stream?subjects=home");
        tokio::spawn(async move {
            listen(http, url, n, shared, permit).await;
        });
    }
    while shared.opened.load(Ordering::Relaxed) < streams {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let open_seconds = started.elapsed().as_secs_f64();
    println!("opened {streams} in {open_seconds:.1}s");
    // The script measures the server's memory, then says go.
    read_stdin(|input| input.read_line(&mut String::new())).await;

    let mut delays = Vec::new();
    let mut lost = 0;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    for k in 0..items {
        let body = serde_json::json!({
            "source_url": format!("https://bench.test/stream/{now}/{k}"),
            "kind": "flash",
            "lang": "en",
            "title": format!("Stream bench item {k}"),
            "important": true,
            "published_at": now,
        });
        let answer = http
            .post(format!("{upsert_base}/api/admin/feed/upsert"))
            .header("x-admin-token", admin.as_str())
            .json(&body)
            .send()
            .await
            .unwrap_or_else(|error| fail(&format!("upsert: {error}")));
        if !answer.status().is_success() {
            fail(&format!(
                "upsert: {}",
                answer.text().await.unwrap_or_default()
            ));
        }
        let returned = Instant::now();
        let deadline = tokio::time::Instant::now() + ITEM_WAIT;
        while shared.counts[k].load(Ordering::Relaxed) < streams {
            if tokio::time::timeout_at(deadline, shared.changed.notified())
                .await
                .is_err()
            {
                break;
            }
        }
        let seen = shared.received[k].lock().await;
        lost += streams - seen.len();
        delays.extend(
            seen.iter()
                .map(|at| at.saturating_duration_since(returned).as_secs_f64() * 1000.0),
        );
    }
    delays.sort_by(f64::total_cmp);
    let at =
        |q: f64| delays[((delays.len() as f64 * q).ceil() as usize).clamp(1, delays.len()) - 1];
    println!(
        "{}",
        serde_json::json!({
            "streams": streams,
            "items": items,
            "open_seconds": open_seconds,
            "p50_ms": at(0.50),
            "p99_ms": at(0.99),
            "max_ms": at(1.0),
            "lost": lost,
        })
    );
    println!("holding");
    // Until the script closes our stdin.
    read_stdin(|input| input.read_to_end(&mut Vec::new())).await;
}

fn fail(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(1);
}

/// Blocks a thread, not the clients, on the script's stdin.
async fn read_stdin(read: fn(&mut StdinLock<'static>) -> std::io::Result<usize>) {
    let _ = tokio::task::spawn_blocking(move || read(&mut std::io::stdin().lock())).await;
}

/// One stream: counts as opened at its `open` event, then notes when each item arrives.
async fn listen(
    http: reqwest::Client,
    url: String,
    n: usize,
    shared: Arc<Shared>,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    // Each stream from its own client address (the server trusts loopback's X-Forwarded-For),
    // as readers come; the per-client limit is about one address.
    let address = format!("100.64.{}.{}", n / 250 % 250, n % 250 + 1);
    let opened = http
        .get(url)
        .header("x-forwarded-for", address)
        .send()
        .await;
    let mut response = match opened {
        Ok(response) if response.status().is_success() => response,
        // A benchmark that lost a stream measures nothing: stop at once.
        Ok(response) => fail(&format!(
            "stream {n}: {}",
            response.text().await.unwrap_or_default()
        )),
        Err(error) => fail(&format!("stream {n}: {error}")),
    };
    let mut permit = Some(permit);
    let mut text = String::new();
    let mut item = 0;
    while let Ok(Some(chunk)) = response.chunk().await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            if block.contains("event: open") && permit.take().is_some() {
                shared.opened.fetch_add(1, Ordering::Relaxed);
            } else if block.contains("event: item") && item < shared.received.len() {
                shared.received[item].lock().await.push(Instant::now());
                shared.counts[item].fetch_add(1, Ordering::Relaxed);
                shared.changed.notify_one();
                item += 1;
            }
        }
    }
}
