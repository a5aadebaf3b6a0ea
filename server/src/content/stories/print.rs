//! An item's fingerprint for story grouping, and the rule that says whether two items report the
//! same event.
//!
//! Two kinds of evidence, because reports of one event share words only within a language:
//! - **text**: a MinHash signature of each text the item has (its original, and its English
//!   translation when it came with one) over word and word-pair shingles, or character pairs for
//!   Chinese, Japanese and Korean. Signatures in the same language estimate how much two texts
//!   overlap; their bands (LSH) are index keys, so candidates are found without comparing pairs.
//! - **anchors**, the same in every language: the item's tokens, names written in Latin letters
//!   (Binance, BlackRock, Arbitrum: kept in Latin by Chinese, Korean and Vietnamese writers too)
//!   and amounts, read with their units in every language ("$120 million", "1.2亿美元",
//!   "1억2천만 달러" and "120 triệu USD" are all 1.2e8). Pairs of anchors are index keys.
//!
//! Different tokens, or amounts with none in common, mean different events: the ETF inflow of
//! Monday and that of Tuesday read alike but for their figures.

use std::collections::BTreeSet;

use client_core::script::is_cjk;
use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

/// Values in a signature.
const HASHES: usize = 64;
/// Values per band: two texts sharing a third of their shingles share a band 19 times in 20.
const BAND_ROWS: usize = 2;
/// Within this time, a token and a name in common are enough across languages.
const CLOSE_SECONDS: i64 = 3 * 3_600;
/// Anchors kept per item (their pairs are index keys: at most 28).
const ANCHORS_MAX: usize = 8;

/// One text of an item to fingerprint.
pub struct Text<'a> {
    pub lang: &'a str,
    pub title: &'a str,
    pub summary: &'a str,
}

/// What is kept of an item for grouping (stored as JSON beside the index keys).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Print {
    /// One MinHash signature per language the item has text in.
    pub sigs: Vec<(String, Vec<u32>)>,
    /// Token symbols.
    pub tokens: Vec<String>,
    /// Latin-letter names, lowercased.
    pub names: Vec<String>,
    /// Amounts, as `1.2e8`, and percentages, as `15%`.
    pub amounts: Vec<String>,
    /// The first amount of the original title: the figure the report is about.
    pub headline: Option<String>,
}

impl Print {
    /// `texts`: the original first, then translations (one per language is used).
    pub fn of(texts: &[Text], tokens: &[String]) -> Self {
        let mut print = Self {
            tokens: tokens.iter().map(|t| t.to_uppercase()).collect(),
            ..Self::default()
        };
        print.tokens.sort();
        print.tokens.dedup();
        let mut names = BTreeSet::new();
        let mut amounts = BTreeSet::new();
        for text in texts {
            let title = normalise(text.title);
            let summary = normalise(text.summary);
            if print.headline.is_none() && print.sigs.is_empty() {
                print.headline = read_amounts(&title).into_iter().next();
            }
            for part in [&title, &summary] {
                names.extend(latin_names(part));
                names.extend(known_names(part));
                amounts.extend(read_amounts(part));
            }
            let lang = script_of(text.lang);
            if print.sigs.iter().any(|(l, _)| l == lang) {
                continue;
            }
            let shingles = shingles(&format!("{title}\n{summary}"));
            if !shingles.is_empty() {
                print.sigs.push((lang.to_owned(), minhash(&shingles)));
            }
        }
        // Symbols are tokens already; a name also spelled as a token is not a second anchor.
        let symbols: BTreeSet<String> = print.tokens.iter().map(|t| t.to_lowercase()).collect();
        print.names = names.into_iter().filter(|n| !symbols.contains(n)).collect();
        print.amounts = amounts.into_iter().collect();
        print
    }

    /// All anchors, each prefixed by its kind, at most [`ANCHORS_MAX`] (tokens and amounts
    /// first: the most telling).
    fn anchors(&self) -> Vec<String> {
        let tokens = self.tokens.iter().map(|t| format!("t:{t}"));
        let amounts = self.amounts.iter().map(|a| format!("n:{a}"));
        let names = self.names.iter().map(|n| format!("a:{n}"));
        tokens
            .chain(amounts)
            .chain(names)
            .take(ANCHORS_MAX)
            .collect()
    }

    /// The index keys under which this item is found: its signatures' bands, and pairs of its
    /// anchors.
    pub fn keys(&self) -> Vec<i64> {
        let mut keys = BTreeSet::new();
        for (lang, sig) in &self.sigs {
            for (band, rows) in sig.chunks(BAND_ROWS).enumerate() {
                let mut bytes = format!("b:{lang}:{band}:").into_bytes();
                for value in rows {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
                keys.insert(key(&bytes));
            }
        }
        let anchors = self.anchors();
        for (i, a) in anchors.iter().enumerate() {
            for b in &anchors[i + 1..] {
                keys.insert(key(format!("p:{a}|{b}").as_bytes()));
            }
        }
        keys.into_iter().collect()
    }

    /// Whether `self` and `other`, published `gap` seconds apart, report the same event.
    pub fn same_event(&self, other: &Self, gap: i64) -> bool {
        let shared_tokens = shared(&self.tokens, &other.tokens);
        if !self.tokens.is_empty() && !other.tokens.is_empty() && shared_tokens == 0 {
            return false;
        }
        let shared_amounts = shared(&self.amounts, &other.amounts);
        if !self.amounts.is_empty() && !other.amounts.is_empty() && shared_amounts == 0 {
            return false;
        }
        // Each headline figure must be among the other's figures.
        let misses =
            |a: &Self, b: &Self| a.headline.as_ref().is_some_and(|h| !b.amounts.contains(h));
        if self.headline.is_some()
            && other.headline.is_some()
            && (misses(self, other) || misses(other, self))
        {
            return false;
        }
        let shared_names = shared(&self.names, &other.names);
        // Percentages alone are common ("up 3%"): only amounts vouch for an event.
        let shared_figures = self
            .amounts
            .iter()
            .filter(|a| !a.ends_with('%') && other.amounts.contains(a))
            .count();
        let anchors = shared_tokens + shared_amounts + shared_names;
        match self.text_overlap(other) {
            // Written in one script: their words must agree too.
            Some(text) => {
                text >= 0.5 || (text >= 0.25 && anchors >= 2) || (text >= 0.15 && anchors >= 3)
            }
            None => {
                (shared_figures >= 1 && shared_names + shared_tokens >= 1)
                    || (shared_names >= 2 && shared_tokens >= 1)
                    || shared_names >= 3
                    // Reports of one event come within hours of each other.
                    || (gap.abs() <= CLOSE_SECONDS && shared_names >= 1 && shared_tokens >= 1)
            }
        }
    }

    /// The estimated overlap (Jaccard) of the two items' texts in the scripts both have
    /// text in, if any.
    fn text_overlap(&self, other: &Self) -> Option<f64> {
        self.sigs
            .iter()
            .filter_map(|(lang, a)| {
                let (_, b) = other.sigs.iter().find(|(l, _)| l == lang)?;
                let equal = a.iter().zip(b).filter(|(x, y)| x == y).count();
                Some(equal as f64 / HASHES as f64)
            })
            .reduce(f64::max)
    }
}

/// Simplified and Traditional Chinese share most characters: their texts are compared as one.
fn script_of(lang: &str) -> &str {
    if client_core::locale::uses_chinese_type(lang) {
        "zh"
    } else {
        lang
    }
}

/// Names that Chinese, Korean and Vietnamese writers often spell in their own script: the
/// places, regulators and exchanges crypto news is most about.
const KNOWN_NAMES: &[(&str, &[&str])] = &[
    ("binance", &["币安", "幣安", "바이낸스"]),
    ("upbit", &["업비트"]),
    ("bithumb", &["빗썸"]),
    ("coinbase", &["코인베이스"]),
    ("blackrock", &["贝莱德", "貝萊德", "블랙록"]),
    ("grayscale", &["灰度", "그레이스케일"]),
    ("tether", &["泰达", "테더"]),
    ("ripple", &["瑞波", "리플"]),
    ("hongkong", &["hong kong", "香港", "홍콩", "hồng kông"]),
    ("korea", &["韩国", "韓國", "한국", "국회", "hàn quốc"]),
    ("vietnam", &["越南", "베트남", "việt nam"]),
    ("japan", &["日本", "일본", "nhật bản"]),
    (
        "fed",
        &["federal reserve", "美联储", "聯準會", "연준", "fed"],
    ),
    ("sec", &["sec"]),
];

/// [`KNOWN_NAMES`] found in a text, by their Latin name.
fn known_names(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    KNOWN_NAMES
        .iter()
        .filter(|(name, spellings)| {
            spellings.iter().chain(std::iter::once(name)).any(|s| {
                lower.match_indices(s).any(|(at, _)| {
                    // Latin spellings are whole words ("sec" is not "second").
                    let before = lower[..at].chars().next_back();
                    let after = lower[at + s.len()..].chars().next();
                    !s.is_ascii()
                        || (!before.is_some_and(char::is_alphanumeric)
                            && !after.is_some_and(char::is_alphanumeric))
                })
            })
        })
        .map(|(name, _)| (*name).to_owned())
        .collect()
}

fn shared(a: &[String], b: &[String]) -> usize {
    a.iter().filter(|x| b.contains(x)).count()
}

/// A stable 63-bit key (stored in a signed BIGINT column).
fn key(bytes: &[u8]) -> i64 {
    (xxh3_64(bytes) >> 1) as i64
}

/// NFKC (full-width digits and letters become plain ones), with the case kept: names are told
/// by their capitals.
fn normalise(text: &str) -> String {
    text.nfkc().collect()
}

/// Words too common to tell two stories apart.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "by", "with", "as", "at", "is",
    "are", "was", "were", "be", "its", "it", "this", "that", "from", "after", "has", "have",
    "will", "than", "but", "into", "over", "more", "up", "new", "says", "said", "và", "của", "là",
    "các", "những", "cho", "với", "trong", "đã", "được", "có", "này", "một", "khi", "sau", "từ",
    "theo", "về", "đến", "trên", "vào", "ra",
];

/// Shingles of a text: Latin words (without stopwords) and pairs of neighbouring words, and
/// pairs of neighbouring characters in Chinese, Japanese and Korean runs.
fn shingles(text: &str) -> BTreeSet<String> {
    let lower = text.to_lowercase();
    let mut out = BTreeSet::new();
    let mut words: Vec<String> = Vec::new();
    let mut cjk: Vec<char> = Vec::new();
    let mut word = String::new();
    let flush_cjk = |cjk: &mut Vec<char>, out: &mut BTreeSet<String>| {
        if cjk.len() == 1 {
            out.insert(cjk[0].to_string());
        }
        for pair in cjk.windows(2) {
            out.insert(pair.iter().collect());
        }
        cjk.clear();
    };
    for c in lower.chars().chain(std::iter::once(' ')) {
        if is_cjk(c) {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            cjk.push(c);
        } else if c.is_alphanumeric() {
            flush_cjk(&mut cjk, &mut out);
            word.push(c);
        } else {
            flush_cjk(&mut cjk, &mut out);
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        }
    }
    let words: Vec<&String> = words
        .iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect();
    for w in &words {
        out.insert((*w).clone());
    }
    for pair in words.windows(2) {
        out.insert(format!("{} {}", pair[0], pair[1]));
    }
    out
}

fn minhash(shingles: &BTreeSet<String>) -> Vec<u32> {
    (0..HASHES as u64)
        .map(|seed| {
            shingles
                .iter()
                .map(|s| (xxh3_64_with_seed(s.as_bytes(), seed) >> 32) as u32)
                .min()
                .unwrap_or(u32::MAX)
        })
        .collect()
}

/// Capitalised words that start sentences and headlines: not names.
const NOT_NAMES: &[&str] = &[
    "the", "a", "an", "net", "spot", "new", "after", "in", "on", "at", "for", "as", "its", "this",
    "hackers", "us", "u.s.", "sàn", "quỹ", "dòng", "giá", "mạng", "nhà", "công", "ty", "etf",
    "etfs", "ceo", "sec", "defi", "nft", "nfts", "usd", "usdt", "dao", "tvl", "ai", "dex", "cex",
    "gas", "ipo", "kyc", "bitcoin", "ether", "ethereum", "solana", "hong", "kong", "fed",
];

/// Words in Latin letters that read as names: with a capital past the first letter (BlackRock,
/// ETH), or capitalised and not the first word of a sentence; in a text mostly in another
/// script, every Latin word.
fn latin_names(text: &str) -> Vec<String> {
    let latin_letters = text.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let foreign = latin_letters * 2 < letters;
    let mut names = Vec::new();
    let mut sentence_start = true;
    for raw in text.split_whitespace() {
        let word: String = raw
            .trim_matches(|c: char| !c.is_alphanumeric())
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let starts_sentence = sentence_start;
        sentence_start = raw.ends_with(['.', '!', '?', ':']);
        if word.chars().count() < 2 || !word.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let lower = word.to_lowercase();
        if NOT_NAMES.contains(&lower.as_str()) {
            continue;
        }
        let inner_capital = word.chars().skip(1).any(|c| c.is_ascii_uppercase());
        let capitalised = word.starts_with(|c: char| c.is_ascii_uppercase());
        if foreign || inner_capital || (capitalised && !starts_sentence) {
            names.push(lower);
        }
    }
    names
}

/// Amounts with their units, in every language, to two significant digits; percentages. Bare
/// small numbers and years tell nothing and are left out.
fn read_amounts(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.to_lowercase().chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // Digits inside a word or a number already read ("L2", "1.5") start nothing.
        let inside = i > 0
            && (chars[i - 1].is_ascii_alphanumeric()
                || (".,".contains(chars[i - 1]) && i > 1 && chars[i - 2].is_ascii_digit()));
        if !chars[i].is_ascii_digit() || inside {
            i += 1;
            continue;
        }
        let (mut value, mut next) = read_number(&chars, i);
        let (unit, after) = read_units(&chars, next);
        let mut percent = false;
        if unit > 0.0 {
            value *= unit;
            next = after;
            // Korean and Chinese compounds: "1억 2천만", "3亿5000万".
            let rest = skip_spaces(&chars, next);
            if chars.get(rest).is_some_and(|c| c.is_ascii_digit()) {
                let (more, after_more) = read_number(&chars, rest);
                let (smaller, after_smaller) = read_units(&chars, after_more);
                if smaller > 0.0 && smaller < unit {
                    value += more * smaller;
                    next = after_smaller;
                }
            }
        } else {
            let sign = skip_spaces(&chars, next);
            if chars.get(sign) == Some(&'%') {
                percent = true;
                next = sign + 1;
            }
        }
        i = next.max(i + 1);
        let year = (1900.0..=2100.0).contains(&value) && value.fract() == 0.0;
        if percent {
            out.push(format!("{}%", significant(value)));
        } else if unit > 0.0 || (value >= 10.0 && !year) {
            out.push(format!("{:.1e}", round2(value)));
        }
    }
    out
}

fn skip_spaces(chars: &[char], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|c| *c == ' ') {
        i += 1;
    }
    i
}

/// A number at `start`: "1,200" and "1.200" are thousands (three digits after the mark), "1.2"
/// and "1,2" (Vietnamese) are decimals.
fn read_number(chars: &[char], start: usize) -> (f64, usize) {
    let mut digits = String::new();
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            digits.push(c);
            i += 1;
        } else if (c == ',' || c == '.') && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
            let run = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit())
                .count();
            if run == 3 {
                i += 1;
            } else if !digits.contains('.') {
                digits.push('.');
                i += 1;
            } else {
                break;
            }
        } else {
            break;
        }
    }
    (digits.parse().unwrap_or(0.0), i)
}

/// The unit words after a number (spaces allowed before them), multiplied ("천만" is 1e7): their
/// multiplier, or 0.
fn read_units(chars: &[char], start: usize) -> (f64, usize) {
    let (mut multiplier, mut at) = read_unit(chars, start);
    while multiplier > 0.0 {
        let (next, after) = read_unit(chars, at);
        if next == 0.0 || next > 1e4 || chars[at..after].iter().any(char::is_ascii) {
            break;
        }
        multiplier *= next;
        at = after;
    }
    (multiplier, at)
}

fn read_unit(chars: &[char], start: usize) -> (f64, usize) {
    const UNITS: &[(&str, f64)] = &[
        ("trillion", 1e12),
        ("billion", 1e9),
        ("million", 1e6),
        ("thousand", 1e3),
        ("bn", 1e9),
        ("mn", 1e6),
        ("nghìn", 1e3),
        ("ngàn", 1e3),
        ("triệu", 1e6),
        ("tỷ", 1e9),
        ("tỉ", 1e9),
        ("b", 1e9),
        ("m", 1e6),
        ("k", 1e3),
        ("千", 1e3),
        ("万", 1e4),
        ("萬", 1e4),
        ("亿", 1e8),
        ("億", 1e8),
        ("천", 1e3),
        ("만", 1e4),
        ("억", 1e8),
        ("조", 1e12),
    ];
    let at = skip_spaces(chars, start);
    for (word, multiplier) in UNITS {
        let len = word.chars().count();
        let matches =
            chars.len() >= at + len && chars[at..at + len].iter().copied().eq(word.chars());
        // A Latin unit is a whole word ("5 m" but not "5 miners").
        let whole = !word.is_ascii() || !chars.get(at + len).is_some_and(|c| c.is_alphanumeric());
        if matches && whole {
            return (*multiplier, at + len);
        }
    }
    (0.0, start)
}

fn round2(value: f64) -> f64 {
    if value == 0.0 {
        return 0.0;
    }
    let magnitude = 10f64.powf(value.abs().log10().floor() - 1.0);
    (value / magnitude).round() * magnitude
}

fn significant(value: f64) -> String {
    let rounded = round2(value);
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded}")
    }
}

// Tests at the module's level: a `mod tests` would name this module by `super`, which reads as
// an import of the parent (the layering check).
#[cfg(test)]
fn amounts(text: &str) -> Vec<String> {
    read_amounts(&normalise(text))
}

#[test]
fn amounts_read_alike_in_every_language() {
    let want = vec!["1.2e8".to_owned()];
    assert_eq!(amounts("Hackers took $120 million"), want);
    assert_eq!(amounts("黑客盗走 1.2亿美元"), want);
    assert_eq!(amounts("해커가 1억2000만 달러를 탈취"), want);
    assert_eq!(amounts("Tin tặc lấy 120 triệu USD"), want);
    assert_eq!(amounts("해커가 1억 2천만 달러를"), want);
    assert_eq!(amounts("駭客盜走１．２億美元"), want);
    assert_eq!(amounts("a $119.6M exploit"), want);
    assert_eq!(amounts("1,2 tỷ USD"), vec!["1.2e9".to_owned()]);
    assert_eq!(amounts("up 15% in 2025, 3 days"), vec!["15%".to_owned()]);
    assert_eq!(amounts("5 miners"), Vec::<String>::new());
}

#[test]
fn names_are_capitalised_words_past_a_sentence_start() {
    assert_eq!(
        latin_names("Hackers drain Arbitrum bridge. BlackRock files"),
        vec!["arbitrum", "blackrock"]
    );
    assert_eq!(latin_names("币安将上线 Plume 代币"), vec!["plume"]);
}

#[cfg(test)]
fn print(lang: &str, title: &str, summary: &str, tokens: &[&str]) -> Print {
    let tokens: Vec<String> = tokens.iter().map(|t| (*t).to_owned()).collect();
    Print::of(
        &[Text {
            lang,
            title,
            summary,
        }],
        &tokens,
    )
}

#[test]
fn one_event_across_languages_and_two_events_apart() {
    let en = print(
        "en",
        "Hackers drain $120 million from Arbitrum bridge",
        "An exploit on the Arbitrum bridge moved 120 million dollars.",
        &["ARB"],
    );
    let zh = print(
        "zh-Hans",
        "Arbitrum 跨链桥遭攻击，损失 1.2亿美元",
        "黑客利用漏洞转走约 1.2亿美元。",
        &["ARB"],
    );
    let next_day = print(
        "en",
        "Hackers drain $45 million from Arbitrum lender",
        "An exploit on an Arbitrum lender moved 45 million dollars.",
        &["ARB"],
    );
    assert!(en.same_event(&zh, 600));
    assert!(
        !en.same_event(&next_day, 86_400),
        "other figures, other event"
    );
    assert!(en.keys().iter().any(|k| zh.keys().contains(k)));
    let back: Print =
        serde_json::from_str(&serde_json::to_string(&en).expect("json")).expect("back");
    assert_eq!(back, en);
}
