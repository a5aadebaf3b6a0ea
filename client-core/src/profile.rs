//! A reader's public profile as both sides check it: the nickname rule (2 to 24 characters
//! after trimming, no control or invisible characters; the server also keeps nicknames unique
//! without regard to case) and the bio's length.

use crate::message::Message;

pub const NICKNAME_MIN_CHARS: usize = 2;
pub const NICKNAME_MAX_CHARS: usize = 24;
pub const BIO_MAX_CHARS: usize = 160;

pub const MSG_NICKNAME_LENGTH: Message = Message::new(
    "profile.nicknameLength",
    "A nickname has 2 to 24 characters",
);
pub const MSG_NICKNAME_CHARACTERS: Message = Message::new(
    "profile.nicknameCharacters",
    "A nickname cannot contain control or invisible characters, @ or line breaks",
);
pub const MSG_BIO_TOO_LONG: Message =
    Message::new("profile.bioTooLong", "A bio can be at most 160 characters");

/// Characters that print nothing or change how text around them reads: controls, format
/// characters (zero-width spaces and joiners, direction marks), separators other than the plain
/// space, and the variation selectors.
fn invisible(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
            | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}'
            | '\u{E0000}'..='\u{E007F}')
}

/// Why a nickname (as typed; it is stored trimmed) cannot be used, or `None`.
pub fn check_nickname(nickname: &str) -> Option<Message> {
    let name = nickname.trim();
    let chars = name.chars().count();
    if !(NICKNAME_MIN_CHARS..=NICKNAME_MAX_CHARS).contains(&chars) {
        return Some(MSG_NICKNAME_LENGTH);
    }
    // `@` would make the name unmentionable; a double space hides as one.
    if name.chars().any(|c| invisible(c) || c == '@') || name.contains("  ") {
        return Some(MSG_NICKNAME_CHARACTERS);
    }
    None
}

/// Why a bio cannot be used, or `None`.
pub fn check_bio(bio: &str) -> Option<Message> {
    (bio.trim().chars().count() > BIO_MAX_CHARS).then_some(MSG_BIO_TOO_LONG)
}
