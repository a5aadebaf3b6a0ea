//! Which kind of writing a character belongs to: Chinese, Japanese and Korean put no spaces
//! between words, so their letters are each a word's edge; the other scripts' words run between
//! spaces and punctuation. Alert keywords, search snippets and story fingerprints read text
//! this way.

/// Chinese, Japanese and Korean letters.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// A letter or digit of a script that separates words with spaces.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_told_apart() {
        assert!(is_cjk('比') && is_cjk('비') && is_cjk('ビ'));
        assert!(!is_cjk('b') && !is_cjk('ế'));
        assert!(is_word_char('ế') && is_word_char('7'));
        assert!(!is_word_char('比') && !is_word_char(' '));
    }
}
