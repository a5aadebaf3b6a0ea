//! Text as the linker compares it: canonically decomposed (so NFC and NFD read alike), full-width
//! Latin as ASCII (as Chinese and Korean texts often write it) and lower-cased, with each folded
//! byte mapped back to the character of the original text it came from. Hangul syllables stay
//! whole: decomposed into jamo, a Korean alias could match across two syllables (톤 inside 토나).
//!
//! Full-width forms are mapped here rather than by compatibility decomposition (NFKD), whose
//! tables made the wasm module 30 KB larger gzipped (measured) for this one block.

use unicode_normalization::char::decompose_canonical;

use crate::script::is_word_char;

/// A folded text and, for each of its bytes (and one past the end), the original character
/// offset it came from.
pub struct Folded {
    pub text: String,
    origin: Vec<u32>,
    /// For each folded byte, whether its original character was a lower-case letter.
    lower: Vec<bool>,
}

impl Folded {
    pub fn new(original: &str) -> Self {
        let mut text = String::with_capacity(original.len());
        let mut origin = Vec::with_capacity(original.len() + 1);
        let mut lower = Vec::with_capacity(original.len());
        for (index, c) in original.chars().enumerate() {
            let mut push = |d: char| {
                for folded in d.to_lowercase() {
                    text.push(folded);
                    origin.resize(text.len(), index as u32);
                    lower.resize(text.len(), c.is_lowercase());
                }
            };
            if is_hangul_syllable(c) {
                push(c);
            } else if let Some(ascii) = half_width(c) {
                push(ascii);
            } else {
                decompose_canonical(c, &mut push);
            }
        }
        origin.push(original.chars().count() as u32);
        Self {
            text,
            origin,
            lower,
        }
    }

    /// Whether folded bytes `start..end` were written without lower-case letters (`LINK`, not
    /// `link` or `Link`).
    pub fn capitals(&self, start: usize, end: usize) -> bool {
        !self.lower[start..end].iter().any(|l| *l)
    }

    /// The original character offset of folded byte `at` (`at` may be the text's length).
    pub fn original(&self, at: usize) -> u32 {
        self.origin[at]
    }

    /// The character before folded byte `at`, if any.
    pub fn before(&self, at: usize) -> Option<char> {
        self.text[..at].chars().next_back()
    }

    /// The character at folded byte `at`, if any.
    pub fn after(&self, at: usize) -> Option<char> {
        self.text[at..].chars().next()
    }
}

/// The folded form of an alias or keyword, words joined by single spaces.
pub fn fold(alias: &str) -> String {
    let words: Vec<&str> = alias.split_whitespace().collect();
    Folded::new(&words.join(" ")).text
}

/// The ASCII form of a full-width character (`Ｂ`, `＄`, the ideographic space).
fn half_width(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFF01 + 0x21),
        '\u{3000}' => Some(' '),
        _ => None,
    }
}

fn is_hangul_syllable(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// A combining mark (after decomposition, a Latin letter's accent): part of the word before it.
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// A character that continues a word of a script written with spaces: a pattern that starts or
/// ends with such a character must not touch another one there (whole words). Underscores count,
/// as handles carry them.
pub fn continues_word(c: char) -> bool {
    is_word_char(c) || is_mark(c) || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfc_and_nfd_fold_alike() {
        let nfc = "Pháp lý";
        let nfd = "Pha\u{301}p ly\u{301}";
        assert_eq!(Folded::new(nfc).text, Folded::new(nfd).text);
        assert_eq!(Folded::new("ＢＴＣ").text, "btc");
        assert_eq!(fold("  Bitcoin   Cash "), "bitcoin cash");
    }

    #[test]
    fn offsets_lead_back_to_the_original() {
        let folded = Folded::new("Đồng BTC");
        let at = folded.text.find("btc").expect("found");
        assert_eq!(folded.original(at), 5);
        assert_eq!(folded.original(folded.text.len()), 8);
        assert_eq!(Folded::new("비트코인이").text, "비트코인이");
    }
}
