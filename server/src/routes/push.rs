//! Web Push for a signed-in reader's browsers: the server's public key, subscribing and
//! unsubscribing a browser, and a test notification to every browser of theirs.

use aide::axum::ApiRouter;
use aide::axum::routing::{get, post};
use axum::Json;
use axum::extract::State;
use client_core::envelope::Envelope;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use validator::Validate;

use super::ok;
use crate::alerts::push::{self, Notice, Pushed, Subscription, Urgency};
use crate::entity::push_subscription;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientMeta, CurrentUser};
use crate::i18n;
use crate::limits;
use crate::social::spend_write;
use crate::state::AppState;

pub fn router() -> ApiRouter<AppState> {
    ApiRouter::new()
        .api_route("/push/key", get(key))
        .api_route("/push/subscribe", post(subscribe))
        .api_route("/push/unsubscribe", post(unsubscribe))
        .api_route("/push/test", post(test))
}

#[derive(schemars::JsonSchema, Serialize)]
struct PushKey {
    /// The VAPID public key (`applicationServerKey`): base64url, an uncompressed P-256 point.
    key: String,
}

async fn key(State(state): State<AppState>) -> Json<Envelope<PushKey>> {
    ok(PushKey {
        key: state.alerts.pusher.keys().public_key().to_owned(),
    })
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct SubscribeRequest {
    #[serde(flatten)]
    subscription: Subscription,
}

async fn subscribe(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<SubscribeRequest>,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::PUSH_WRITES).await?;
    let settings = &state.alerts.settings;
    push::subscribe(&state, settings, user.user_id, &req.subscription).await?;
    Ok(ok(()))
}

#[derive(schemars::JsonSchema, Deserialize, Validate)]
struct UnsubscribeRequest {
    endpoint: String,
}

async fn unsubscribe(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
    ApiJson(req): ApiJson<UnsubscribeRequest>,
) -> AppResult<Json<Envelope<()>>> {
    spend_write(&state, &user, &client, limits::PUSH_WRITES).await?;
    push::unsubscribe(&state, user.user_id, &req.endpoint).await?;
    Ok(ok(()))
}

#[derive(schemars::JsonSchema, Serialize)]
struct Tested {
    /// Browsers the push service took the notification for.
    sent: u64,
}

/// Sends "notifications work" to each of the reader's browsers, in their language.
async fn test(
    State(state): State<AppState>,
    user: CurrentUser,
    client: ClientMeta,
) -> AppResult<Json<Envelope<Tested>>> {
    spend_write(&state, &user, &client, limits::PUSH_WRITES).await?;
    let browsers = push_subscription::Entity::find()
        .filter(push_subscription::Column::UserId.eq(user.user_id))
        .all(&state.db)
        .await?;
    if browsers.is_empty() {
        return Err(AppError::invalid(
            "Allow notifications in this browser first",
        ));
    }
    let locale = crate::auth::users::get(&state, user.user_id).await?.locale;
    let notice = Notice {
        title: i18n::t(&locale, "push.testTitle", &[]),
        body: i18n::t(&locale, "push.testBody", &[]),
        url: format!("{}/{locale}/alerts", state.public_url()),
        feed_id: None,
    };
    let mut sent = 0;
    for browser in &browsers {
        if state
            .alerts
            .pusher
            .send(&state, browser, &notice, Urgency::Normal)
            .await?
            == Pushed::Sent
        {
            sent += 1;
        }
    }
    Ok(ok(Tested { sent }))
}
