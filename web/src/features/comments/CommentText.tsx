import { commentSegments } from "../../lib/core-more";

/** A comment as it shows: text nodes, links to their own address, mentions marked; never HTML.
 * `lang`: the text's language when it is not the page's. */
export function CommentText({ content, lang }: { content: string; lang?: string }) {
  return (
    <p className="comment-text" lang={lang}>
      {commentSegments(content).map((segment, i) =>
        segment.kind === "link" ? (
          <a key={i} href={segment.text} target="_blank" rel="noopener noreferrer nofollow ugc">
            {segment.text}
          </a>
        ) : segment.kind === "mention" ? (
          <span key={i} className="mention">{segment.text}</span>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </p>
  );
}
