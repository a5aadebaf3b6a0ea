//! Feeds for feed readers (RSS 2.0 and Atom 1.0): where each one is. The server answers these
//! paths and names them in pages' heads; the web app links them from tag, token and channel
//! pages.

/// The subjects with a feed of their own, besides the news and the important news.
pub const FEED_SUBJECTS: [&str; 3] = ["tag", "token", "channel"];

/// The path of a feed in `locale`: the news (`subject` `None`), or one tag's, token's or
/// channel's (`subject`: its kind and code). RSS ends in `.xml`, Atom in `.atom`.
pub fn feed_path(locale: &str, subject: Option<(&str, &str)>, atom: bool) -> String {
    let ext = if atom { "atom" } else { "xml" };
    match subject {
        None => format!("/rss/{locale}/news.{ext}"),
        Some((kind, code)) => format!("/rss/{locale}/{kind}/{code}.{ext}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_paths() {
        assert_eq!(feed_path("vi", None, false), "/rss/vi/news.xml");
        assert_eq!(
            feed_path("zh-Hant", Some(("token", "BTC")), true),
            "/rss/zh-Hant/token/BTC.atom"
        );
    }
}
