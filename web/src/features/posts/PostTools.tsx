import { useAtomValue } from "jotai";
import { useState } from "react";

import { confirm } from "../../components/ui";
import type { FeedView } from "../../lib/api-types";
import { useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link, useNavigate } from "../../lib/router";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";
import { deletePost, usePostHistory } from "./api/posts";

/** Under a reader's post: its edit history for anyone (when it was edited), and Edit and Delete
 * for its author. */
export function PostTools({ item }: { item: FeedView }) {
  const { t, i18n } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const me = useAtomValue(userAtom);
  const [open, setOpen] = useState(false);
  const history = usePostHistory(item.id);
  const versions = history.data?.list ?? [];
  // Earlier versions than the one shown, in all (the panel lists the newest of them).
  const earlier = Math.max(0, (history.data?.total ?? 0) - 1);
  const mine = me !== null && item.user?.id === me.id;
  const remove = () =>
    void confirm(t("web.post.confirmDelete"))
      .then(() => deletePost(item.id))
      .then(() => {
        toast("success", t("web.post.deleted"));
        void navigate(to("/"));
      }, () => {});
  return (
    <>
      <div className="post-tools">
        {mine && (
          <>
            <Link className="button ghost" to={to(`/write/${item.id}`)}>
              {t("web.post.edit")}
            </Link>
            <button type="button" className="button ghost" onClick={remove}>
              {t("web.post.delete")}
            </button>
          </>
        )}
        {earlier > 0 && (
          <button type="button" className="button ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
            {t("web.post.history", { count: earlier })}
          </button>
        )}
      </div>
      {open && (
        <ol className="comment-history" aria-label={t("web.post.history", { count: earlier })}>
          {versions.slice(1).map((v) => (
            <li key={v.created_at + v.markdown}>
              <p className="muted">{t("web.post.version", { date: new Date(v.created_at * 1000).toLocaleString(i18n.language) })}</p>
              {v.title && <strong>{v.title}</strong>}
              {/* The author's source as text: never markup. */}
              <pre className="post-source">{v.markdown}</pre>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
