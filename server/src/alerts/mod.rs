//! Alerts: a reader says once what matters to them (client-core's rule) and hears of matching
//! items wherever they chose. This area keeps the rules and the sample the editor counts over.

use std::sync::Arc;

use crate::events::Event;

pub mod rules;
pub mod sample;

/// This area's state: the sample of recent items, built once a minute per server.
#[derive(Clone, Default)]
pub struct Alerts {
    pub sample: Arc<sample::SampleCache>,
}

impl Alerts {
    /// New or changed items make the sample stale.
    pub fn heard(&self, event: &Event) {
        if matches!(event, Event::ContentChanged | Event::Missed) {
            self.sample.forget();
        }
    }
}
