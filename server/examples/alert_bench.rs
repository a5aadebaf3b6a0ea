//! `make bench-alerts`: (1) 100,000 readers with 3 alert rules each (keywords in English,
//! Chinese and Korean, tokens and tags mixed), one new item matched against all of them through
//! client-core's `AlertIndex`, for 1,000 items: p50, p99 and max per item; (2) 10,000 encrypted,
//! signed pushes to a local push service that answers as real ones do, 64 in flight: pushes a
//! second; (3) the whole way, on the server's own queue, worker and SQLite database: 1,000
//! readers with an instant alert each and a browser at the local push service, 100 items stored
//! 100 ms apart, each matching 10 of them: the time from an item's store returning to each push
//! reaching the push service (p50, p99, max; the issue asks p99 < 10 s). Prints one JSON line.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use client_core::alert::{AlertIndex, AlertItem, AlertRule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use server::alerts::push::{Notice, PushKeys, Pushed, Pusher, Urgency};
use server::alerts::push::{Subscription, SubscriptionKeys};
use server::alerts::rules::AlertInput;
use server::config::{Config, PushSettings};
use server::entity::push_subscription;
use server::platform::{OsRandom, SystemClock};
use server::state::AppState;
use tokio::sync::Semaphore;
use web_push_native::p256;

const READERS: usize = 100_000;
const RULES_EACH: usize = 3;
const ITEMS: usize = 1_000;
const PUSHES: usize = 10_000;
const IN_FLIGHT: usize = 64;
const E2E_READERS: usize = 1_000;
const E2E_ITEMS: usize = 100;
const E2E_SPACING: Duration = Duration::from_millis(100);

/// A vocabulary skewed as news is: a few words everywhere, most rare.
struct Words {
    latin: Vec<String>,
    cjk: Vec<String>,
}

impl Words {
    fn new() -> Self {
        let latin = (0..5_000).map(|n| format!("w{n}")).collect();
        let cjk = [
            "比特币",
            "以太坊",
            "监管",
            "비트코인",
            "거래소",
            "现货",
            "减半",
            "稳定币",
        ]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
        Self { latin, cjk }
    }

    /// Index `n` of `len`, drawn with a heavy head (squared uniform).
    fn skewed(rng: &mut StdRng, len: usize) -> usize {
        let u: f64 = rng.r#gen();
        ((u * u) * len as f64) as usize % len
    }

    fn word(&self, rng: &mut StdRng) -> String {
        self.latin[Self::skewed(rng, self.latin.len())].clone()
    }
}

fn rule(rng: &mut StdRng, words: &Words) -> AlertRule {
    let mut rule = AlertRule::default();
    match rng.gen_range(0..4) {
        0 => rule.keywords = (0..rng.gen_range(1..4)).map(|_| words.word(rng)).collect(),
        1 => rule.tokens = vec![format!("T{}", Words::skewed(rng, 500))],
        2 => rule.tags = vec![format!("tag{}", Words::skewed(rng, 200))],
        _ => {
            rule.keywords = vec![
                words.cjk[rng.gen_range(0..words.cjk.len())].clone(),
                format!("\"{} {}\"", words.word(rng), words.word(rng)),
                format!("-{}", words.word(rng)),
            ];
            rule.only_important = rng.gen_bool(0.5);
        }
    }
    rule
}

fn item(rng: &mut StdRng, words: &Words) -> AlertItem {
    let mut text: Vec<String> = (0..150).map(|_| words.word(rng)).collect();
    text.push(words.cjk[rng.gen_range(0..words.cjk.len())].clone());
    AlertItem {
        important: rng.gen_bool(0.2),
        langs: vec!["en".to_owned(), "zh-Hans".to_owned()],
        tokens: (0..2)
            .map(|_| format!("T{}", Words::skewed(rng, 500)))
            .collect(),
        tags: (0..3)
            .map(|_| format!("tag{}", Words::skewed(rng, 200)))
            .collect(),
        texts: vec![text[..12].join(" "), text.join(" ")],
        ..AlertItem::default()
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() {
    let mut rng = StdRng::seed_from_u64(34);
    let words = Words::new();
    let built = Instant::now();
    let mut index = AlertIndex::new();
    for reader in 0..READERS {
        for n in 0..RULES_EACH {
            index.insert((reader, n), &rule(&mut rng, &words));
        }
    }
    let build_ms = built.elapsed().as_secs_f64() * 1000.0;
    let items: Vec<AlertItem> = (0..ITEMS).map(|_| item(&mut rng, &words)).collect();
    let mut times = Vec::with_capacity(ITEMS);
    let mut matched = 0usize;
    for item in &items {
        let started = Instant::now();
        matched += index.matching(item).len();
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);

    // Pushes: a local service that takes every message (201), as a real one does.
    let taken = Arc::new(AtomicUsize::new(0));
    let counter = taken.clone();
    let service = Router::new().route(
        "/push/{id}",
        post(move || {
            let counter = counter.clone();
            async move {
                counter.fetch_add(1, Ordering::Relaxed);
                StatusCode::CREATED
            }
        }),
    );
    let base = serve(service).await;
    let settings = PushSettings {
        push_contact: "mailto:bench@blockbrief.local".to_owned(),
        push_allow_loopback: true,
    };
    let keys = Arc::new(PushKeys::derive(b"bench secret").expect("keys"));
    let pusher = Pusher::new(keys, &settings).expect("pusher");
    // 100 browsers, each with its own keys, take the 10,000 messages in turn.
    let browsers: Arc<Vec<push_subscription::Model>> = Arc::new(
        (0..100)
            .map(|n| {
                let keys = browser_keys();
                push_subscription::Model {
                    id: n,
                    user_id: n,
                    endpoint: format!("{base}/push/{n}"),
                    p256dh: keys.p256dh,
                    auth: keys.auth,
                    created_at: 0,
                    retry_at: None,
                }
            })
            .collect(),
    );
    let notice = Arc::new(Notice {
        title: "Spot ETF inflows hit a record".to_owned(),
        body: "BlackRock's IBIT took in $1B on Monday, the most since launch.".to_owned(),
        url: "https://blockbrief.example/en/feed/12345".to_owned(),
        feed_id: Some(12_345),
    });
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    let started = Instant::now();
    let mut sends = tokio::task::JoinSet::new();
    for n in 0..PUSHES {
        let permit = slots.clone().acquire_owned().await.expect("slot");
        let (pusher, browsers, notice) = (pusher.clone(), browsers.clone(), notice.clone());
        sends.spawn(async move {
            let pushed = pusher
                .deliver(&browsers[n % browsers.len()], &notice, Urgency::Normal)
                .await;
            drop(permit);
            pushed == Pushed::Sent
        });
    }
    let mut sent = 0;
    while let Some(done) = sends.join_next().await {
        sent += usize::from(done.unwrap_or(false));
    }
    let seconds = started.elapsed().as_secs_f64();
    let stored_to_pushed = stored_to_pushed().await;
    println!(
        "{}",
        serde_json::json!({
            "rules": index.len(),
            "index_build_ms": build_ms.round(),
            "items": ITEMS,
            "matches_per_item": matched as f64 / ITEMS as f64,
            "match_ms": { "p50": percentile(&times, 0.5), "p99": percentile(&times, 0.99),
                "max": times[times.len() - 1] },
            "pushes": PUSHES,
            "pushes_sent": sent,
            "pushes_taken": taken.load(Ordering::Relaxed),
            "pushes_per_second": (sent as f64 / seconds).round(),
            "stored_to_pushed": stored_to_pushed,
        })
    );
}

/// Serves `router` on a loopback port; gives its base URL.
async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// A browser's subscription keys: a fresh P-256 key and auth secret, base64url.
fn browser_keys() -> SubscriptionKeys {
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    let secret = p256::SecretKey::random(&mut rand::rngs::OsRng);
    let public = secret.public_key().to_encoded_point(false);
    SubscriptionKeys {
        p256dh: URL_SAFE_NO_PAD.encode(public.as_bytes()),
        auth: URL_SAFE_NO_PAD.encode(rand::random::<[u8; 16]>()),
    }
}

/// (3): items stored through the server's own write path, matched and pushed by its alert worker;
/// milliseconds from each store returning to each of its pushes reaching the push service.
async fn stored_to_pushed() -> serde_json::Value {
    let arrived: Arc<Mutex<Vec<(usize, Instant)>>> = Arc::default();
    let log = arrived.clone();
    let service = Router::new().route(
        "/push/{reader}",
        post(move |Path(reader): Path<usize>| {
            let log = log.clone();
            async move {
                log.lock().expect("log").push((reader, Instant::now()));
                StatusCode::CREATED
            }
        }),
    );
    let base = serve(service).await;

    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::embedded(dir.path().join("data"));
    config.push.push_allow_loopback = true;
    std::fs::create_dir_all(&config.data_dir).expect("data dir");
    let db = server::open_database(&config).await.expect("database");
    let state =
        AppState::new(config, db, Arc::new(SystemClock), Arc::new(OsRandom)).expect("state");
    let ctx = &state.ctx;
    // Reader n alerts on "marsupialK" (K = n mod 100), from a browser at /push/n.
    for n in 0..E2E_READERS {
        let email = format!("reader{n}@bench.example");
        let (user, _) = server::auth::users::find_or_create(ctx, "email", &email, "", "en")
            .await
            .expect("reader");
        let input: AlertInput = serde_json::from_value(json!({
            "name": "Marsupials",
            "rule": { "keywords": [format!("marsupial{}", n % E2E_ITEMS)] },
            "deliver": ["push"],
            "mode": "instant",
        }))
        .expect("alert");
        server::alerts::rules::add(ctx, user.id, &input)
            .await
            .expect("alert added");
        let browser = Subscription {
            endpoint: format!("{base}/push/{n}"),
            keys: browser_keys(),
        };
        server::alerts::push::subscribe(ctx, &state.alerts.settings, user.id, &browser)
            .await
            .expect("subscribed");
    }
    state.ctx.events.listen();
    server::alerts::deliver::spawn(
        state.ctx.clone(),
        state.alerts.clone(),
        state.mailer.clone(),
        "bench".to_owned(),
    );
    let mut stored = Vec::with_capacity(E2E_ITEMS);
    for k in 0..E2E_ITEMS {
        let item = serde_json::from_value(json!({
            "source_url": format!("https://news.example/marsupial-{k}"),
            "kind": "flash",
            "lang": "en",
            "title": format!("Marsupial{k} exchange lists a new token"),
            "content": "<p>Trading opens at noon.</p>",
            "published_at": state.ctx.now(),
        }))
        .expect("item");
        server::content::write::upsert_feed(ctx, &state.linking, item)
            .await
            .expect("stored");
        stored.push(Instant::now());
        tokio::time::sleep(E2E_SPACING).await;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while arrived.lock().expect("log").len() < E2E_READERS && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let arrived = arrived.lock().expect("log").clone();
    let mut times: Vec<f64> = arrived
        .iter()
        .map(|(reader, at)| at.duration_since(stored[reader % E2E_ITEMS]).as_secs_f64() * 1000.0)
        .collect();
    times.sort_by(f64::total_cmp);
    json!({
        "readers": E2E_READERS,
        "items": E2E_ITEMS,
        "pushes_expected": E2E_READERS,
        "pushes_arrived": times.len(),
        "ms": { "p50": percentile(&times, 0.5), "p99": percentile(&times, 0.99),
            "max": times.last().copied().unwrap_or(f64::NAN) },
    })
}
