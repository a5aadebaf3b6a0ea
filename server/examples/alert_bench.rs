//! `make bench-alerts`: (1) 100,000 readers with 3 alert rules each (keywords in English,
//! Chinese and Korean, tokens and tags mixed), one new item matched against all of them through
//! client-core's `AlertIndex`, for 1,000 items: p50, p99 and max per item; (2) 10,000 encrypted,
//! signed pushes to a local push service that answers as real ones do, 64 in flight: pushes a
//! second. Prints one JSON line.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use client_core::alert::{AlertIndex, AlertItem, AlertRule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use server::alerts::push::{Notice, PushKeys, Pushed, Pusher, Urgency};
use server::config::PushSettings;
use server::entity::push_subscription;
use tokio::sync::Semaphore;
use web_push_native::p256;

const READERS: usize = 100_000;
const RULES_EACH: usize = 3;
const ITEMS: usize = 1_000;
const PUSHES: usize = 10_000;
const IN_FLIGHT: usize = 64;

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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    tokio::spawn(async move { axum::serve(listener, service).await });
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
                use p256::elliptic_curve::sec1::ToEncodedPoint;
                let secret = p256::SecretKey::random(&mut rand::rngs::OsRng);
                let public = secret.public_key().to_encoded_point(false);
                push_subscription::Model {
                    id: n,
                    user_id: n,
                    endpoint: format!("{base}/push/{n}"),
                    p256dh: URL_SAFE_NO_PAD.encode(public.as_bytes()),
                    auth: URL_SAFE_NO_PAD.encode(rand::random::<[u8; 16]>()),
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
        })
    );
}
