//! Alerts: a reader says once what matters to them (client-core's rule) and hears of matching
//! items wherever they chose. This area keeps the rules, the sample the editor counts over, and
//! the browsers readers allowed to show notifications (Web Push).

use std::sync::Arc;

use crate::config::PushSettings;
use crate::events::Event;

pub mod push;
pub mod rules;
pub mod sample;

/// This area's state: the sample of recent items, built once a minute per server, and the
/// Web Push sender with the server's VAPID key.
#[derive(Clone)]
pub struct Alerts {
    pub sample: Arc<sample::SampleCache>,
    pub pusher: push::Pusher,
    pub settings: PushSettings,
}

impl Alerts {
    /// `secret`: the server's key, from which the VAPID key is derived.
    pub fn new(settings: &PushSettings, secret: &[u8]) -> Result<Self, String> {
        let keys = Arc::new(push::PushKeys::derive(secret)?);
        Ok(Self {
            sample: Arc::default(),
            pusher: push::Pusher::new(keys, settings)?,
            settings: settings.clone(),
        })
    }

    /// New or changed items make the sample stale.
    pub fn heard(&self, event: &Event) {
        if matches!(event, Event::ContentChanged | Event::Missed) {
            self.sample.forget();
        }
    }
}
