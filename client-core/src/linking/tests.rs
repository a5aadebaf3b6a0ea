use super::*;

fn aliases(pairs: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    pairs
        .iter()
        .map(|(locale, words)| {
            let words = words.iter().map(|w| (*w).to_owned()).collect();
            ((*locale).to_owned(), words)
        })
        .collect()
}

fn token(
    id: i64,
    symbol: &str,
    name: &str,
    extra: &[(&str, &[&str])],
    ambiguous: bool,
) -> TokenEntry {
    TokenEntry {
        id,
        symbol: symbol.to_owned(),
        name: name.to_owned(),
        aliases: aliases(extra),
        ambiguous,
    }
}

const BTC: i64 = 1;
const BCH: i64 = 2;
const LINK: i64 = 3;
const NEAR: i64 = 4;
const ETH: i64 = 5;
const TAG_BTC: i64 = 10;
const TAG_ETF: i64 = 11;
const TAG_REG: i64 = 12;
const KOL: i64 = 20;

fn catalogue() -> Catalogue {
    Catalogue {
        tokens: vec![
            token(
                BTC,
                "BTC",
                "Bitcoin",
                &[
                    ("en", &["bitcoin"]),
                    ("zh-Hans", &["比特币"]),
                    ("zh-Hant", &["比特幣"]),
                    ("ko", &["비트코인"]),
                ],
                false,
            ),
            token(
                BCH,
                "BCH",
                "Bitcoin Cash",
                &[("zh-Hans", &["比特币现金"])],
                false,
            ),
            token(LINK, "LINK", "Chainlink", &[("ko", &["체인링크"])], true),
            token(
                NEAR,
                "NEAR",
                "NEAR Protocol",
                &[("ko", &["니어프로토콜"])],
                true,
            ),
            token(ETH, "ETH", "Ethereum", &[("vi", &["Ethereum"])], false),
        ],
        tags: vec![
            KeywordEntry {
                id: TAG_BTC,
                code: "btc".to_owned(),
                keywords: BTreeMap::new(),
                token: Some(BTC),
            },
            KeywordEntry {
                id: TAG_ETF,
                code: "etf".to_owned(),
                keywords: aliases(&[
                    ("en", &["ETF", "ETFs", "spot fund"]),
                    ("zh-Hans", &["现货ETF"]),
                    ("vi", &["quỹ ETF"]),
                ]),
                token: None,
            },
            KeywordEntry {
                id: TAG_REG,
                code: "regulation".to_owned(),
                keywords: aliases(&[("vi", &["pháp lý"]), ("ko", &["규제"])]),
                token: None,
            },
        ],
        topics: vec![],
        kols: vec![KolEntry {
            id: KOL,
            handle: "defi_dora".to_owned(),
            name: "Dora DeFi".to_owned(),
        }],
    }
}

fn title(lang: &str, text: &str) -> Links {
    Linker::new(&catalogue()).link(&Document {
        lang,
        title: text,
        ..Default::default()
    })
}

#[test]
fn the_seed_headline_links_bitcoin_and_its_tag() {
    let links = title("en", "Bitcoin ETF inflows hit record as BTC nears $100K");
    assert_eq!(links.tokens, vec![BTC]);
    assert_eq!(links.tags, vec![TAG_BTC, TAG_ETF]);
    let spans: Vec<(LinkKind, u32, u32)> = links
        .evidence
        .iter()
        .map(|e| (e.kind, e.start, e.end))
        .collect();
    assert_eq!(
        spans,
        vec![
            (LinkKind::Token, 0, 7),
            (LinkKind::Tag, 8, 11),
            (LinkKind::Token, 34, 37)
        ]
    );
}

#[test]
fn chinese_and_korean_match_inside_words() {
    assert_eq!(title("zh-Hans", "比特币现货ETF获批").tokens, vec![BTC]);
    assert_eq!(
        title("zh-Hans", "比特币现货ETF获批").tags,
        vec![TAG_BTC, TAG_ETF]
    );
    assert_eq!(title("zh-Hant", "比特幣突破十萬美元").tokens, vec![BTC]);
    assert_eq!(title("ko", "비트코인이 사상 최고치").tokens, vec![BTC]);
    assert_eq!(title("ko", "정부, 가상자산 규제 강화").tags, vec![TAG_REG]);
}

#[test]
fn the_longest_alias_wins() {
    assert_eq!(title("en", "Bitcoin Cash forks again").tokens, vec![BCH]);
    assert_eq!(title("zh-Hans", "比特币现金减半").tokens, vec![BCH]);
    assert_eq!(
        title("en", "Bitcoin and Bitcoin Cash diverge").tokens,
        vec![BTC, BCH]
    );
}

#[test]
fn latin_aliases_match_whole_words_in_any_case() {
    assert_eq!(title("en", "BITCOIN soars").tokens, vec![BTC]);
    assert_eq!(title("en", "bitcoin's week").tokens, vec![BTC]);
    assert!(title("en", "Bitcoiners gather").tokens.is_empty());
    assert!(title("en", "eBTC vaults open").tokens.is_empty());
    assert_eq!(title("zh-Hans", "BTC现货").tokens, vec![BTC]);
}

#[test]
fn vietnamese_matches_in_nfc_and_nfd() {
    let nfc = title("vi", "Siết chặt pháp lý với sàn giao dịch");
    let nfd = title(
        "vi",
        "Sie\u{302}\u{301}t cha\u{323}t pha\u{301}p ly\u{301} với sàn",
    );
    assert_eq!(nfc.tags, vec![TAG_REG]);
    assert_eq!(nfd.tags, vec![TAG_REG]);
    assert_eq!(title("vi", "Dòng tiền vào quỹ ETF").tags, vec![TAG_ETF]);
    // A different letter is a different word: "phap ly" without its marks is not the keyword.
    assert!(title("vi", "phap ly").tags.is_empty());
}

#[test]
fn ambiguous_symbols_need_context() {
    assert!(
        title("en", "Bitcoin trades near record")
            .tokens
            .contains(&BTC)
    );
    assert!(
        !title("en", "Bitcoin trades near record")
            .tokens
            .contains(&NEAR)
    );
    assert!(title("en", "Click the link to claim").tokens.is_empty());
    assert!(title("en", "LINK holders wait").tokens.is_empty());
    assert_eq!(title("en", "$LINK rallies").tokens, vec![LINK]);
    assert_eq!(title("en", "$link rallies").tokens, vec![LINK]);
    assert_eq!(title("en", "LINK/USDT breaks out").tokens, vec![LINK]);
    assert_eq!(title("en", "NEAR $5.20 support holds").tokens, vec![NEAR]);
    assert_eq!(title("en", "NEAR +12% on the day").tokens, vec![NEAR]);
    assert_eq!(
        title("en", "Chainlink (LINK) adds feeds").tokens,
        vec![LINK]
    );
    assert!(title("en", "Link/usdt").tokens.is_empty());
    assert!(title("en", "LINK/USDTX").tokens.is_empty());
}

#[test]
fn tags_match_their_language_and_english_only() {
    assert_eq!(title("vi", "Các ETF mới").tags, vec![TAG_ETF]);
    assert!(title("en", "Korea 규제").tags.is_empty());
}

#[test]
fn kols_by_handle_and_name() {
    assert_eq!(
        title("en", "Thread by @defi_dora on yields").kols,
        vec![KOL]
    );
    assert_eq!(title("en", "Dora DeFi says hold").kols, vec![KOL]);
    assert!(title("en", "x_defi_dora").kols.is_empty());
}

#[test]
fn a_single_mention_deep_in_a_long_body_is_not_enough() {
    let linker = Linker::new(&catalogue());
    let filler = "Markets were quiet. ".repeat(40);
    let deep = format!("{filler}Ethereum developers met.");
    let doc = |body: &str| -> Links {
        linker.link(&Document {
            lang: "en",
            title: "Weekly wrap",
            summary: "",
            body,
        })
    };
    assert!(doc(&deep).tokens.is_empty());
    assert_eq!(doc(&format!("{deep} Ethereum again.")).tokens, vec![ETH]);
    assert_eq!(doc("Ethereum developers met.").tokens, vec![ETH]);
    let summary = linker.link(&Document {
        lang: "en",
        title: "Weekly wrap",
        summary: "ETH rose.",
        body: "",
    });
    assert_eq!(summary.tokens, vec![ETH]);
    assert_eq!(summary.evidence[0].field, Field::Summary);
}

#[test]
fn the_most_prominent_comes_first() {
    let linker = Linker::new(&catalogue());
    let links = linker.link(&Document {
        lang: "en",
        title: "Ethereum upgrade ships",
        summary: "Bitcoin flat.",
        body: "",
    });
    assert_eq!(links.tokens, vec![ETH, BTC]);
}

#[test]
fn an_empty_catalogue_links_nothing() {
    let links = Linker::new(&Catalogue::default()).link(&Document {
        lang: "en",
        title: "Bitcoin",
        ..Default::default()
    });
    assert_eq!(links, Links::default());
}

#[test]
fn capitalised_names_are_proper_nouns() {
    let catalogue = Catalogue {
        tokens: vec![
            token(30, "AVAX", "Avalanche", &[], false),
            token(31, "SOL", "Solana", &[("en", &["solana"])], false),
        ],
        ..Default::default()
    };
    let linker = Linker::new(&catalogue);
    let title = |text| {
        linker
            .link(&Document {
                lang: "en",
                title: text,
                ..Default::default()
            })
            .tokens
    };
    assert_eq!(title("Avalanche upgrade goes live"), vec![30]);
    assert!(title("An avalanche of sell orders").is_empty());
    // A symbol is written in capitals, or as a cashtag.
    assert_eq!(title("AVAX rallies"), vec![30]);
    assert!(title("avax rallies").is_empty());
    assert_eq!(title("$avax rallies"), vec![30]);
    // Spelled in lower case in the catalogue as well: any case.
    assert_eq!(title("why solana stalled"), vec![31]);
}

#[test]
fn in_chinese_and_korean_capitals_are_names() {
    assert_eq!(title("zh-Hant", "NEAR基金會裁員四成").tokens, vec![NEAR]);
    assert_eq!(title("ko", "LINK 급등").tokens, vec![LINK]);
    assert!(title("en", "NEAR foundation cuts staff").tokens.is_empty());
}

#[test]
fn words_may_name_a_topic_and_a_tag_at_once() {
    let mut catalogue = catalogue();
    catalogue.topics.push(KeywordEntry {
        id: 40,
        code: "etf-flows".to_owned(),
        keywords: aliases(&[("en", &["ETF flows"])]),
        token: None,
    });
    let links = Linker::new(&catalogue).link(&Document {
        lang: "en",
        title: "ETF flows turn",
        ..Default::default()
    });
    assert_eq!((links.tags, links.topics), (vec![TAG_ETF], vec![40]));
}

#[test]
fn a_name_in_capitals_is_matched_in_capitals() {
    let catalogue = Catalogue {
        tags: vec![KeywordEntry {
            id: 50,
            code: "ai".to_owned(),
            keywords: aliases(&[("en", &["AI"])]),
            token: None,
        }],
        ..Default::default()
    };
    let linker = Linker::new(&catalogue);
    let tags = |lang, text| {
        linker
            .link(&Document {
                lang,
                title: text,
                ..Default::default()
            })
            .tags
    };
    assert_eq!(tags("en", "AI agents trade on-chain"), vec![50]);
    assert!(tags("en", "Ai Weiwei's NFT drop").is_empty());
}

#[test]
fn only_a_tokens_own_name_vouches_for_its_bare_symbol() {
    // The tag's id is the token's id: ids are per kind, and naming the tag says nothing of it.
    let mut catalogue = catalogue();
    catalogue.tags.push(KeywordEntry {
        id: LINK,
        code: "oracles".to_owned(),
        keywords: aliases(&[("en", &["oracle"])]),
        token: None,
    });
    let links = Linker::new(&catalogue).link(&Document {
        lang: "en",
        title: "LINK holders wait for the oracle vote",
        ..Default::default()
    });
    assert!(links.tokens.is_empty(), "{links:?}");
    assert_eq!(links.tags, vec![LINK]);
}

#[test]
fn a_huge_repetitive_body_is_read_in_bounded_time() {
    let linker = Linker::new(&catalogue());
    let body = "ETF ".repeat(130_000);
    let links = linker.link(&Document {
        lang: "en",
        title: "Wrap",
        summary: "",
        body: &body,
    });
    assert_eq!(links.tags, vec![TAG_ETF]);
    assert!(links.evidence.len() <= 2_000);
}
