//! Readers' Markdown: the subset a post may use (paragraphs, headings, bold, italic, links, lists,
//! quotes, inline code) rendered by pulldown-cmark and then cleaned by the news sanitiser
//! (`content::clean_html`). Headings are levels 2 to 4 (`#` and `##` are both level 2: the page's
//! title is its only level 1). What lies outside the subset is shown as what it says, never as
//! markup: raw HTML becomes text, code blocks become paragraphs, and images are dropped (a
//! post's images come through the upload pipeline, never from other hosts).

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// A post's heading level: 2 to 4.
fn post_level(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 | HeadingLevel::H2 => HeadingLevel::H2,
        HeadingLevel::H3 => HeadingLevel::H3,
        _ => HeadingLevel::H4,
    }
}

use crate::content::write::clean_html;

/// The post's HTML, safe to show.
pub fn render(markdown: &str) -> String {
    let mut in_image = 0usize;
    let events = Parser::new_ext(markdown, Options::empty()).filter_map(|event| {
        match event {
            Event::Start(Tag::Image { .. }) => {
                in_image += 1;
                None
            }
            Event::End(TagEnd::Image) => {
                in_image = in_image.saturating_sub(1);
                None
            }
            // An image's alt text is dropped with it.
            _ if in_image > 0 => None,
            Event::Start(Tag::Heading { level, .. }) => Some(Event::Start(Tag::Heading {
                level: post_level(level),
                id: None,
                classes: Vec::new(),
                attrs: Vec::new(),
            })),
            Event::End(TagEnd::Heading(level)) => {
                Some(Event::End(TagEnd::Heading(post_level(level))))
            }
            Event::Start(Tag::CodeBlock(_)) => Some(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::CodeBlock) => Some(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) | Event::Rule => None,
            Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
            other => Some(other),
        }
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    clean_html(&out)
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn the_subset_renders() {
        let html =
            render("gm **bold** *it* `code` [site](https://example.com)\n\n- a\n- b\n\n> quoted");
        assert!(html.contains("<strong>bold</strong>"), "{html}");
        assert!(html.contains("<em>it</em>"), "{html}");
        assert!(html.contains("<code>code</code>"), "{html}");
        assert!(
            html.contains(
                r#"<a href="https://example.com" rel="noopener noreferrer nofollow">site</a>"#
            ),
            "{html}"
        );
        assert!(html.contains("<ul>\n<li>a</li>"), "{html}");
        assert!(html.contains("<blockquote>"), "{html}");
    }

    #[test]
    fn headings_are_levels_two_to_four() {
        let html = render("# One\n\n## Two\n\n### Three\n\n#### Four\n\n###### Six");
        assert_eq!(
            html,
            "<h2>One</h2>\n<h2>Two</h2>\n<h3>Three</h3>\n<h4>Four</h4>\n<h4>Six</h4>\n"
        );
    }

    #[test]
    fn what_is_outside_it_is_text_or_gone() {
        let html = render(
            "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>\n\n\
             ![cat](https://evil.example/cat.png)\n\n# Big\n\n```\nfn main() {}\n```",
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(!html.contains("javascript:"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("evil.example"), "{html}");
        assert!(
            !html.contains("cat"),
            "alt text goes with the image: {html}"
        );
        assert!(!html.contains("<h1"), "{html}");
        assert!(html.contains("<h2>Big</h2>"), "{html}");
        assert!(!html.contains("<pre"), "{html}");
    }
}
