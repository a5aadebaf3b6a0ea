//! The envelope reader (client-core's `unwrap_response`) on any status and body, and the request
//! headers the server reads first (device header, endpoint access): never a panic, and success
//! only for a 2xx answer whose code is 2000.
#![no_main]

use client_core::envelope::{Unwrapped, check_endpoint, parse_device_header, unwrap_response};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&[high, low], body)) = data.split_first_chunk::<2>() else {
        return;
    };
    let status = u16::from_be_bytes([high, low]) % 600;
    if let Ok(value) = serde_json::from_slice::<Value>(body) {
        let success =
            (200..300).contains(&status) && value.get("code").and_then(Value::as_i64) == Some(2000);
        let unwrapped = unwrap_response(status, "Status", &value);
        assert_eq!(matches!(unwrapped, Unwrapped::Ok { .. }), success);
    }
    if let Ok(text) = std::str::from_utf8(body) {
        let _ = parse_device_header(text);
        let _ = check_endpoint(text, low & 1 == 1);
    }
});
