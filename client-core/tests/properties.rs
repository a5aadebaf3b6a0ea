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

mod alerts {
    use client_core::alert::{AlertIndex, AlertItem, AlertRule, rule_matches};
    use proptest::prelude::*;

    /// Words from a small vocabulary in several scripts, so rules and items meet often.
    fn word() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "btc",
            "etf",
            "spot",
            "Giá",
            "比特币",
            "以太坊",
            "비트코인",
            "$1b",
            "-scam",
            "scam",
            "\"spot etf\"",
            "ETFs",
            "ô",
        ])
        .prop_map(str::to_owned)
    }

    fn rule() -> impl Strategy<Value = AlertRule> {
        (
            prop::collection::vec(word(), 0..4),
            prop::collection::vec(prop::sample::select(vec!["BTC", "eth"]), 0..2),
            prop::collection::vec(prop::sample::select(vec!["defi", "etf"]), 0..2),
            prop::collection::vec(0i64..3, 0..2),
            any::<bool>(),
            prop::collection::vec(prop::sample::select(vec!["en", "vi"]), 0..2),
        )
            .prop_map(
                |(keywords, tokens, tags, kols, only_important, langs)| AlertRule {
                    keywords,
                    tokens: tokens.into_iter().map(str::to_owned).collect(),
                    tags: tags.into_iter().map(str::to_owned).collect(),
                    kols: kols.clone(),
                    topics: kols,
                    only_important,
                    langs: langs.into_iter().map(str::to_owned).collect(),
                    ..AlertRule::default()
                },
            )
    }

    fn item() -> impl Strategy<Value = AlertItem> {
        (
            prop::collection::vec(word(), 0..8),
            any::<bool>(),
            prop::sample::select(vec!["en", "vi", "ko"]),
            prop::option::of(0i64..3),
            prop::collection::vec(prop::sample::select(vec!["btc", "ETH"]), 0..2),
        )
            .prop_map(|(words, important, lang, kol, tokens)| AlertItem {
                important,
                langs: vec![lang.to_owned()],
                tokens: tokens.into_iter().map(str::to_owned).collect(),
                tags: vec!["etf".to_owned()],
                kol,
                topics: kol.into_iter().collect(),
                texts: vec![words.join(" "), words.concat()],
                ..AlertItem::default()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The index finds exactly the rules that match, one by one.
        #[test]
        fn the_index_finds_what_each_rule_matches(
            rules in prop::collection::vec(rule(), 0..12),
            items in prop::collection::vec(item(), 1..4),
        ) {
            let mut index = AlertIndex::new();
            for (at, rule) in rules.iter().enumerate() {
                index.insert(at, rule);
            }
            for item in &items {
                let one_by_one: Vec<usize> = (0..rules.len())
                    .filter(|at| rule_matches(&rules[*at], item))
                    .collect();
                prop_assert_eq!(index.matching(item), one_by_one);
            }
        }
    }
}
