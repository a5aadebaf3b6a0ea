//! A CoinGecko-compatible price API (`PRICE_API_URL`): `/simple/price` for quotes, in batches of
//! at most 250 ids, and `/coins/{id}/market_chart` for charts. Every fault (no answer within 5 s,
//! an error status, 429, a body that is not the expected JSON) is an error for the caller, which
//! then changes nothing; a quote whose numbers make no sense is left out.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;

/// Ids in one `/simple/price` call, as CoinGecko allows.
pub const BATCH: usize = 250;
const TIMEOUT: Duration = Duration::from_secs(5);

/// One coin's figures as the provider gave them, each checked to be a sane number.
#[derive(Debug, Clone, PartialEq)]
pub struct RawQuote {
    pub usd: f64,
    pub change_24h_pct: Option<f64>,
    pub market_cap: Option<f64>,
    pub volume_24h: Option<f64>,
    /// The provider's own time for it, when it says.
    pub as_of: Option<i64>,
}

#[derive(Clone)]
pub struct Provider {
    base: String,
    key: Option<String>,
    http: reqwest::Client,
}

impl Provider {
    pub fn new(base: &str, key: Option<String>) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .build()
            .map_err(|e| format!("price API client: {e}"))?;
        Ok(Self {
            base: base.trim_end_matches('/').to_owned(),
            key,
            http,
        })
    }

    async fn get(&self, path: &str, query: &[(&str, &str)]) -> Result<Value, String> {
        let mut request = self.http.get(format!("{}{path}", self.base)).query(query);
        if let Some(key) = &self.key {
            // CoinGecko reads the key from the header of its plan: the Pro API's on
            // pro-api.coingecko.com, the Demo plan's elsewhere.
            let header = if self.base.contains("pro-api.") {
                "x-cg-pro-api-key"
            } else {
                "x-cg-demo-api-key"
            };
            request = request.header(header, key);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("price API: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("price API answered {status} for {path}"));
        }
        response
            .json()
            .await
            .map_err(|e| format!("price API sent no JSON for {path}: {e}"))
    }

    /// Quotes for up to [`BATCH`] ids; ids the provider does not know, or whose figures make no
    /// sense, are not in the answer.
    pub async fn quotes(&self, ids: &[String]) -> Result<HashMap<String, RawQuote>, String> {
        let joined = ids.join(",");
        let body = self
            .get(
                "/simple/price",
                &[
                    ("ids", joined.as_str()),
                    ("vs_currencies", "usd"),
                    ("include_24hr_change", "true"),
                    ("include_market_cap", "true"),
                    ("include_24hr_vol", "true"),
                    ("include_last_updated_at", "true"),
                ],
            )
            .await?;
        let Value::Object(coins) = body else {
            return Err("price API: /simple/price is not an object".to_owned());
        };
        Ok(coins
            .into_iter()
            .filter_map(|(id, figures)| Some((id, raw_quote(&figures)?)))
            .collect())
    }

    /// `id`'s USD prices over `days` days, oldest first, as `(unix seconds, usd)`.
    pub async fn chart(&self, id: &str, days: i64) -> Result<Vec<(i64, f64)>, String> {
        let days = days.to_string();
        let body = self
            .get(
                &format!("/coins/{id}/market_chart"),
                &[("vs_currency", "usd"), ("days", days.as_str())],
            )
            .await?;
        let points = body
            .get("prices")
            .and_then(Value::as_array)
            .ok_or("price API: market_chart has no prices")?;
        let mut chart = Vec::with_capacity(points.len());
        for point in points {
            let pair = point.as_array().filter(|p| p.len() == 2);
            let at = pair
                .and_then(|p| p[0].as_f64())
                .filter(|t| t.is_finite() && *t > 0.0);
            let usd = pair.and_then(|p| p[1].as_f64()).filter(|u| price_like(*u));
            match (at, usd) {
                // Milliseconds, as CoinGecko gives them.
                (Some(at), Some(usd)) => chart.push(((at / 1000.0) as i64, usd)),
                _ => return Err("price API: market_chart has a point that is no price".to_owned()),
            }
        }
        chart.sort_by_key(|(at, _)| *at);
        Ok(chart)
    }
}

/// A price: a finite number above zero.
pub fn price_like(usd: f64) -> bool {
    usd.is_finite() && usd > 0.0
}

/// One coin's figures from `/simple/price`, or `None` when the price is not a price or another
/// figure is there but not a sane number.
fn raw_quote(figures: &Value) -> Option<RawQuote> {
    let usd = figures.get("usd")?.as_f64().filter(|u| price_like(*u))?;
    // Absent is fine; present but not a finite number (or a negative size) is nonsense.
    let optional = |name: &str, at_least_zero: bool| -> Result<Option<f64>, ()> {
        match figures.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => value
                .as_f64()
                .filter(|v| v.is_finite() && (!at_least_zero || *v >= 0.0))
                .map(Some)
                .ok_or(()),
        }
    };
    Some(RawQuote {
        usd,
        change_24h_pct: optional("usd_24h_change", false).ok()?,
        market_cap: optional("usd_market_cap", true).ok()?,
        volume_24h: optional("usd_24h_vol", true).ok()?,
        as_of: figures.get("last_updated_at").and_then(Value::as_i64),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn quotes_with_nonsense_are_left_out() {
        let fine = json!({ "usd": 97000.5, "usd_24h_change": -1.25, "usd_market_cap": 1.9e12, "last_updated_at": 1_795_305_600 });
        assert_eq!(
            raw_quote(&fine),
            Some(RawQuote {
                usd: 97000.5,
                change_24h_pct: Some(-1.25),
                market_cap: Some(1.9e12),
                volume_24h: None,
                as_of: Some(1_795_305_600),
            })
        );
        for bad in [
            json!({ "usd": "97000" }),
            json!({ "usd": -3.0 }),
            json!({ "usd": 0 }),
            json!({ "usd": 1.0, "usd_market_cap": -5 }),
            json!({ "usd": 1.0, "usd_24h_change": "up" }),
            json!({}),
        ] {
            assert_eq!(raw_quote(&bad), None, "{bad}");
        }
    }
}
