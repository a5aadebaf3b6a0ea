//! The live stream (`GET /api/stream`): new items, counts, comments and unread counts as they
//! happen, the way Mastodon's streaming API and Mercure's hub serve them.
//!
//! Features publish `Event::Live` and know nothing of streams. The server it happened on writes
//! it to the stream's log (`log`), which gives it the id every stream sends, then publishes
//! `Event::Logged`, which every server hears (`events`: on PostgreSQL by `NOTIFY`). Each server
//! prepares what it heard once (`delivery`) and hands it to its open streams through one bounded
//! broadcast; each stream keeps what its reader follows (`reader`). A reader who reconnects to
//! any server with `Last-Event-ID` is sent what the log still holds after it.

pub mod delivery;
pub mod log;
pub mod reader;
pub mod tickets;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client_core::envelope::ErrorKind;
use tokio::sync::{broadcast, mpsc, watch};

use crate::config::StreamSettings;
use crate::ctx::Ctx;
use crate::error::{AppError, AppResult};
use crate::events::{Event, Live};
use delivery::Delivery;

/// Deliveries a stream may fall behind by before it is dropped: a reader who stops reading
/// costs the server no more than this shared ring.
const BEHIND_MAX: usize = 1024;

/// A thread's counts go out at most this often.
const COUNTS_EVERY: Duration = Duration::from_secs(1);

/// How many logged ids a server remembers to tell its own events, heard twice on PostgreSQL
/// (delivered at once, then back by `NOTIFY`), from new ones.
const SEEN_MAX: usize = 4096;

/// This server's streams: the broadcast they read, what waits to be logged, and their limits.
#[derive(Clone)]
pub struct Stream(Arc<Inner>);

struct Inner {
    settings: StreamSettings,
    deliveries: broadcast::Sender<Arc<Delivery>>,
    /// `Live` events of this server, for the log.
    to_log: mpsc::UnboundedSender<Live>,
    /// `Logged` events of every server, for the streams.
    logged: mpsc::UnboundedSender<(i64, Live)>,
    /// The ends the two jobs read, until `spawn` takes them.
    queues: Mutex<Option<Queues>>,
    open: Mutex<Open>,
    total: AtomicUsize,
    closing: watch::Sender<bool>,
}

struct Queues {
    to_log: mpsc::UnboundedReceiver<Live>,
    logged: mpsc::UnboundedReceiver<(i64, Live)>,
}

#[derive(Default)]
struct Open {
    by_client: HashMap<String, usize>,
    by_account: HashMap<i64, usize>,
}

impl Stream {
    pub fn new(settings: StreamSettings) -> Self {
        let (deliveries, _) = broadcast::channel(BEHIND_MAX);
        let (to_log, to_log_rx) = mpsc::unbounded_channel();
        let (logged, logged_rx) = mpsc::unbounded_channel();
        Self(Arc::new(Inner {
            settings,
            deliveries,
            to_log,
            logged,
            queues: Mutex::new(Some(Queues {
                to_log: to_log_rx,
                logged: logged_rx,
            })),
            open: Mutex::default(),
            total: AtomicUsize::new(0),
            closing: watch::Sender::new(false),
        }))
    }

    /// What the stream does with an event: `Live` waits to be logged here, `Logged` (this
    /// server's or another's) goes to the streams.
    pub fn heard(&self, event: &Event) {
        match event {
            Event::Live(live) => {
                let _ = self.0.to_log.send(*live);
            }
            Event::Logged(id, live) => {
                let _ = self.0.logged.send((*id, *live));
            }
            _ => {}
        }
    }

    /// A new reader of the broadcast.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Delivery>> {
        self.0.deliveries.subscribe()
    }

    /// Turns true when the server stops: every stream ends at once.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.0.closing.subscribe()
    }

    /// Ends every stream (graceful shutdown would otherwise wait on them forever).
    pub fn close(&self) {
        self.0.closing.send_replace(true);
    }

    /// How many streams are open on this server.
    pub fn open_count(&self) -> usize {
        self.0.total.load(Ordering::SeqCst)
    }

    /// Counts a new stream of `client` (and `account`) against the limits, or refuses it; the
    /// stream holds the `Slot` for as long as it is open.
    pub fn admit(&self, client: &str, account: Option<i64>) -> AppResult<Slot> {
        let limits = &self.0.settings;
        let refused = |what: &str| {
            AppError::new(ErrorKind::RateLimited)
                .with_message(format!("Too many open streams {what}"))
        };
        let mut open = self
            .0
            .open
            .lock()
            .map_err(|_| AppError::internal("stream limits"))?;
        if self.0.total.load(Ordering::SeqCst) >= limits.stream_max {
            return Err(refused("on this server"));
        }
        if open.by_client.get(client).copied().unwrap_or(0) >= limits.stream_per_client {
            return Err(refused("from this address"));
        }
        if let Some(account) = account
            && open.by_account.get(&account).copied().unwrap_or(0) >= limits.stream_per_account
        {
            return Err(refused("for this account"));
        }
        *open.by_client.entry(client.to_owned()).or_default() += 1;
        if let Some(account) = account {
            *open.by_account.entry(account).or_default() += 1;
        }
        self.0.total.fetch_add(1, Ordering::SeqCst);
        Ok(Slot {
            stream: self.clone(),
            client: client.to_owned(),
            account,
        })
    }
}

/// An open stream's place in the limits, given back when the stream ends.
pub struct Slot {
    stream: Stream,
    client: String,
    account: Option<i64>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let inner = &self.stream.0;
        inner.total.fetch_sub(1, Ordering::SeqCst);
        if let Ok(mut open) = inner.open.lock() {
            fn give_back<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: &K) {
                if let Some(n) = map.get_mut(key) {
                    *n -= 1;
                    if *n == 0 {
                        map.remove(key);
                    }
                }
            }
            give_back(&mut open.by_client, &self.client);
            if let Some(account) = self.account {
                give_back(&mut open.by_account, &account);
            }
        }
    }
}

/// Starts this server's two stream jobs: logging what happened here, and preparing what was
/// logged anywhere for the streams. Once per server.
pub fn spawn(ctx: &Ctx, stream: &Stream) {
    let Some(queues) = stream.0.queues.lock().ok().and_then(|mut q| q.take()) else {
        return;
    };
    tokio::spawn(write_log(ctx.clone(), queues.to_log));
    tokio::spawn(deliver(ctx.clone(), stream.clone(), queues.logged));
}

/// Logs each `Live` event in the order it was published, then says `Logged` to every server.
async fn write_log(ctx: Ctx, mut to_log: mpsc::UnboundedReceiver<Live>) {
    let mut last_trim = Instant::now();
    while let Some(live) = to_log.recv().await {
        match log::append(&ctx, live).await {
            Ok(id) => ctx.events.publish(&Event::Logged(id, live)),
            Err(e) => tracing::warn!("stream event {live:?} not logged: {e:?}"),
        }
        if last_trim.elapsed() > Duration::from_secs(60) {
            last_trim = Instant::now();
            if let Err(e) = log::trim(&ctx).await {
                tracing::warn!("trimming the stream's log: {e:?}");
            }
        }
    }
}

/// Prepares each logged event once and hands it to this server's streams; a thread's counts at
/// most once a second (what changed meanwhile goes out together).
async fn deliver(ctx: Ctx, stream: Stream, mut logged: mpsc::UnboundedReceiver<(i64, Live)>) {
    let mut seen: (HashSet<i64>, VecDeque<i64>) = Default::default();
    let mut counts_sent: HashMap<i64, Instant> = HashMap::new();
    // Threads whose counts wait for their second to pass: the newest id that changed them.
    let mut counts_due: HashMap<i64, i64> = HashMap::new();
    let mut tick = tokio::time::interval(Duration::from_millis(200));
    loop {
        let next = tokio::select! {
            next = logged.recv() => match next {
                Some(next) => Some(next),
                None => return,
            },
            _ = tick.tick() => None,
        };
        let mut ready = Vec::new();
        if let Some((id, live)) = next {
            if !seen.0.insert(id) {
                continue;
            }
            seen.1.push_back(id);
            if seen.1.len() > SEEN_MAX
                && let Some(old) = seen.1.pop_front()
            {
                seen.0.remove(&old);
            }
            match live {
                Live::Counts(feed) => {
                    counts_due.insert(feed, id);
                }
                other => ready.push((id, other)),
            }
        }
        let now = Instant::now();
        counts_due.retain(|feed, id| {
            let due = counts_sent
                .get(feed)
                .is_none_or(|at| now.duration_since(*at) >= COUNTS_EVERY);
            if due {
                counts_sent.insert(*feed, now);
                ready.push((*id, Live::Counts(*feed)));
            }
            !due
        });
        counts_sent.retain(|_, at| now.duration_since(*at) < COUNTS_EVERY);
        for (id, live) in ready {
            match Delivery::prepare(&ctx, id, live).await {
                // None listening is no fault.
                Ok(Some(delivery)) => {
                    let _ = stream.0.deliveries.send(Arc::new(delivery));
                }
                Ok(None) => {}
                Err(e) => tracing::warn!("stream event {id} not delivered: {e:?}"),
            }
        }
    }
}
