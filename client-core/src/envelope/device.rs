//! The device header (`X-BPARAM`) the app sends with every call, and reading it back.

use serde::{Deserialize, Serialize};

use crate::constants::{APP_VERSION, BITVERSE_AGENT};

/// What the browser knows of its device; any field may be missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(optional_fields = nullable))]
#[serde(default, rename_all = "camelCase")]
pub struct DeviceInfo {
    pub os: Option<String>,
    pub language: Option<String>,
    /// As `Date.prototype.getTimezoneOffset` gives it: minutes, positive west of UTC.
    pub timezone_offset_minutes: Option<f64>,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub user_agent: Option<String>,
}

/// The `X-BPARAM` header's JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceHeader {
    pub platform: String,
    pub os: String,
    pub language: String,
    /// Hours east of UTC.
    pub timezone: f64,
    pub vendor: String,
    pub model: String,
    pub app_version: String,
    pub channel: String,
}

/// Longest `X-BPARAM` the server reads, and longest field it keeps.
pub const DEVICE_HEADER_MAX_BYTES: usize = 2048;
const DEVICE_FIELD_MAX_CHARS: usize = 64;

pub fn is_bitverse_agent(user_agent: &str) -> bool {
    user_agent.to_ascii_lowercase().contains(BITVERSE_AGENT)
}

fn field(s: Option<&str>) -> String {
    s.unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(DEVICE_FIELD_MAX_CHARS)
        .collect()
}

/// The `X-BPARAM` fields for this device.
pub fn device_header_of(info: &DeviceInfo) -> DeviceHeader {
    let offset = info
        .timezone_offset_minutes
        .filter(|m| m.is_finite() && m.abs() <= 24.0 * 60.0);
    let bitverse = info.user_agent.as_deref().is_some_and(is_bitverse_agent);
    DeviceHeader {
        platform: "web".to_owned(),
        os: field(info.os.as_deref()),
        language: field(info.language.as_deref()),
        timezone: offset.map_or(0.0, |m| -m / 60.0),
        vendor: field(info.vendor.as_deref()),
        model: field(info.model.as_deref()),
        app_version: APP_VERSION.to_owned(),
        channel: if bitverse { "bitverse" } else { "official" }.to_owned(),
    }
}

/// The `X-BPARAM` header value for this device.
pub fn device_header(info: &DeviceInfo) -> String {
    serde_json::to_string(&device_header_of(info)).unwrap_or_default()
}

/// Reads an `X-BPARAM` header on the server: anything malformed or oversized is `None` (ignored,
/// never fatal), and fields are cut to size. The values are hints from the client, never trusted.
pub fn parse_device_header(raw: &str) -> Option<DeviceHeader> {
    if raw.len() > DEVICE_HEADER_MAX_BYTES {
        return None;
    }
    let mut header: DeviceHeader = serde_json::from_str(raw).ok()?;
    for value in [
        &mut header.platform,
        &mut header.os,
        &mut header.language,
        &mut header.vendor,
        &mut header.model,
        &mut header.app_version,
        &mut header.channel,
    ] {
        *value = field(Some(value));
    }
    if !header.timezone.is_finite() || header.timezone.abs() > 24.0 {
        header.timezone = 0.0;
    }
    Some(header)
}
