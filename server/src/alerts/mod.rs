//! Alerts: a reader says once what matters to them (client-core's rule) and hears of matching
//! items wherever they chose. This area keeps the rules, the sample the editor counts over, and
//! the browsers readers allowed to show notifications (Web Push).

use std::sync::Arc;

use tokio::sync::Notify;

use crate::config::PushSettings;
use crate::ctx::Ctx;
use crate::error::AppResult;
use crate::events::Event;
use crate::time::DAY;
use rebuilt::Rebuilt;

pub mod deliver;
pub mod digest;
pub mod presale_starts;
pub mod prices;
pub mod push;
mod quiet;
mod rebuilt;
pub mod rules;
pub mod sample;

/// This area's state: the sample of recent items, every reader's rules ready to match, and the
/// Web Push sender with the server's VAPID key.
#[derive(Clone)]
pub struct Alerts {
    /// The last week's items as rules see them: rebuilt once a minute, and after content
    /// changed.
    sample: Arc<Rebuilt<Vec<sample::SampleItem>>>,
    pub pusher: push::Pusher,
    pub settings: PushSettings,
    /// Signs the daily email's unsubscribe links (derived from the server's secret, so any
    /// server checks any link).
    unsubscribe_key: Arc<[u8; 32]>,
    /// Woken when items are queued, so alerts go out at once.
    queued: Arc<Notify>,
    /// Every reader's rules, ready to match: rebuilt after rules changed on any server.
    rules: Arc<Rebuilt<deliver::RuleSet>>,
}

impl Alerts {
    /// `secret`: the server's key, from which the VAPID key is derived.
    pub fn new(settings: &PushSettings, secret: &[u8]) -> Result<Self, String> {
        let keys = Arc::new(push::PushKeys::derive(secret)?);
        let mut unsubscribe_key = [0u8; 32];
        hkdf::Hkdf::<sha2::Sha256>::new(Some(b"blockbrief alert email"), secret)
            .expand(b"unsubscribe", &mut unsubscribe_key)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            sample: Arc::new(Rebuilt::new(Some(sample::SAMPLE_SECONDS))),
            pusher: push::Pusher::new(keys, settings)?,
            settings: settings.clone(),
            unsubscribe_key: Arc::new(unsubscribe_key),
            queued: Arc::default(),
            rules: Arc::new(Rebuilt::new(None)),
        })
    }

    /// Every reader's rules as matching needs them.
    pub async fn rules(&self, ctx: &Ctx) -> AppResult<Arc<deliver::RuleSet>> {
        self.rules
            .get(ctx.now(), async || deliver::load_rules(ctx).await)
            .await
    }

    /// The last week's items as rules see them.
    pub async fn sample(&self, ctx: &Ctx) -> AppResult<Arc<Vec<sample::SampleItem>>> {
        self.sample
            .get(ctx.now(), async || sample::build(ctx).await)
            .await
    }

    /// New or changed items make the sample stale, changed rules the rule set; queued items wake
    /// the sender.
    pub fn heard(&self, event: &Event) {
        match event {
            Event::ContentChanged => self.sample.forget(),
            Event::DeliveriesQueued => self.queued.notify_waiters(),
            Event::Stale(key) if key == rules::RULES_CHANGED => self.rules.forget(),
            Event::Missed => {
                self.sample.forget();
                self.rules.forget();
            }
            _ => {}
        }
    }
}

/// How long a made delivery is kept: it stops an item alerting a reader twice, and an item
/// alerts only while it is new.
const DELIVERIES_KEPT: i64 = 30 * DAY;
/// A daily email's claim on its day: needed only while that day lasts somewhere.
const DIGEST_CLAIMS_KEPT: i64 = 7 * DAY;

/// Removes deliveries done with (no instant alert still to send, nothing owed to an email), day
/// claims past their use, price ticks no window reaches and old sent price alerts, for the
/// cleanup job; gives how many deliveries and claims went.
pub async fn forget_old(ctx: &Ctx) -> AppResult<(u64, u64)> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

    use crate::entity::{alert_delivery, alert_digest, price_alert_firing, price_tick};
    let now = ctx.now();
    price_tick::Entity::delete_many()
        .filter(price_tick::Column::At.lte(now - prices::TICKS_KEPT))
        .exec(&ctx.db)
        .await?;
    price_alert_firing::Entity::delete_many()
        .filter(price_alert_firing::Column::SentAt.lte(now - DELIVERIES_KEPT))
        .exec(&ctx.db)
        .await?;
    let deliveries = alert_delivery::Entity::delete_many()
        .filter(alert_delivery::Column::CreatedAt.lte(now - DELIVERIES_KEPT))
        .filter(deliver::waiting().not())
        .filter(digest::owed().not())
        .exec(&ctx.db)
        .await?
        .rows_affected;
    let claims = alert_digest::Entity::delete_many()
        .filter(alert_digest::Column::CreatedAt.lte(now - DIGEST_CLAIMS_KEPT))
        .exec(&ctx.db)
        .await?
        .rows_affected;
    Ok((deliveries, claims))
}
