//! Entity linking: which of the catalogue's tokens, tags, topics and KOLs a text names, in the
//! five languages. One rule for every stored item (the server, whatever its source), the Write
//! page's suggestions and the alert editor (the wasm module only those pages load).
//!
//! - Aliases and keywords match without regard to case or Unicode form (NFC and NFD, full-width
//!   Latin): see `fold`, except that a name the catalogue writes with a capital is a proper noun
//!   and matches only where the text capitalises it too ("Avalanche", not "an avalanche of sell
//!   orders"; "AI", not the Vietnamese "Ai"); written in lower case ("bitcoin"), it matches in
//!   any case. Latin and Vietnamese
//!   ones match whole words; Chinese and Korean ones match at any position (their words are not
//!   spaced).
//! - Where aliases overlap, the longest wins ("Bitcoin Cash" is not also Bitcoin), and a
//!   stretch of text names one thing.
//! - A symbol links when written in capitals (`BTC`, not `btc`), or as a cashtag in any case
//!   (`$btc`). A token marked `ambiguous` (its symbol is also a word: LINK, OP, NEAR, TON, DOT,
//!   …) is linked by its bare symbol only where the text also names the token, writes the symbol
//!   as a pair or beside a price (`LINK/USDT`, `NEAR $5.20`, `SUI +12%`), or is Chinese or
//!   Korean (where Latin capitals are names, not words of the sentence).
//! - Where a mention is counts: a title mention weighs [`WEIGHT_TITLE`], the summary's
//!   [`WEIGHT_SUMMARY`], the body's first [`BODY_LEAD_CHARS`] characters [`WEIGHT_BODY_LEAD`] and
//!   the rest of the body [`WEIGHT_BODY_DEEP`]; a thing is linked at [`LINK_MIN_WEIGHT`], so one
//!   mention deep in a long body is not enough.
//! - Tags and topics match their keywords in the text's own language and in English (crypto news
//!   of every language borrows English terms); tokens and KOLs match their aliases in any language.
//! - A tag that stands for a token is linked with the token.
//!
//! Evidence offsets count Unicode characters of the field they are in.

mod fold;

use std::collections::{BTreeMap, HashMap};

use aho_corasick::Input;
use aho_corasick::automaton::Automaton;
use aho_corasick::nfa::contiguous::NFA;
use serde::{Deserialize, Serialize};

use fold::{Folded, continues_word, fold};

pub const WEIGHT_TITLE: u32 = 4;
pub const WEIGHT_SUMMARY: u32 = 3;
pub const WEIGHT_BODY_LEAD: u32 = 2;
pub const WEIGHT_BODY_DEEP: u32 = 1;
pub const LINK_MIN_WEIGHT: u32 = 2;
/// Things of one kind a text is linked to at most, the most prominent kept.
pub const LINKS_PER_KIND_MAX: usize = 10;
/// How much of a body is read for links, in characters.
pub const BODY_LINKED_CHARS: usize = 20_000;
/// Matches looked at in one field at most (before whole words and overlaps are sorted out).
const CANDIDATES_PER_FIELD_MAX: usize = 2_000;
/// How much of a body counts as its lead, in characters.
pub const BODY_LEAD_CHARS: u32 = 600;

/// Languages written without spaces between words.
const UNSPACED_LOCALES: &[&str] = &["zh-Hans", "zh-Hant", "ko"];

/// Quote currencies of a trading pair (`LINK/USDT`, `DOT-USD`).
const PAIR_QUOTES: &[&str] = &[
    "usdt", "usdc", "usd", "busd", "fdusd", "btc", "eth", "krw", "eur", "try", "jpy", "vnd", "cny",
];

/// The catalogue as the linker reads it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "ts", ts(rename = "LinkCatalogue"))]
#[serde(default)]
pub struct Catalogue {
    pub tokens: Vec<TokenEntry>,
    pub tags: Vec<KeywordEntry>,
    pub topics: Vec<KeywordEntry>,
    pub kols: Vec<KolEntry>,
}

/// A token: its symbol and name always count as aliases.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct TokenEntry {
    pub id: i64,
    pub symbol: String,
    pub name: String,
    /// Other names, keyed by locale (`{"zh-Hans": ["比特币"]}`).
    pub aliases: BTreeMap<String, Vec<String>>,
    /// Its symbol is also a word: a bare symbol needs its name, a pair or a price beside it.
    pub ambiguous: bool,
}

/// A tag or a topic: the words that say it, keyed by locale.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct KeywordEntry {
    pub id: i64,
    pub code: String,
    pub keywords: BTreeMap<String, Vec<String>>,
    /// The token a tag stands for: linked with it.
    pub token: Option<i64>,
}

/// A KOL: named by handle (`@handle` or bare) or by name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct KolEntry {
    pub id: i64,
    pub handle: String,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    Token,
    Tag,
    Topic,
    Kol,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Field {
    Title,
    Summary,
    Body,
}

/// Where a linked thing is named: characters `start..end` of `field`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Evidence {
    pub kind: LinkKind,
    pub id: i64,
    pub field: Field,
    pub start: u32,
    pub end: u32,
}

/// What a text names, each list by weight (the most prominent first), then id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Links {
    pub tokens: Vec<i64>,
    pub tags: Vec<i64>,
    pub topics: Vec<i64>,
    pub kols: Vec<i64>,
    pub evidence: Vec<Evidence>,
}

impl Links {
    /// The linked ids of one kind.
    pub fn ids(&self, kind: LinkKind) -> &[i64] {
        match kind {
            LinkKind::Token => &self.tokens,
            LinkKind::Tag => &self.tags,
            LinkKind::Topic => &self.topics,
            LinkKind::Kol => &self.kols,
        }
    }
}

/// A text to link as the browser sends it: plain text and its language.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct LinkText {
    pub lang: String,
    pub title: String,
    pub summary: String,
    pub body: String,
}

impl LinkText {
    pub fn document(&self) -> Document<'_> {
        Document {
            lang: &self.lang,
            title: &self.title,
            summary: &self.summary,
            body: &self.body,
        }
    }
}

/// A text to link: plain text (HTML already stripped) and its language.
#[derive(Debug, Clone, Copy, Default)]
pub struct Document<'a> {
    pub lang: &'a str,
    pub title: &'a str,
    pub summary: &'a str,
    pub body: &'a str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    /// A name, alias, keyword or handle.
    Name,
    /// A token's symbol, and whether it is also a word.
    Symbol { ambiguous: bool },
}

#[derive(Debug, Clone)]
struct Pattern {
    kind: LinkKind,
    id: i64,
    class: Class,
    /// The locale it counts in (tags' and topics' keywords), or any.
    locale: Option<String>,
    /// Whole words at its start and end (it begins or ends with a letter of a spaced script).
    word_start: bool,
    word_end: bool,
    /// How a name must be written in the text.
    case: Case,
}

/// How the text must write a name: as the catalogue capitalises it ("Avalanche" is a proper
/// noun, "an avalanche of orders" is not; "AI" is not the Vietnamese "Ai", who), or in any case
/// where the catalogue writes it in lower case ("bitcoin").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    Any,
    Initial,
    Whole,
}

impl Case {
    fn of(alias: &str) -> Self {
        let letters = || alias.chars().filter(|c| c.is_alphabetic());
        let cased = letters().any(|c| c.is_uppercase() || c.is_lowercase());
        if cased && letters().count() >= 2 && !letters().any(char::is_lowercase) {
            Self::Whole
        } else if alias.trim_start().starts_with(char::is_uppercase) {
            Self::Initial
        } else {
            Self::Any
        }
    }
}

/// One mention found, before the document-wide checks.
struct Candidate {
    pattern: usize,
    field: Field,
    /// Folded byte span in its field.
    start: usize,
    end: usize,
    /// An ambiguous symbol with no pair, price or `$` beside it: kept only if the name is there.
    needs_name: bool,
}

/// The catalogue compiled for matching; build once, link many texts.
pub struct Linker {
    /// aho-corasick's contiguous NFA itself rather than its `AhoCorasick` front, which links
    /// every kind of automaton in: the wasm module the linker is in is 12 KB smaller
    /// gzipped for it (measured; search speed in BENCHMARKS.md).
    automaton: NFA,
    patterns: Vec<Pattern>,
    /// Tag ids by the token they stand for.
    tags_of_token: HashMap<i64, Vec<i64>>,
}

impl Linker {
    pub fn new(catalogue: &Catalogue) -> Self {
        let mut texts: Vec<String> = Vec::new();
        let mut patterns: Vec<Pattern> = Vec::new();
        // Each folded alias once per thing and locale; spelled both ways, it is not proper.
        let mut seen: HashMap<(String, LinkKind, i64, Option<String>, Class), usize> =
            HashMap::new();
        let mut add = |text: &str, kind, id, class, locale: Option<&str>| {
            let folded = fold(text);
            let (Some(first), Some(last)) = (folded.chars().next(), folded.chars().next_back())
            else {
                return;
            };
            let case = if class == Class::Name {
                Case::of(text)
            } else {
                Case::Any
            };
            let key = (folded.clone(), kind, id, locale.map(str::to_owned), class);
            if let Some(&at) = seen.get(&key) {
                let known: &mut Pattern = &mut patterns[at];
                known.case = known.case.min(case);
                return;
            }
            seen.insert(key, patterns.len());
            patterns.push(Pattern {
                kind,
                id,
                class,
                locale: locale.map(str::to_owned),
                word_start: continues_word(first),
                word_end: continues_word(last),
                case,
            });
            texts.push(folded);
        };
        for t in &catalogue.tokens {
            let symbol = Class::Symbol {
                ambiguous: t.ambiguous,
            };
            add(&t.symbol, LinkKind::Token, t.id, symbol, None);
            // A name written as the symbol (BNB, XRP) is the symbol, with its rules; "Sui" beside
            // SUI is a name, capitalised.
            let name_class = if t.name == t.symbol {
                symbol
            } else {
                Class::Name
            };
            add(&t.name, LinkKind::Token, t.id, name_class, None);
            for alias in t.aliases.values().flatten() {
                // An alias spelled as the symbol is the symbol, with its ambiguity.
                let class = if alias.eq_ignore_ascii_case(&t.symbol) {
                    symbol
                } else {
                    Class::Name
                };
                add(alias, LinkKind::Token, t.id, class, None);
            }
        }
        for (kind, entries) in [
            (LinkKind::Tag, &catalogue.tags),
            (LinkKind::Topic, &catalogue.topics),
        ] {
            for e in entries {
                for (locale, words) in &e.keywords {
                    for word in words {
                        add(word, kind, e.id, Class::Name, Some(locale));
                    }
                }
            }
        }
        for k in &catalogue.kols {
            add(&k.name, LinkKind::Kol, k.id, Class::Name, None);
            add(&k.handle, LinkKind::Kol, k.id, Class::Name, None);
        }
        let mut tags_of_token: HashMap<i64, Vec<i64>> = HashMap::new();
        for tag in &catalogue.tags {
            if let Some(token) = tag.token {
                tags_of_token.entry(token).or_default().push(tag.id);
            }
        }
        // Built from our own strings only; a failure would be a size limit of the automaton.
        let automaton = NFA::new(&texts).unwrap_or_else(|_| {
            NFA::new(std::iter::empty::<&str>()).expect("an empty automaton builds")
        });
        Self {
            automaton,
            patterns,
            tags_of_token,
        }
    }

    /// What `doc` names.
    pub fn link(&self, doc: &Document) -> Links {
        let lang = crate::locale::normalize_locale(doc.lang);
        // A body past its first BODY_LINKED_CHARS adds only deep mentions: not worth linear
        // work on half a megabyte a source may send.
        let body = doc
            .body
            .char_indices()
            .nth(BODY_LINKED_CHARS)
            .map_or(doc.body, |(at, _)| &doc.body[..at]);
        let fields = [
            (Field::Title, Folded::new(doc.title)),
            (Field::Summary, Folded::new(doc.summary)),
            (Field::Body, Folded::new(body)),
        ];
        let mut accepted: Vec<Candidate> = Vec::new();
        for (field, folded) in &fields {
            let mut found = self.candidates(*field, folded, lang);
            // The longest first; a mention overlapping one of its kind already kept is another
            // reading of the same words (the same words may name a topic and a tag).
            found.sort_by_key(|c| (std::cmp::Reverse(c.end - c.start), c.start));
            let mut kept: Vec<Candidate> = Vec::new();
            for c in found {
                let kind = self.patterns[c.pattern].kind;
                let free = kept.iter().all(|k| {
                    self.patterns[k.pattern].kind != kind || c.end <= k.start || c.start >= k.end
                });
                if free {
                    kept.push(c);
                }
            }
            accepted.extend(kept);
        }
        // Tokens the text names by name (ids are per kind: a tag's id says nothing of a token).
        let named: Vec<i64> = accepted
            .iter()
            .map(|c| &self.patterns[c.pattern])
            .filter(|p| p.kind == LinkKind::Token && p.class == Class::Name)
            .map(|p| p.id)
            .collect();
        accepted.retain(|c| {
            let p = &self.patterns[c.pattern];
            !c.needs_name || (p.kind == LinkKind::Token && named.contains(&p.id))
        });
        accepted.sort_by_key(|c| (c.field as u8, c.start, c.end));
        self.weigh(&fields, &accepted)
    }

    /// Every mention in one field that passes the local checks (language, whole words, the
    /// symbol's context).
    fn candidates(&self, field: Field, folded: &Folded, lang: &str) -> Vec<Candidate> {
        let text = folded.text.as_str();
        let unspaced = UNSPACED_LOCALES.contains(&lang);
        let mut out = Vec::new();
        // Overlapping search on an unanchored NFA of standard semantics cannot fail.
        let Ok(found) = self.automaton.try_find_overlapping_iter(Input::new(text)) else {
            return out;
        };
        // Mentions past the cap change no link's weight enough to matter, and a text made of one
        // keyword repeated must not cost the square of its length to sort out.
        for m in found.take(CANDIDATES_PER_FIELD_MAX) {
            let p = &self.patterns[m.pattern().as_usize()];
            let (start, end) = (m.start(), m.end());
            if p.locale.as_deref().is_some_and(|l| l != lang && l != "en") {
                continue;
            }
            if p.word_start && folded.before(start).is_some_and(continues_word) {
                continue;
            }
            if p.word_end && folded.after(end).is_some_and(continues_word) {
                continue;
            }
            let first_len = text[start..].chars().next().map_or(0, char::len_utf8);
            let written = match p.case {
                Case::Any => true,
                Case::Initial => folded.capitals(start, start + first_len),
                Case::Whole => folded.capitals(start, end),
            };
            if !written {
                continue;
            }
            let mut needs_name = false;
            if let Class::Symbol { ambiguous } = p.class {
                let cashtag = folded.before(start) == Some('$');
                if !cashtag {
                    // Symbols are written in capitals: "tia" is a Vietnamese word, "arb" a
                    // trader's.
                    if !folded.capitals(start, end) {
                        continue;
                    }
                    // In Chinese and Korean, Latin capitals are names, never words of the
                    // sentence.
                    needs_name = ambiguous && !unspaced && !beside_pair_or_price(text, end);
                }
            }
            out.push(Candidate {
                pattern: m.pattern().as_usize(),
                field,
                start,
                end,
                needs_name,
            });
        }
        out
    }

    /// Sums each thing's mentions by where they are and keeps those heavy enough.
    fn weigh(&self, fields: &[(Field, Folded); 3], accepted: &[Candidate]) -> Links {
        let mut weights: HashMap<(LinkKind, i64), (u32, usize)> = HashMap::new();
        let mut evidence = Vec::with_capacity(accepted.len());
        for (order, c) in accepted.iter().enumerate() {
            let p = &self.patterns[c.pattern];
            let folded = &fields[c.field as usize].1;
            let (start, end) = (folded.original(c.start), folded.original(c.end));
            let weight = match c.field {
                Field::Title => WEIGHT_TITLE,
                Field::Summary => WEIGHT_SUMMARY,
                Field::Body if start < BODY_LEAD_CHARS => WEIGHT_BODY_LEAD,
                Field::Body => WEIGHT_BODY_DEEP,
            };
            let entry = weights.entry((p.kind, p.id)).or_insert((0, order));
            entry.0 += weight;
            evidence.push(Evidence {
                kind: p.kind,
                id: p.id,
                field: c.field,
                start,
                end,
            });
        }
        for (&(kind, id), &(weight, first)) in weights.clone().iter() {
            if kind != LinkKind::Token || weight < LINK_MIN_WEIGHT {
                continue;
            }
            for tag in self.tags_of_token.get(&id).into_iter().flatten() {
                let entry = weights.entry((LinkKind::Tag, *tag)).or_insert((0, first));
                entry.0 = entry.0.max(weight);
            }
        }
        let mut ranked: Vec<((LinkKind, i64), (u32, usize))> = weights
            .into_iter()
            .filter(|(_, (weight, _))| *weight >= LINK_MIN_WEIGHT)
            .collect();
        ranked.sort_by_key(|((_, id), (weight, first))| (std::cmp::Reverse(*weight), *first, *id));
        let of = |kind| {
            ranked
                .iter()
                .filter(|((k, _), _)| *k == kind)
                .map(|((_, id), _)| *id)
                .take(LINKS_PER_KIND_MAX)
                .collect::<Vec<i64>>()
        };
        let mut links = Links {
            tokens: of(LinkKind::Token),
            tags: of(LinkKind::Tag),
            topics: of(LinkKind::Topic),
            kols: of(LinkKind::Kol),
            evidence: Vec::new(),
        };
        evidence.retain(|e| links.ids(e.kind).contains(&e.id));
        links.evidence = evidence;
        links
    }
}

/// A pair (`/USDT`, `-USD`) or a price or move (`$14`, `14`, `+12%`) right after a symbol.
fn beside_pair_or_price(text: &str, end: usize) -> bool {
    let rest = &text[end..];
    if let Some(quote) = rest.strip_prefix(['/', '-', '_']) {
        return PAIR_QUOTES.iter().any(|q| {
            quote.starts_with(q) && !quote[q.len()..].starts_with(|c: char| continues_word(c))
        });
    }
    let rest = rest.trim_start_matches([' ', ':']);
    let rest = rest
        .strip_prefix(['$', '+', '-', '\u{2212}'])
        .unwrap_or(rest);
    rest.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests;
