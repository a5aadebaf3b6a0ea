//! SMS one-time codes through an HTTP gateway (POST JSON `{to, text}`). Off by default: the web
//! client offers no phone sign-in, so the server answers with a clear error.

use serde_json::json;

#[derive(Clone)]
pub enum SmsSender {
    Disabled,
    Webhook { url: String },
}

impl SmsSender {
    pub fn from_settings(url: Option<&str>) -> Self {
        url.map_or(Self::Disabled, |url| Self::Webhook {
            url: url.to_owned(),
        })
    }

    pub fn enabled(&self) -> bool {
        matches!(self, Self::Webhook { .. })
    }

    pub async fn send(&self, http: &reqwest::Client, to: &str, text: &str) -> Result<(), String> {
        let Self::Webhook { url } = self else {
            return Err("SMS is disabled".to_owned());
        };
        let response = http
            .post(url)
            .json(&json!({ "to": to, "text": text }))
            .send()
            .await
            .map_err(|e| format!("SMS gateway: {e}"))?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(format!("SMS gateway answered {}", response.status()))
        }
    }
}
