//! `make bench-linking`: the entity linker's throughput on 10,000 items against a catalogue of
//! 5,000 tokens with 40,000 aliases (and 200 tags), natively; with `--write FILE` it also writes
//! the catalogue and items as JSON for the wasm run (pkg-tests/bench-linking.mjs), so both
//! builds link the same data.

use std::collections::BTreeMap;
use std::time::Instant;

use client_core::linking::{Catalogue, KeywordEntry, LinkText, Linker, TokenEntry};

const TOKENS: usize = 5_000;
const ITEMS: usize = 10_000;
const LOCALES: [&str; 5] = ["en", "zh-Hans", "zh-Hant", "vi", "ko"];

/// A small deterministic generator (no dependency, same data every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (self.0 >> 33) as usize
    }
}

const SYLLABLES: [&str; 16] = [
    "ka", "ro", "mi", "zen", "tor", "qua", "lix", "ven", "dra", "pol", "sun", "fi", "nex", "vor",
    "tal", "bre",
];
const HAN: [char; 16] = [
    '链', '币', '星', '云', '龙', '光', '海', '山', '金', '火', '风', '雷', '银', '石', '天', '网',
];
const HANGUL: [char; 16] = [
    '코', '인', '체', '라', '노', '비', '트', '스', '타', '리', '온', '파', '솔', '네', '카', '모',
];

fn word(rng: &mut Lcg, parts: usize) -> String {
    (0..parts).map(|_| SYLLABLES[rng.next() % 16]).collect()
}

fn chars(rng: &mut Lcg, set: &[char; 16], n: usize) -> String {
    (0..n).map(|_| set[rng.next() % 16]).collect()
}

fn catalogue(rng: &mut Lcg) -> Catalogue {
    let tokens = (0..TOKENS)
        .map(|i| {
            let name = format!("{}{}", word(rng, 2), i);
            let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
            // With the symbol and the name, eight aliases a token: 40,000 in all.
            aliases.insert(
                "en".into(),
                vec![format!("{name} network"), format!("{name}coin")],
            );
            aliases.insert(
                "zh-Hans".into(),
                vec![format!("{}{i}", chars(rng, &HAN, 3))],
            );
            aliases.insert(
                "zh-Hant".into(),
                vec![format!("{}{i}", chars(rng, &HAN, 3))],
            );
            aliases.insert("vi".into(), vec![format!("đồng {name}")]);
            aliases.insert("ko".into(), vec![format!("{}{i}", chars(rng, &HANGUL, 3))]);
            TokenEntry {
                id: i as i64 + 1,
                symbol: format!("T{i}"),
                name,
                aliases,
                ambiguous: i % 50 == 0,
            }
        })
        .collect();
    let tags = (0..200)
        .map(|i| KeywordEntry {
            id: 100_000 + i,
            code: format!("tag{i}"),
            keywords: LOCALES
                .iter()
                .map(|l| ((*l).to_owned(), vec![format!("{} {i}", word(rng, 2))]))
                .collect(),
            token: None,
        })
        .collect();
    Catalogue {
        tokens,
        tags,
        ..Default::default()
    }
}

fn items(rng: &mut Lcg, catalogue: &Catalogue) -> Vec<LinkText> {
    (0..ITEMS)
        .map(|i| {
            let lang = LOCALES[i % 5];
            let a = &catalogue.tokens[rng.next() % TOKENS];
            let b = &catalogue.tokens[rng.next() % TOKENS];
            let alias = |t: &TokenEntry| t.aliases[lang][0].clone();
            let title = format!(
                "{} rallies as {} ({}) funds pour in, {} says",
                alias(a),
                b.name,
                b.symbol,
                word(rng, 3)
            );
            let summary = format!(
                "Traders moved {} million into {} after the upgrade; {} volumes doubled.",
                rng.next() % 900,
                a.symbol,
                word(rng, 2)
            );
            let body = format!("{summary} ").repeat(4);
            LinkText {
                lang: lang.to_owned(),
                title,
                summary,
                body,
            }
        })
        .collect()
}

fn main() {
    let mut rng = Lcg(42);
    let catalogue = catalogue(&mut rng);
    let items = items(&mut rng, &catalogue);
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--write") {
        let path = args.get(at + 1).expect("--write FILE");
        let data = serde_json::json!({ "catalogue": catalogue, "items": items });
        std::fs::write(path, data.to_string()).expect("write the bench data");
    }
    let aliases: usize = catalogue
        .tokens
        .iter()
        .map(|t| 2 + t.aliases.values().map(Vec::len).sum::<usize>())
        .sum();
    let built = Instant::now();
    let linker = Linker::new(&catalogue);
    let build_ms = built.elapsed().as_secs_f64() * 1e3;
    let mut runs = Vec::new();
    let mut linked = 0;
    for _ in 0..3 {
        let start = Instant::now();
        linked = items
            .iter()
            .map(|item| linker.link(&item.document()).tokens.len())
            .sum::<usize>();
        runs.push(ITEMS as f64 / start.elapsed().as_secs_f64());
    }
    runs.sort_by(f64::total_cmp);
    println!(
        "native: {TOKENS} tokens, {aliases} token aliases, {ITEMS} items: build {build_ms:.0} ms, \
         {:.0} items/s (median of 3; target >= 5,000), {linked} token links",
        runs[1]
    );
}
