//! Characters no text of ours may carry: those XML 1.0 forbids (C0 controls other than tab,
//! line feed and carriage return, and the noncharacters U+FFFE and U+FFFF). One of them in a
//! title made every RSS and Atom feed showing it invalid, so the server strips them from every
//! request body it reads and from every feed it writes.

use std::borrow::Cow;

/// Whether XML 1.0 forbids `c` (Rust strings hold no surrogates, the other forbidden range).
pub fn xml_forbidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` without the characters XML forbids; borrowed when it has none.
pub fn clean(text: &str) -> Cow<'_, str> {
    if text.chars().any(xml_forbidden) {
        Cow::Owned(text.chars().filter(|c| !xml_forbidden(*c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// A JSON document whose strings are [`clean`]ed, without parsing it: a forbidden character
/// can only be in a string, written as a `\uXXXX` escape (JSON refuses raw control characters)
/// or, for U+FFFE and U+FFFF, raw. A backslash only appears in strings, always as the first of
/// an escape, so escapes are read in pairs and `\\u0001` (a backslash, then `u0001`) is left
/// alone. Anything that is not JSON stays as it was, for the parser to refuse.
pub fn clean_json(json: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut at = 0;
    while at < json.len() {
        let drop = match json[at] {
            b'\\' if json.get(at + 1) == Some(&b'u') => escaped(json.get(at + 2..at + 6))
                .filter(|c| xml_forbidden(*c))
                .map(|_| 6),
            // An escape's second byte is never the start of another.
            b'\\' => {
                at += 2;
                continue;
            }
            // U+FFFE and U+FFFF in UTF-8.
            0xEF if matches!(json.get(at + 1..at + 3), Some([0xBF, 0xBE | 0xBF])) => Some(3),
            _ => None,
        };
        match drop {
            Some(length) => {
                out.get_or_insert_with(|| Vec::with_capacity(json.len()))
                    .extend_from_slice(&json[copied..at]);
                at += length;
                copied = at;
            }
            None => at += 1,
        }
    }
    match out {
        None => Cow::Borrowed(json),
        Some(mut out) => {
            out.extend_from_slice(&json[copied..]);
            Cow::Owned(out)
        }
    }
}

/// The character of the four hex digits of a `\u` escape (a lone surrogate is none).
fn escaped(digits: Option<&[u8]>) -> Option<char> {
    let digits = std::str::from_utf8(digits?).ok()?;
    char::from_u32(u32::from_str_radix(digits, 16).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn forbidden_characters() {
        for c in [
            '\u{0}', '\u{1}', '\u{8}', '\u{b}', '\u{c}', '\u{1f}', '\u{fffe}', '\u{ffff}',
        ] {
            assert!(xml_forbidden(c), "{c:?}");
        }
        for c in [
            '\t', '\n', '\r', ' ', 'a', '\u{7f}', '\u{85}', '比', '\u{fffd}', '🦀',
        ] {
            assert!(!xml_forbidden(c), "{c:?}");
        }
        assert_eq!(clean("Bitcoin\u{1} ETF\u{ffff}"), "Bitcoin ETF");
        assert!(matches!(clean("Bitcoin ETF\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_strings_are_cleaned_in_place() {
        let cases: [(&str, &str); 7] = [
            (r#"{"title":"a\u0001b"}"#, r#"{"title":"ab"}"#),
            (r#"{"title":"a\u001Fb\u000bc"}"#, r#"{"title":"abc"}"#),
            // An escaped backslash followed by the letters u0001 is text, not an escape.
            (r#"{"t":"\\u0001"}"#, r#"{"t":"\\u0001"}"#),
            (r#"{"t":"\\\u0001"}"#, r#"{"t":"\\"}"#),
            (r#"{"t":"tab\tok\n\u0009"}"#, r#"{"t":"tab\tok\n\u0009"}"#),
            ("{\"t\":\"x\u{ffff}y\u{fffe}\"}", r#"{"t":"xy"}"#),
            // Not JSON: left for the parser to refuse.
            (r#"{"t":"\u00"#, r#"{"t":"\u00"#),
        ];
        for (given, want) in cases {
            assert_eq!(
                std::str::from_utf8(&clean_json(given.as_bytes())).expect("UTF-8"),
                want,
                "{given}"
            );
        }
        assert!(matches!(
            clean_json(br#"{"t":"\u00e9 \n"}"#),
            Cow::Borrowed(_)
        ));
    }

    proptest! {
        /// Any string, written as JSON, reads back as that string cleaned.
        #[test]
        fn cleaned_json_reads_as_the_cleaned_string(text in any::<String>()) {
            let json = serde_json::to_string(&serde_json::json!({ "text": text })).expect("JSON");
            let cleaned = clean_json(json.as_bytes());
            let read: serde_json::Value = serde_json::from_slice(&cleaned).expect("still JSON");
            prop_assert_eq!(read["text"].as_str().expect("text"), clean(&text));
        }
    }
}
