//! Property tests: link mapping and ext decoding never panic on arbitrary input, and ext
//! encoding round-trips whatever parameters it is given.

use client_core::link::{LinkTarget, decode_ext, encode_ext, map_link, merge_ext_query};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn map_link_never_panics(s in any::<String>()) {
        let _ = map_link(&s);
    }

    #[test]
    fn scheme_links_never_panic(screen in "[A-Za-z_]{0,12}", query in any::<String>()) {
        if let Ok(LinkTarget::Internal { path }) = map_link(&format!("blockbrief://{screen}?{query}")) {
            prop_assert!(path.starts_with('/') && !path.starts_with("//"));
        }
    }

    #[test]
    fn decode_ext_never_panics(s in any::<String>(), b64 in "[A-Za-z0-9_=-]{0,40}") {
        let _ = decode_ext(&s);
        let _ = decode_ext(&b64);
        let _ = merge_ext_query(&[], &b64);
    }

    #[test]
    fn ext_round_trips(params in prop::collection::vec(("[^\u{0}]{1,8}", any::<String>()), 0..6)) {
        let segment = encode_ext(&params);
        prop_assert!(segment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        prop_assert_eq!(decode_ext(&segment), Ok(params));
    }

    #[test]
    fn internal_paths_never_leave_the_site(s in "[/\\\\a-z:.@%]{0,16}") {
        if let Ok(LinkTarget::Internal { path }) = map_link(&s) {
            prop_assert!(!path.starts_with("//") && !path.contains('\\'));
        }
    }
}
