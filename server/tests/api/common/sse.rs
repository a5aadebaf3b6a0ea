//! A reader of `text/event-stream`, as a browser's `EventSource` reads it: events split on blank
//! lines, comment lines (`: ping`) skipped.

use std::time::Duration;

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub id: Option<i64>,
    pub event: String,
    pub data: Value,
}

pub struct SseReader {
    response: reqwest::Response,
    buffer: String,
}

impl SseReader {
    /// Opens `url` with `headers`; panics unless the server answers an event stream.
    pub async fn open(http: &reqwest::Client, url: &str, headers: &[(&str, &str)]) -> Self {
        let mut request = http.get(url);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("stream opens");
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert!(
            kind.starts_with("text/event-stream"),
            "{} {kind}: {:?}",
            response.status(),
            response.text().await
        );
        Self {
            response,
            buffer: String::new(),
        }
    }

    /// The next event within `wait`, or `None` (none came, or the stream ended).
    pub async fn next_within(&mut self, wait: Duration) -> Option<SseEvent> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                if let Some(event) = parse(&block) {
                    return Some(event);
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk()).await;
            match chunk {
                Ok(Ok(Some(bytes))) => self.buffer.push_str(&String::from_utf8_lossy(&bytes)),
                _ => return None,
            }
        }
    }

    /// The next event within 5 s; panics when none comes.
    pub async fn next(&mut self) -> SseEvent {
        self.next_within(Duration::from_secs(5))
            .await
            .expect("an event within 5 s")
    }

    /// The next event named `name` within 5 s, skipping others.
    pub async fn next_named(&mut self, name: &str) -> SseEvent {
        loop {
            let event = self.next().await;
            if event.event == name {
                return event;
            }
        }
    }

    /// Whether the stream has ended (read within `wait`).
    pub async fn ended_within(&mut self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(deadline, self.response.chunk()).await {
                Ok(Ok(Some(_))) => continue,
                Ok(Ok(None) | Err(_)) => return true,
                Err(_) => return false,
            }
        }
    }
}

fn parse(block: &str) -> Option<SseEvent> {
    let (mut id, mut event, mut data) = (None, String::from("message"), Vec::new());
    for line in block.lines() {
        if let Some(value) = line.strip_prefix("id:") {
            id = value.trim().parse().ok();
        } else if let Some(value) = line.strip_prefix("event:") {
            event = value.trim().to_owned();
        } else if let Some(value) = line.strip_prefix("data:") {
            data.push(value.strip_prefix(' ').unwrap_or(value).to_owned());
        }
    }
    if data.is_empty() {
        return None;
    }
    let data = serde_json::from_str(&data.join("\n")).unwrap_or(Value::Null);
    Some(SseEvent { id, event, data })
}
