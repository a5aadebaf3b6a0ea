//! Web Push: the browsers a reader allowed to show notifications, and messages to them through
//! their push services, encrypted per RFC 8291 and signed per RFC 8292 (VAPID) by
//! `web-push-native`. The server posts only to public HTTPS addresses, checked again at every
//! connection (a name may point somewhere else by then): a push endpoint must not be a way into
//! our own network.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hkdf::Hkdf;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use web_push_native::jwt_simple::algorithms::{
    ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair,
};
use web_push_native::jwt_simple::claims::Claims;
use web_push_native::{Auth, WebPushBuilder, p256};

use crate::config::PushSettings;
use crate::ctx::Ctx;
use crate::entity::push_subscription;
use crate::error::{AppError, AppResult};
use crate::points::tasks::{Source, record_event};

/// Browsers one reader may register.
pub const SUBSCRIPTIONS_MAX: u64 = 10;
pub const ENDPOINT_MAX_CHARS: usize = 1024;

/// The server's VAPID key pair, derived from its secret: every server sharing `SECRET_KEY`
/// signs with the same key, the one browsers' subscriptions are bound to.
pub struct PushKeys {
    pair: ES256KeyPair,
    /// The public key as browsers take it (`applicationServerKey`): base64url, uncompressed.
    public: String,
}

impl PushKeys {
    pub fn derive(secret: &[u8]) -> Result<Self, String> {
        let hk = Hkdf::<Sha256>::new(Some(b"blockbrief web push"), secret);
        // A 32-byte string is a valid P-256 key but with negligible odds; the next try is.
        for attempt in 0u8..=255 {
            let mut raw = [0u8; 32];
            hk.expand(&[b'v', b'a', b'p', b'i', b'd', attempt], &mut raw)
                .map_err(|e| e.to_string())?;
            if let Ok(pair) = ES256KeyPair::from_bytes(&raw) {
                let public =
                    URL_SAFE_NO_PAD.encode(pair.public_key().public_key().to_bytes_uncompressed());
                return Ok(Self { pair, public });
            }
        }
        Err("no VAPID key could be derived".to_owned())
    }

    pub fn public_key(&self) -> &str {
        &self.public
    }
}

/// A browser's subscription as `PushManager.subscribe` gives it.
#[derive(schemars::JsonSchema, Debug, Clone, Deserialize)]
pub struct Subscription {
    pub endpoint: String,
    pub keys: SubscriptionKeys,
}

#[derive(schemars::JsonSchema, Debug, Clone, Deserialize)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key, base64url (65 bytes, uncompressed).
    pub p256dh: String,
    /// Its 16-byte auth secret, base64url.
    pub auth: String,
}

/// Whether the server may post to `ip`: a public address, or loopback where allowed.
fn reachable(ip: IpAddr, allow_loopback: bool) -> bool {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    if ip.is_loopback() {
        return allow_loopback;
    }
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || a == 0
                || a >= 240
                // Carrier-grade NAT, and benchmarking networks.
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (18..20).contains(&b))
                || (a == 192 && b == 0 && v4.octets()[2] == 0))
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            !(v6.is_unspecified()
                || v6.is_multicast()
                // Unique local, link-local and documentation networks.
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || first == 0x2001 && v6.segments()[1] == 0x0db8)
        }
    }
}

/// Checks an endpoint before it is kept: `https` to a public host, or with loopback allowed,
/// `http` or `https` to a loopback one. Names are checked again at each connection.
fn check_endpoint(endpoint: &str, settings: &PushSettings) -> AppResult<reqwest::Url> {
    let refused = || AppError::invalid("endpoint must be an https address of a push service");
    if endpoint.len() > ENDPOINT_MAX_CHARS {
        return Err(refused());
    }
    let url = reqwest::Url::parse(endpoint).map_err(|_| refused())?;
    let host = url.host().ok_or_else(refused)?;
    let loopback = match host {
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
        url::Host::Domain(name) => name == "localhost",
    };
    let scheme_ok = match url.scheme() {
        _ if loopback && !settings.push_allow_loopback => false,
        "https" => true,
        "http" => loopback,
        _ => false,
    };
    if !scheme_ok || !url.username().is_empty() || url.password().is_some() {
        return Err(refused());
    }
    let literal = match host {
        url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
        url::Host::Domain(_) => None,
    };
    if literal.is_some_and(|ip| !reachable(ip, settings.push_allow_loopback)) {
        return Err(refused());
    }
    Ok(url)
}

fn decode(what: &str, text: &str, len: usize) -> AppResult<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .ok()
        .filter(|bytes| bytes.len() == len)
        .ok_or_else(|| AppError::invalid(format!("keys.{what} is not a valid browser key")))
}

/// Keeps a browser's subscription for `user_id` (again: its keys are renewed); the reader's
/// first completes the `allow_notification` task.
pub async fn subscribe(
    ctx: &Ctx,
    settings: &PushSettings,
    user_id: i64,
    sub: &Subscription,
) -> AppResult<()> {
    check_endpoint(&sub.endpoint, settings)?;
    let p256dh = decode("p256dh", &sub.keys.p256dh, 65)?;
    if p256::PublicKey::from_sec1_bytes(&p256dh).is_err() {
        return Err(AppError::invalid("keys.p256dh is not a valid browser key"));
    }
    decode("auth", &sub.keys.auth, 16)?;
    let held = push_subscription::Entity::find()
        .filter(push_subscription::Column::UserId.eq(user_id))
        .filter(push_subscription::Column::Endpoint.ne(sub.endpoint.as_str()))
        .count(&ctx.db)
        .await?;
    if held >= SUBSCRIPTIONS_MAX {
        return Err(AppError::invalid(
            "Notifications are on in 10 browsers already: turn one off first",
        ));
    }
    let row = push_subscription::ActiveModel {
        user_id: Set(user_id),
        endpoint: Set(sub.endpoint.clone()),
        p256dh: Set(URL_SAFE_NO_PAD.encode(&p256dh)),
        auth: Set(sub.keys.auth.trim_end_matches('=').to_owned()),
        created_at: Set(ctx.now()),
        retry_at: Set(None),
        ..Default::default()
    };
    // A browser moves to whoever signs in on it: the endpoint is its identity.
    push_subscription::Entity::insert(row)
        .on_conflict(
            OnConflict::column(push_subscription::Column::Endpoint)
                .update_columns([
                    push_subscription::Column::UserId,
                    push_subscription::Column::P256dh,
                    push_subscription::Column::Auth,
                    push_subscription::Column::RetryAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(&ctx.db)
        .await?;
    record_event(ctx, user_id, "allow_notification", Source::Server).await?;
    Ok(())
}

/// Forgets a browser of `user_id`'s (nothing when it is not theirs).
pub async fn unsubscribe(ctx: &Ctx, user_id: i64, endpoint: &str) -> AppResult<()> {
    push_subscription::Entity::delete_many()
        .filter(push_subscription::Column::UserId.eq(user_id))
        .filter(push_subscription::Column::Endpoint.eq(endpoint))
        .exec(&ctx.db)
        .await?;
    Ok(())
}

/// What a notification says, in its reader's language.
#[derive(Debug, Clone, Serialize)]
pub struct Notice {
    pub title: String,
    pub body: String,
    pub url: String,
    pub feed_id: Option<i64>,
}

/// How urgently a push service should wake the device (RFC 8030 `Urgency`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Urgency {
    Normal,
    High,
}

/// What a push service answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pushed {
    Sent,
    /// 404 or 410: the browser unsubscribed; the subscription is deleted.
    Gone,
    /// 429: try this browser again after this many seconds.
    Later(i64),
    Failed(String),
}

/// Sends to push services, connecting only to addresses [`reachable`] allows.
#[derive(Clone)]
pub struct Pusher {
    http: reqwest::Client,
    keys: Arc<PushKeys>,
    contact: String,
}

/// Resolves names to the addresses the server may post to, refusing the rest.
struct PublicOnly {
    allow_loopback: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_loopback = self.allow_loopback;
        Box::pin(async move {
            let found = tokio::net::lookup_host((name.as_str(), 0)).await?;
            let allowed: Vec<SocketAddr> = found
                .filter(|addr| reachable(addr.ip(), allow_loopback))
                .collect();
            if allowed.is_empty() {
                return Err("the push endpoint is not a public address".into());
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// How long a push service keeps an undelivered message.
const TTL: Duration = Duration::from_secs(24 * 3600);

impl Pusher {
    pub fn new(keys: Arc<PushKeys>, settings: &PushSettings) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(Arc::new(PublicOnly {
                allow_loopback: settings.push_allow_loopback,
            }))
            .build()
            .map_err(|e| format!("push client: {e}"))?;
        Ok(Self {
            http,
            keys,
            contact: settings.push_contact.clone(),
        })
    }

    pub fn keys(&self) -> &PushKeys {
        &self.keys
    }

    /// Sends `notice` to one browser; a gone browser's subscription is deleted, a 429 keeps it
    /// back until its `Retry-After`.
    pub async fn send(
        &self,
        ctx: &Ctx,
        sub: &push_subscription::Model,
        notice: &Notice,
        urgency: Urgency,
    ) -> AppResult<Pushed> {
        let pushed = self.deliver(sub, notice, urgency).await;
        match &pushed {
            Pushed::Gone => {
                push_subscription::Entity::delete_by_id(sub.id)
                    .exec(&ctx.db)
                    .await?;
            }
            Pushed::Later(seconds) => {
                push_subscription::Entity::update_many()
                    .col_expr(
                        push_subscription::Column::RetryAt,
                        sea_orm::sea_query::Expr::value(ctx.now() + seconds),
                    )
                    .filter(push_subscription::Column::Id.eq(sub.id))
                    .exec(&ctx.db)
                    .await?;
            }
            Pushed::Sent | Pushed::Failed(_) => {}
        }
        Ok(pushed)
    }

    /// `vapid t=<JWT>, k=<public key>` for `endpoint` (RFC 8292): the JWT's audience is the
    /// endpoint's origin, its port included (`web-push-native`'s own header leaves it out, which
    /// a service on a non-default port refuses).
    fn vapid(&self, endpoint: &str) -> Result<String, String> {
        let url = reqwest::Url::parse(endpoint).map_err(|e| e.to_string())?;
        let claims = Claims::create(TTL.into())
            .with_audience(url.origin().ascii_serialization())
            .with_subject(&self.contact);
        let token = self.keys.pair.sign(claims).map_err(|e| e.to_string())?;
        Ok(format!("vapid t={token}, k={}", self.keys.public))
    }

    /// Encrypts, signs and posts `notice` to one browser; what its push service answered.
    pub async fn deliver(
        &self,
        sub: &push_subscription::Model,
        notice: &Notice,
        urgency: Urgency,
    ) -> Pushed {
        let built = (|| {
            let endpoint = sub.endpoint.parse().map_err(|e| format!("{e}"))?;
            let key = URL_SAFE_NO_PAD
                .decode(&sub.p256dh)
                .map_err(|e| e.to_string())?;
            let public = p256::PublicKey::from_sec1_bytes(&key).map_err(|e| e.to_string())?;
            let auth = URL_SAFE_NO_PAD
                .decode(&sub.auth)
                .map_err(|e| e.to_string())?;
            if auth.len() != 16 {
                return Err("auth is not 16 bytes".to_owned());
            }
            let body = serde_json::to_vec(notice).map_err(|e| e.to_string())?;
            WebPushBuilder::new(endpoint, public, Auth::clone_from_slice(&auth))
                .with_valid_duration(TTL)
                .build(body)
                .map_err(|e| e.to_string())
        })();
        let request = match built {
            Ok(request) => request,
            Err(e) => return Pushed::Failed(e),
        };
        let (parts, body) = request.into_parts();
        let mut post = self.http.post(parts.uri.to_string()).body(body);
        for (name, value) in &parts.headers {
            post = post.header(name, value);
        }
        let urgency = match urgency {
            Urgency::Normal => "normal",
            Urgency::High => "high",
        };
        let vapid = match self.vapid(&sub.endpoint) {
            Ok(vapid) => vapid,
            Err(e) => return Pushed::Failed(e),
        };
        let post = post
            .header("Urgency", urgency)
            .header("Authorization", vapid);
        match post.send().await {
            Ok(answer) => match answer.status().as_u16() {
                200..=299 => Pushed::Sent,
                404 | 410 => Pushed::Gone,
                429 => Pushed::Later(
                    answer
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<i64>().ok())
                        .unwrap_or(60)
                        .clamp(1, 24 * 3600),
                ),
                status => Pushed::Failed(format!("push service answered {status}")),
            },
            Err(e) => Pushed::Failed(e.to_string()),
        }
    }
}

/// The reader's browsers a push may go to now (not waiting out a push service's 429).
pub async fn browsers(ctx: &Ctx, user_id: i64) -> AppResult<Vec<push_subscription::Model>> {
    Ok(push_subscription::Entity::find()
        .filter(push_subscription::Column::UserId.eq(user_id))
        .filter(
            push_subscription::Column::RetryAt
                .is_null()
                .or(push_subscription::Column::RetryAt.lte(ctx.now())),
        )
        .all(&ctx.db)
        .await?)
}
