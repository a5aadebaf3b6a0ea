//! A LibreTranslate-compatible service: `POST /translate {q, source, target, format, api_key}`
//! answers `{translatedText}`, an array of them for an array `q`.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

/// How long one call may take before the text is left untranslated.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// Why a call translated nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Down, slow, over its own limit (429) or answering nonsense: the service is at fault, and
    /// the circuit breaker counts it.
    Service(String),
    /// The service refused this text (an unsupported language, too long): asking again will
    /// not help, the service itself is fine.
    Refused(String),
}

#[derive(Clone)]
pub struct Service {
    url: String,
    key: Option<String>,
    http: reqwest::Client,
}

#[derive(Deserialize)]
struct Answer {
    #[serde(rename = "translatedText")]
    translated: Value,
}

impl Service {
    pub fn new(base: &str, key: Option<String>) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .build()
            .map_err(|e| format!("translation client: {e}"))?;
        Ok(Self {
            url: format!("{}/translate", base.trim_end_matches('/')),
            key,
            http,
        })
    }

    /// `texts` from `source` into `target`, as plain text or HTML (`format`), in order.
    pub async fn translate(
        &self,
        texts: &[&str],
        source: &str,
        target: &str,
        format: &str,
    ) -> Result<Vec<String>, Fault> {
        let mut body = json!({ "q": texts, "source": source, "target": target, "format": format });
        if let Some(key) = &self.key {
            body["api_key"] = json!(key);
        }
        let response = self
            .http
            .post(&self.url)
            .json(&body)
            .send()
            .await
            .map_err(|e| Fault::Service(format!("translation service: {e}")))?;
        let status = response.status();
        if status.as_u16() == 429 || status.is_server_error() {
            return Err(Fault::Service(format!(
                "translation service answered {status}"
            )));
        }
        if !status.is_success() {
            let said = response.text().await.unwrap_or_default();
            return Err(Fault::Refused(format!(
                "translation service answered {status}: {said}"
            )));
        }
        let answer: Answer = response
            .json()
            .await
            .map_err(|e| Fault::Service(format!("translation service sent no answer: {e}")))?;
        let list: Vec<String> = match answer.translated {
            Value::Array(items) => items
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            Value::String(one) => vec![one],
            _ => Vec::new(),
        };
        if list.len() != texts.len() {
            return Err(Fault::Service(format!(
                "translation service answered {} texts for {}",
                list.len(),
                texts.len()
            )));
        }
        Ok(list)
    }
}
