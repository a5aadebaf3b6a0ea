import { commentSegments } from "../../lib/core";

/** A comment as it shows: text nodes, links to their own address, mentions marked; never HTML. */
export function CommentText({ content }: { content: string }) {
  return (
    <p className="comment-text">
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
