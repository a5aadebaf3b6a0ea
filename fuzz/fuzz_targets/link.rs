//! Links from content and the server, ext segments and query strings (client-core's `link`):
//! never a panic, and what decodes re-encodes to the same parameters.
#![no_main]

use client_core::link::{decode_ext, encode_ext, map_link, parse_query, to_query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = map_link(text);
    if let Ok(params) = decode_ext(text) {
        assert_eq!(decode_ext(&encode_ext(&params)), Ok(params));
    }
    if let Ok(params) = parse_query(text) {
        assert_eq!(parse_query(&to_query(&params)), Ok(params));
    }
});
