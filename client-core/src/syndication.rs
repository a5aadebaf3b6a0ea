//! Feeds for feed readers (RSS 2.0 and Atom 1.0): where each one is. The server answers these
//! paths and names them in pages' heads; the web app links them from tag, token and channel
//! pages.

/// The feeds of all the news: every item, and the important ones.
pub const NEWS_FEEDS: [&str; 2] = ["news", "important"];

/// The subjects with a feed of their own, named by their code (a token by its symbol).
pub const FEED_SUBJECTS: [&str; 3] = ["tag", "token", "channel"];

/// The path of a feed in `locale`: one of `NEWS_FEEDS` (`kind` `None`), or a tag's, token's or
/// channel's (`kind` one of `FEED_SUBJECTS`, `name` its code). RSS ends in `.xml`, Atom in `.atom`.
pub fn feed_path(locale: &str, kind: Option<&str>, name: &str, atom: bool) -> String {
    let ext = if atom { "atom" } else { "xml" };
    match kind {
        None => format!("/rss/{locale}/{name}.{ext}"),
        Some(kind) => format!("/rss/{locale}/{kind}/{name}.{ext}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_paths() {
        assert_eq!(feed_path("vi", None, "news", false), "/rss/vi/news.xml");
        assert_eq!(
            feed_path("zh-Hant", Some("token"), "BTC", true),
            "/rss/zh-Hant/token/BTC.atom"
        );
    }
}
