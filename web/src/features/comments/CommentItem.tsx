import { useAtomValue } from "jotai";
import { useEffect, useRef, useState } from "react";

import { confirm } from "../../components/ui";
import type { CommentVersion, CommentView } from "../../lib/api-types";
import { canEditComment } from "../../lib/core-more";
import { useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link } from "../../lib/router";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";
import { timeAgo } from "../../lib/time";
import { LikeButton, ReportButton } from "../social";
import { addComment, blockUser, deleteComment, editComment, getHistory, getReplies, subjectOf } from "./api/comments";
import { CommentForm } from "./CommentForm";
import { CommentText } from "./CommentText";
import { ReaderText } from "./ReaderText";

/** One comment with its actions, and for a top-level comment its replies (the first ones came
 * with it; "more replies" fetches the rest) and the reply box. */
export function CommentItem(props: {
  comment: CommentView;
  people: string[];
  focused: number | null;
  /** Opens the reply box under the top-level comment (`comment` is the one answered). */
  onReply: (comment: CommentView) => void;
  replyingTo?: CommentView | null;
  onReplied?: () => void;
  requireUser: () => boolean;
}) {
  const { comment: c } = props;
  const { t, i18n } = useTranslation();
  const user = useAtomValue(userAtom);
  const to = useLocalePath();
  const [editing, setEditing] = useState(false);
  // When the comment was drawn: the edit button shows while the window was open then (the server
  // has the last word).
  const [drawnAt] = useState(() => Math.floor(Date.now() / 1000));
  const [history, setHistory] = useState<CommentVersion[] | null>(null);
  const [more, setMore] = useState<CommentView[]>([]);
  const [moreCursor, setMoreCursor] = useState<string | null | undefined>(undefined);
  const node = useRef<HTMLElement>(null);
  const mine = user !== null && c.user?.id === user.id;
  const shown = c.state === "visible";
  useEffect(() => {
    if (props.focused === c.id) node.current?.scrollIntoView({ block: "center" });
  }, [props.focused, c.id]);

  const answered = props.replyingTo;
  const replies = [...c.replies, ...more];
  const lastShown = replies.at(-1)?.id;
  const hidden = c.parent_id === null ? c.reply_count - replies.length : 0;
  const loadMore = () => {
    const cursor = moreCursor ?? (lastShown === undefined ? null : String(lastShown));
    void getReplies(c.id, cursor).then((page) => {
      setMore((shownSoFar) => [...shownSoFar, ...page.list]);
      setMoreCursor(page.next_cursor);
    });
  };
  const remove = () =>
    void confirm(t("web.comments.confirmDelete"))
      .then(() => deleteComment(subjectOf(c), c.id))
      .then(() => toast("success", t("web.comments.deleted")), () => {});
  const block = (who: NonNullable<CommentView["user"]>) =>
    void confirm(t("web.comments.confirmBlock", { name: who.nickname }))
      .then(() => blockUser(subjectOf(c), who.id, true))
      .then(() => toast("success", t("web.comments.blocked", { name: who.nickname })), () => {});

  return (
    <article
      ref={node}
      className={`comment${props.focused === c.id ? " focused" : ""}${c.parent_id ? " reply" : ""}`}
      id={`comment-${c.id}`}
      data-testid="comment"
    >
      {shown && c.user ? (
        <header className="comment-meta">
          <span className="avatar small" aria-hidden="true">{c.user.nickname.slice(0, 1).toUpperCase()}</span>
          <Link className="comment-author" to={to(`/user/${c.user.id}`)}>
            {c.user.nickname}
          </Link>
          {c.reply_to && <span className="reply-to">{t("web.comments.replyingTo", { name: c.reply_to.nickname })}</span>}
          <time dateTime={new Date(c.created_at * 1000).toISOString()}>{timeAgo(c.created_at, t)}</time>
          {c.edited_at !== null && (
            <button
              type="button"
              className="link-button"
              aria-expanded={history !== null}
              onClick={() => (history ? setHistory(null) : void getHistory(c.id).then((h) => setHistory(h.list)))}
            >
              {t("web.comments.edited")}
            </button>
          )}
        </header>
      ) : null}
      {history && (
        <ol className="comment-history" aria-label={t("web.comments.history")}>
          {history.map((v, i) => (
            <li key={i}>
              <time>{new Date(v.at * 1000).toLocaleString(i18n.language)}</time> <CommentText content={v.content} />
            </li>
          ))}
        </ol>
      )}
      {!shown ? (
        <p className="comment-text placeholder">{t(c.state === "removed" ? "web.comments.removedText" : "web.comments.deletedText")}</p>
      ) : editing ? (
        <CommentForm
          label={t("web.comments.edit")}
          people={props.people}
          initial={c.original?.content ?? c.content}
          submitLabel={t("web.comments.save")}
          send={(content) => editComment(subjectOf(c), c.id, content)}
          onDone={() => setEditing(false)}
          onCancel={() => setEditing(false)}
          autoFocus
        />
      ) : (
        <ReaderText text={c} />
      )}
      {shown && !editing && (
        <div className="comment-actions">
          <LikeButton kind="comment" id={c.id} liked={c.liked} count={c.like_count} author={c.user?.id} small />
          <button type="button" className="link-button" onClick={() => props.requireUser() && props.onReply(c)}>
            {t("web.comments.reply")}
          </button>
          {mine && canEditComment(c.created_at, drawnAt) && (
            <button type="button" className="link-button" onClick={() => setEditing(true)}>
              {t("web.comments.edit")}
            </button>
          )}
          {mine && (
            <button type="button" className="link-button" onClick={remove}>
              {t("web.comments.delete")}
            </button>
          )}
          {!mine && c.user && (
            <>
              <ReportButton kind="comment" id={c.id} />
              <button type="button" className="link-button" onClick={() => props.requireUser() && c.user && block(c.user)}>
                {t("web.comments.block")}
              </button>
            </>
          )}
        </div>
      )}
      {c.parent_id === null && (
        <div className="replies">
          {replies.map((r) => (
            <CommentItem key={r.id} {...props} comment={r} replyingTo={null} />
          ))}
          {hidden > 0 && moreCursor !== null && (
            <button type="button" className="link-button" onClick={loadMore}>
              {t("web.comments.moreReplies", { count: hidden })}
            </button>
          )}
          {answered && (
            <CommentForm
              label={t("web.comments.replyTo", { name: answered.user?.nickname ?? "" })}
              people={props.people}
              submitLabel={t("web.comments.reply")}
              send={(content) => addComment(subjectOf(c), content, answered.id)}
              onDone={props.onReplied}
              onCancel={props.onReplied}
              autoFocus
            />
          )}
        </div>
      )}
    </article>
  );
}
