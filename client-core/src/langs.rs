//! "Languages I read": feeds, search and linked bots keep to items written in, or translated
//! into, one of a reader's languages.

use crate::locale::{DEFAULT_LOCALE, LOCALES, normalize_locale};
use crate::message::Message;

pub const MSG_LANGS_EMPTY: Message = Message::new("langs.empty", "Pick at least one language");
pub const MSG_LANGS_UNKNOWN: Message = Message::new(
    "langs.unknown",
    "Languages are chosen from en, zh-Hans, zh-Hant, vi and ko, each once",
);

/// A new reader's languages: the interface's and English.
pub fn default_read_langs(ui_locale: &str) -> Vec<&'static str> {
    let ui = normalize_locale(ui_locale);
    LOCALES
        .into_iter()
        .filter(|l| *l == ui || *l == DEFAULT_LOCALE)
        .collect()
}

/// Languages as a request names them (each spelled as in `LOCALES`, at least one, none twice),
/// in `LOCALES` order.
pub fn read_langs<S: AsRef<str>>(langs: &[S]) -> Result<Vec<&'static str>, Message> {
    if langs.is_empty() {
        return Err(MSG_LANGS_EMPTY);
    }
    let known: Vec<&'static str> = LOCALES
        .into_iter()
        .filter(|l| langs.iter().any(|given| given.as_ref() == *l))
        .collect();
    if known.len() != langs.len() {
        return Err(MSG_LANGS_UNKNOWN);
    }
    Ok(known)
}

/// Languages already checked by `read_langs` (a request's rule), as locales.
pub fn checked<S: AsRef<str>>(langs: &[S]) -> Vec<&'static str> {
    read_langs(langs).unwrap_or_default()
}

/// Why `langs` cannot be a reader's languages, or `None`.
pub fn check_read_langs<S: AsRef<str>>(langs: &[S]) -> Option<Message> {
    read_langs(langs).err()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn langs_keep_the_locales_order_and_refuse_repeats() {
        assert_eq!(read_langs(&["ko", "en"]), Ok(vec!["en", "ko"]));
        assert_eq!(read_langs(&["en", "en"]), Err(MSG_LANGS_UNKNOWN));
        assert_eq!(read_langs(&["zh-hant"]), Err(MSG_LANGS_UNKNOWN));
        assert_eq!(read_langs::<&str>(&[]), Err(MSG_LANGS_EMPTY));
        assert_eq!(default_read_langs("zh-TW"), vec!["en", "zh-Hant"]);
        assert_eq!(default_read_langs("en-US"), vec!["en"]);
    }
}
