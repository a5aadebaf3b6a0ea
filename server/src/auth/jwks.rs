//! An identity provider's signing keys, fetched from its JWKS URL and cached for an hour. A key id
//! we have not seen triggers a refetch (providers rotate keys), at most once a minute.

use std::sync::RwLock;

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::JwkSet;

const TTL_SECONDS: i64 = 3600;
const REFETCH_SECONDS: i64 = 60;
const MAX_BYTES: usize = 64 * 1024;

pub struct JwksCache {
    url: String,
    cached: RwLock<Option<(JwkSet, i64)>>,
}

impl JwksCache {
    pub fn new(url: &str) -> Self {
        Self {
            url: url.to_owned(),
            cached: RwLock::new(None),
        }
    }

    fn lookup(&self, kid: &str, now: i64, max_age: i64) -> Option<Result<DecodingKey, String>> {
        let cached = self.cached.read().ok()?;
        let (set, fetched_at) = cached.as_ref()?;
        if now - fetched_at >= max_age {
            return None;
        }
        set.find(kid)
            .map(|jwk| DecodingKey::from_jwk(jwk).map_err(|e| format!("JWK {kid}: {e}")))
    }

    /// The key with id `kid`.
    pub async fn key(
        &self,
        http: &reqwest::Client,
        kid: &str,
        now: i64,
    ) -> Result<DecodingKey, String> {
        if let Some(found) = self.lookup(kid, now, TTL_SECONDS) {
            return found;
        }
        let fetched_recently = self
            .cached
            .read()
            .ok()
            .and_then(|c| c.as_ref().map(|(_, at)| now - at < REFETCH_SECONDS));
        if fetched_recently != Some(true) {
            let body = http
                .get(&self.url)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status);
            let bytes = body
                .map_err(|e| format!("JWKS: {e}"))?
                .bytes()
                .await
                .map_err(|e| format!("JWKS: {e}"))?;
            if bytes.len() > MAX_BYTES {
                return Err("JWKS: response too large".to_owned());
            }
            let set: JwkSet = serde_json::from_slice(&bytes).map_err(|e| format!("JWKS: {e}"))?;
            if let Ok(mut cached) = self.cached.write() {
                *cached = Some((set, now));
            }
        }
        self.lookup(kid, now, TTL_SECONDS)
            .unwrap_or_else(|| Err(format!("no key {kid}")))
    }
}
