//! Sign-in: tokens, one-time codes and the users they lead to. Callable without HTTP.

pub mod apple;
pub mod captcha;
pub mod id_token;
pub mod invitations;
pub mod jwks;
pub mod oauth;
pub mod otp;
pub mod telegram;
pub mod tokens;
pub mod users;
pub mod wallet;

use std::sync::Arc;

use crate::config::Config;
use jwks::JwksCache;
use tokens::SessionCache;

/// The auth area's state: its settings, the key of one-time-code hashes, this server's cache of
/// live sessions, the providers' signing keys and the client for calls to them.
#[derive(Clone)]
pub struct Auth(Arc<Inner>);

pub struct Inner {
    pub config: Arc<Config>,
    /// Key of the one-time-code hashes.
    pub secret: Vec<u8>,
    pub sessions: SessionCache,
    /// Identity-token signing keys of Apple, Google and Line.
    pub apple_keys: JwksCache,
    pub google_keys: JwksCache,
    pub line_keys: JwksCache,
    /// For calls to services beyond this machine (providers, captcha).
    pub http: reqwest::Client,
}

impl std::ops::Deref for Auth {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Auth {
    pub fn new(config: Arc<Config>, secret: Vec<u8>, http: reqwest::Client) -> Self {
        Self(Arc::new(Inner {
            apple_keys: JwksCache::new(&config.apple_jwks_url),
            google_keys: JwksCache::new(&config.google_jwks_url),
            line_keys: JwksCache::new(&config.line_jwks_url),
            config,
            secret,
            sessions: SessionCache::default(),
            http,
        }))
    }
}
