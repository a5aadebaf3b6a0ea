//! What changed, said once by the feature that changed it; whoever cares listens. Features do
//! not know their listeners: a content write does not clear the content caches or wake the bots'
//! sender itself, the composition root subscribes those (`state`). Listeners run inline, before
//! `publish` returns, so a reader's next request never sees what a write made stale.
//!
//! On PostgreSQL the events other servers must hear (`Event::payload`) go to them by `NOTIFY` on
//! one channel; each server's `listen` hands what it hears to its own listeners.

use std::sync::{Arc, RwLock};

use sqlx::PgPool;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Feed items or the catalogue were written: every answer built from them is stale.
    ContentChanged,
    /// The catalogue (tokens, tags, topics, KOLs) was written: the compiled linker is stale, on
    /// every server.
    CatalogueChanged,
    /// Bot deliveries were queued in a transaction that has committed.
    DeliveriesQueued,
    /// The cached answer under this key (a thread's first page, a question) is stale.
    Stale(String),
    /// This reader liked, unliked, kept or let go a feed item.
    MarksChanged(i64),
    /// A session (its token's hash) or every session of a user (`user:<id>`) was signed out or
    /// changed: cached copies go, on every server.
    SignedOut(String),
    /// Something readers may see live: the stream logs it, then says `Logged`.
    Live(Live),
    /// A `Live` event as the stream logged it, under its id in the log: heard by every server.
    Logged(i64, Live),
    /// Events of other servers may have been missed (the listening connection was lost): what
    /// is cached is dropped.
    Missed,
}

impl Event {
    /// The event as the other servers read it, or `None` for one they need not hear:
    /// `ContentChanged` (their content caches live a second and their search copies catch up
    /// within one, `content::search_copy`, and a stream of ingested items would otherwise empty
    /// every server's caches at each item) and `Missed` (each server's own).
    fn payload(&self) -> Option<String> {
        match self {
            Self::DeliveriesQueued => Some("queued".to_owned()),
            Self::CatalogueChanged => Some("catalogue".to_owned()),
            Self::Stale(key) => Some(format!("stale:{key}")),
            Self::MarksChanged(user_id) => Some(format!("marks:{user_id}")),
            Self::SignedOut(sessions) => Some(format!("signedout:{sessions}")),
            Self::Logged(id, live) => {
                let (kind, feed, target) = live.parts();
                let or_empty = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
                Some(format!(
                    "live:{id}:{kind}:{}:{}",
                    or_empty(feed),
                    or_empty(target)
                ))
            }
            // `Live` is logged by the server it happened on, which then sends `Logged`.
            Self::ContentChanged | Self::Live(_) | Self::Missed => None,
        }
    }

    fn from_payload(payload: &str) -> Self {
        match payload.split_once(':') {
            _ if payload == "queued" => Self::DeliveriesQueued,
            _ if payload == "catalogue" => Self::CatalogueChanged,
            Some(("stale", key)) => Self::Stale(key.to_owned()),
            Some(("marks", id)) => id.parse().map_or(Self::Missed, Self::MarksChanged),
            Some(("signedout", sessions)) => Self::SignedOut(sessions.to_owned()),
            Some(("live", rest)) => Self::logged(rest).unwrap_or(Self::Missed),
            // Unreadable (another version's event): assume the worst.
            _ => Self::Missed,
        }
    }

    /// `<id>:<kind>:<feed>:<target>` of a `Logged` payload.
    fn logged(rest: &str) -> Option<Self> {
        let mut parts = rest.split(':');
        let id = parts.next()?.parse().ok()?;
        let kind = parts.next()?;
        let mut number = || parts.next().and_then(|n| n.parse().ok());
        let (feed, target) = (number(), number());
        Some(Self::Logged(id, Live::from_parts(kind, feed, target)?))
    }
}

/// What a reader may see happen without reloading (`stream`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Live {
    /// A feed item is new, or became important.
    Item(i64),
    /// A feed item was taken down (deleted by its author, removed by the team).
    Removed(i64),
    /// A feed item's likes or comments changed.
    Counts(i64),
    /// A comment under a feed item was added or edited.
    Comment { feed: i64, comment: i64 },
    /// A reader's unread messages changed (`None`: every reader's, an announcement).
    Unread(Option<i64>),
}

impl Live {
    /// Its kind, feed and target as the stream's log keeps them.
    pub fn parts(self) -> (&'static str, Option<i64>, Option<i64>) {
        match self {
            Self::Item(feed) => ("item", Some(feed), None),
            Self::Removed(feed) => ("removed", Some(feed), None),
            Self::Counts(feed) => ("counts", Some(feed), None),
            Self::Comment { feed, comment } => ("comment", Some(feed), Some(comment)),
            Self::Unread(user) => ("unread", None, user),
        }
    }

    pub fn from_parts(kind: &str, feed: Option<i64>, target: Option<i64>) -> Option<Self> {
        match kind {
            "item" => Some(Self::Item(feed?)),
            "removed" => Some(Self::Removed(feed?)),
            "counts" => Some(Self::Counts(feed?)),
            "comment" => Some(Self::Comment {
                feed: feed?,
                comment: target?,
            }),
            "unread" => Some(Self::Unread(target)),
            _ => None,
        }
    }
}

/// The PostgreSQL channel events travel on between servers.
const CHANNEL: &str = "events";

async fn notify(pool: &PgPool, payload: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(payload)
        .execute(pool)
        .await
        .map(|_| ())
}

type Listener = Arc<dyn Fn(&Event) + Send + Sync>;

/// The listeners of this server's events, and on PostgreSQL the way to the other servers.
#[derive(Clone, Default)]
pub struct Events {
    listeners: Arc<RwLock<Vec<Listener>>>,
    others: Option<PgPool>,
}

impl Events {
    /// Events that also reach the other servers on this PostgreSQL database.
    pub fn shared(pool: PgPool) -> Self {
        Self {
            others: Some(pool),
            ..Self::default()
        }
    }

    /// Tells this server's listeners, then (in the background) the other servers.
    pub fn publish(&self, event: &Event) {
        self.deliver(event);
        if let (Some(pool), Some(payload)) = (self.others.clone(), event.payload()) {
            tokio::spawn(async move {
                if let Err(e) = notify(&pool, &payload).await {
                    tracing::warn!("event {payload} not sent to the other servers: {e}");
                }
            });
        }
    }

    /// Tells this server's listeners and the other servers, and returns once the other servers'
    /// notice is sent: for what must not outrun it (a sign-out).
    pub async fn publish_told(&self, event: &Event) -> Result<(), sqlx::Error> {
        self.deliver(event);
        match (&self.others, event.payload()) {
            (Some(pool), Some(payload)) => notify(pool, &payload).await,
            _ => Ok(()),
        }
    }

    fn deliver(&self, event: &Event) {
        // Cloned out, so a listener may publish or subscribe without a lock held.
        let listeners = self.listeners.read().map(|l| l.clone()).unwrap_or_default();
        for listener in listeners {
            listener(event);
        }
    }

    pub fn subscribe(&self, listener: impl Fn(&Event) + Send + Sync + 'static) {
        if let Ok(mut listeners) = self.listeners.write() {
            listeners.push(Arc::new(listener));
        }
    }

    /// On PostgreSQL, hands the other servers' events to this server's listeners for as long as
    /// the server runs (its own come back too: forgetting twice is harmless). Whenever the
    /// listening connection is lost, listeners hear `Missed`.
    pub fn listen(&self) {
        let Some(pool) = self.others.clone() else {
            return;
        };
        let events = self.clone();
        tokio::spawn(async move {
            loop {
                match sqlx::postgres::PgListener::connect_with(&pool).await {
                    Ok(mut listener) => match listener.listen(CHANNEL).await {
                        Ok(()) => {
                            // `try_recv` answers None when the connection dropped.
                            while let Ok(Some(note)) = listener.try_recv().await {
                                events.deliver(&Event::from_payload(note.payload()));
                            }
                        }
                        Err(e) => tracing::warn!("listening for events: {e}"),
                    },
                    Err(e) => tracing::warn!("listening for events: {e}"),
                }
                events.deliver(&Event::Missed);
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn events_read_back_as_they_were_sent() {
        for event in [
            Event::DeliveriesQueued,
            Event::Stale("comments|feed|7|".into()),
            Event::MarksChanged(42),
            Event::CatalogueChanged,
            Event::SignedOut("user:7".into()),
            Event::SignedOut("0a1b".into()),
            Event::Logged(7, Live::Item(3)),
            Event::Logged(
                8,
                Live::Comment {
                    feed: 3,
                    comment: 9,
                },
            ),
            Event::Logged(9, Live::Unread(None)),
            Event::Logged(10, Live::Unread(Some(4))),
        ] {
            let payload = event.payload().expect("travels");
            assert_eq!(Event::from_payload(&payload), event);
        }
        assert_eq!(Event::ContentChanged.payload(), None);
        assert_eq!(Event::Missed.payload(), None);
        assert_eq!(Event::Live(Live::Counts(1)).payload(), None);
        assert_eq!(Event::from_payload("live:x:item:1:"), Event::Missed);
        assert_eq!(Event::from_payload("marks:x"), Event::Missed);
        assert_eq!(Event::from_payload("from a later version"), Event::Missed);
    }

    #[test]
    fn every_listener_hears_each_event_before_publish_returns() {
        let events = Events::default();
        let heard = Arc::new(Mutex::new(Vec::new()));
        for name in ["cache", "sender"] {
            let heard = heard.clone();
            events.subscribe(move |e| heard.lock().expect("lock").push((name, e.clone())));
        }
        events.publish(&Event::Stale("thread:1".into()));
        assert_eq!(
            *heard.lock().expect("lock"),
            vec![
                ("cache", Event::Stale("thread:1".into())),
                ("sender", Event::Stale("thread:1".into()))
            ]
        );
    }
}
