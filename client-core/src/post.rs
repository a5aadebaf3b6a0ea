//! Readers' own posts as both sides check them (the community issue): an optional title, the
//! text in a small Markdown subset (the server renders and cleans it), and how many tags,
//! tokens and images a post may carry.

use crate::message::Message;

pub const POST_TITLE_MAX_CHARS: usize = 100;
/// The Markdown source, counted in characters.
pub const POST_CONTENT_MAX_CHARS: usize = 10_000;
pub const POST_MAX_TAGS: usize = 5;
pub const POST_MAX_TOKENS: usize = 5;
pub const POST_MAX_IMAGES: usize = 4;

pub const MSG_POST_EMPTY: Message = Message::new("post.empty", "Write your post first");
pub const MSG_POST_TOO_LONG: Message =
    Message::new("post.tooLong", "A post can be at most 10,000 characters");
pub const MSG_POST_TITLE_TOO_LONG: Message = Message::new(
    "post.titleTooLong",
    "A post's title can be at most 100 characters",
);
pub const MSG_POST_LINKS: Message =
    Message::new("post.links", "A post can name at most 5 tags and 5 tokens");
pub const MSG_POST_IMAGES: Message =
    Message::new("post.images", "A post can have at most 4 images");

fn chars(s: &str) -> usize {
    s.trim().chars().count()
}

/// Why a post cannot be published, or `None`: its title, text, and the number of tags, tokens
/// and images it names.
pub fn check_post(
    title: &str,
    content: &str,
    tags: usize,
    tokens: usize,
    images: usize,
) -> Option<Message> {
    if chars(title) > POST_TITLE_MAX_CHARS {
        return Some(MSG_POST_TITLE_TOO_LONG);
    }
    match chars(content) {
        0 => return Some(MSG_POST_EMPTY),
        n if n > POST_CONTENT_MAX_CHARS => return Some(MSG_POST_TOO_LONG),
        _ => {}
    }
    if tags > POST_MAX_TAGS || tokens > POST_MAX_TOKENS {
        return Some(MSG_POST_LINKS);
    }
    (images > POST_MAX_IMAGES).then_some(MSG_POST_IMAGES)
}
