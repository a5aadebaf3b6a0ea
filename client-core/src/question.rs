//! Questions and answers as both sides check them (the community issue): a question's title,
//! text, tags and optional bounty of the asker's points, an answer's text, and how a bounty
//! that no one accepted is settled when its time is up. The server runs the settlement job; the
//! rule of who gets what is here, so the page can say it before the deadline.

use serde::Serialize;

use crate::message::Message;

pub const QUESTION_TITLE_MIN_CHARS: usize = 10;
pub const QUESTION_TITLE_MAX_CHARS: usize = 150;
/// A question's or an answer's text.
pub const POST_TEXT_MAX_CHARS: usize = 5000;
pub const QUESTION_MAX_TAGS: usize = 5;
pub const BOUNTY_MIN: i64 = 10;
pub const BOUNTY_MAX: i64 = 500;
/// How long a bounty waits for the asker to accept an answer.
pub const BOUNTY_SECONDS: i64 = 7 * 24 * 3600;

pub const MSG_TITLE_LENGTH: Message = Message::new(
    "question.titleLength",
    "A question's title has 10 to 150 characters",
);
pub const MSG_TEXT_TOO_LONG: Message = Message::new(
    "question.textTooLong",
    "A text can be at most 5,000 characters",
);
pub const MSG_ANSWER_EMPTY: Message =
    Message::new("question.answerEmpty", "Write your answer first");
pub const MSG_TAG_COUNT: Message =
    Message::new("question.tagCount", "Pick 1 to 5 tags for your question");
pub const MSG_BOUNTY_RANGE: Message =
    Message::new("question.bountyRange", "A bounty is 10 to 500 points");
pub const MSG_BOUNTY_BALANCE: Message = Message::new(
    "question.bountyBalance",
    "Your balance is short of this bounty",
);

fn chars(s: &str) -> usize {
    s.trim().chars().count()
}

/// Why a question cannot be asked, or `None`: its title, text, number of tags, and bounty
/// against the asker's balance.
pub fn check_question(
    title: &str,
    text: &str,
    tags: usize,
    bounty: Option<i64>,
    balance: i64,
) -> Option<Message> {
    if !(QUESTION_TITLE_MIN_CHARS..=QUESTION_TITLE_MAX_CHARS).contains(&chars(title)) {
        return Some(MSG_TITLE_LENGTH);
    }
    if chars(text) > POST_TEXT_MAX_CHARS {
        return Some(MSG_TEXT_TOO_LONG);
    }
    if !(1..=QUESTION_MAX_TAGS).contains(&tags) {
        return Some(MSG_TAG_COUNT);
    }
    match bounty {
        Some(b) if !(BOUNTY_MIN..=BOUNTY_MAX).contains(&b) => Some(MSG_BOUNTY_RANGE),
        Some(b) if b > balance => Some(MSG_BOUNTY_BALANCE),
        _ => None,
    }
}

/// Why an answer cannot be given, or `None`.
pub fn check_answer(text: &str) -> Option<Message> {
    match chars(text) {
        0 => Some(MSG_ANSWER_EMPTY),
        n if n > POST_TEXT_MAX_CHARS => Some(MSG_TEXT_TOO_LONG),
        _ => None,
    }
}

/// Who gets a bounty no one accepted in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Settlement {
    pub to_asker: i64,
    pub to_answerer: i64,
}

/// Half back to the asker and the other half (the odd point included) to the most-liked answer;
/// with no answer there is no one to pay, and the asker gets it all back.
pub fn settle_bounty(bounty: i64, has_answer: bool) -> Settlement {
    let bounty = bounty.max(0);
    if has_answer {
        Settlement {
            to_asker: bounty / 2,
            to_answerer: bounty - bounty / 2,
        }
    } else {
        Settlement {
            to_asker: bounty,
            to_answerer: 0,
        }
    }
}
