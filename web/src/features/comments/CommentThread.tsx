import { useSetAtom } from "jotai";
import { useId, useMemo, useState } from "react";

import { TabBar } from "../../components/TabBar";
import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import type { CommentView } from "../../lib/api-types";
import { loginOpenAtom, useMemberAction } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useSearchParams } from "../../lib/router";
import { addComment, type CommentSort, type Subject, useComments } from "./api/comments";
import { CommentForm } from "./CommentForm";
import { CommentItem } from "./CommentItem";

const SORTS: CommentSort[] = ["new", "top"];

/** The discussion under a feed item, a question or an answer: sorted newest or best first, more
 * on request; visitors read it and are asked to sign in when they act. `?comment=<id>` (a
 * message's link) brings that comment into view. `count` where the subject keeps one. */
export function CommentThread({ subject, count }: { subject: Subject; count?: number }) {
  const titleId = useId();
  const { t } = useTranslation();
  const { user, signedIn } = useMemberAction();
  const openLogin = useSetAtom(loginOpenAtom);
  const [sort, setSort] = useState<CommentSort>("new");
  const [replyingTo, setReplyingTo] = useState<CommentView | null>(null);
  const [params] = useSearchParams();
  const focused = Number(params.get("comment")) || null;
  const thread = useComments(subject, sort);
  const comments = useMemo(() => thread.data?.pages.flatMap((p) => p.list) ?? [], [thread.data]);
  // Suggestions for `@`: the people in this thread.
  const people = useMemo(() => {
    const names = new Set<string>();
    for (const c of comments) for (const r of [c, ...c.replies]) if (r.user && r.user.id !== user?.id) names.add(r.user.nickname);
    return [...names];
  }, [comments, user]);
  const topOf = (c: CommentView) => c.parent_id ?? c.id;
  return (
    <section className="comments" aria-labelledby={titleId}>
      <h2 id={titleId}>{count === undefined ? t("web.comments.heading") : t("web.comments.title", { count: formatNumber(count) })}</h2>
      <TabBar
        label={t("web.comments.sort")}
        items={SORTS.map((key) => ({ key, label: t(`web.comments.sorts.${key}`) }))}
        value={sort}
        onChange={setSort}
      />
      {user ? (
        <CommentForm
          label={t("web.comments.write")}
          people={people}
          submitLabel={t("web.comments.send")}
          send={(content) => addComment(subject, content, null)}
        />
      ) : (
        <button type="button" className="button ghost wide" onClick={() => openLogin(true)}>
          {t("web.comments.signIn")}
        </button>
      )}
      {thread.isPending ? (
        <Spinner />
      ) : thread.isError ? (
        <p className="empty">{messageOf(thread.error)}</p>
      ) : comments.length === 0 ? (
        <p className="empty">{t("web.comments.empty")}</p>
      ) : (
        <div className="comment-list">
          {comments.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              people={people}
              focused={focused}
              replyingTo={replyingTo && topOf(replyingTo) === c.id ? replyingTo : null}
              onReply={setReplyingTo}
              onReplied={() => setReplyingTo(null)}
              requireUser={signedIn}
            />
          ))}
          {thread.hasNextPage && (
            <button type="button" className="button ghost wide" disabled={thread.isFetchingNextPage} onClick={() => void thread.fetchNextPage()}>
              {thread.isFetchingNextPage ? t("web.common.loading") : t("web.comments.more")}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
