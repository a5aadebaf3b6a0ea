//! What changed, said once by the feature that changed it; whoever cares listens. Features do
//! not know their listeners: a content write does not clear the content caches or wake the bots'
//! sender itself, the composition root subscribes those (`state`). Listeners run inline, before
//! `publish` returns, so a reader's next request never sees what a write made stale.

use std::sync::{Arc, RwLock};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Feed items or the catalogue were written: every answer built from them is stale.
    ContentChanged,
    /// Bot deliveries were queued in a transaction that has committed.
    DeliveriesQueued,
    /// The cached answer under this key (a thread's first page, a question) is stale.
    Stale(String),
}

type Listener = Arc<dyn Fn(&Event) + Send + Sync>;

/// The listeners of this server's events.
#[derive(Clone, Default)]
pub struct Events(Arc<RwLock<Vec<Listener>>>);

impl Events {
    pub fn publish(&self, event: &Event) {
        // Cloned out, so a listener may publish or subscribe without a lock held.
        let listeners = self.0.read().map(|l| l.clone()).unwrap_or_default();
        for listener in listeners {
            listener(event);
        }
    }

    pub fn subscribe(&self, listener: impl Fn(&Event) + Send + Sync + 'static) {
        if let Ok(mut listeners) = self.0.write() {
            listeners.push(Arc::new(listener));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn every_listener_hears_each_event_before_publish_returns() {
        let events = Events::default();
        let heard = Arc::new(Mutex::new(Vec::new()));
        for name in ["cache", "sender"] {
            let heard = heard.clone();
            events.subscribe(move |e| heard.lock().unwrap().push((name, e.clone())));
        }
        events.publish(&Event::Stale("thread:1".into()));
        assert_eq!(
            *heard.lock().unwrap(),
            vec![
                ("cache", Event::Stale("thread:1".into())),
                ("sender", Event::Stale("thread:1".into()))
            ]
        );
    }
}
