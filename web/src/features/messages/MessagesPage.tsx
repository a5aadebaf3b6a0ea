import type { TFunction } from "i18next";

import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import type { MessageView } from "../../lib/api-types";
import { useSignedInPage } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link, useNavigate } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { timeAgo } from "../../lib/time";
import { markRead, useMessages } from "./api/messages";

/** What a message says, in the reader's words. */
function headline(m: MessageView, t: TFunction): string {
  const name = m.actor?.nickname ?? "";
  switch (m.kind) {
    case "like":
      return m.count > 1 ? t("web.messages.likes", { name, count: m.count - 1 }) : t("web.messages.like", { name });
    case "points":
      return t("web.messages.points", { n: formatNumber(m.count), task: t(`tasks.${m.body}`, { defaultValue: m.body }) });
    case "announcement":
      return m.title;
    default:
      return t(`web.messages.kinds.${m.kind}`, { name });
  }
}

/** Whether the message says the team took something of the reader's down (its body: why). */
const takenDown = (m: MessageView) => m.kind.startsWith("removed") || m.kind === "reset_profile";

/** Where opening a message goes: the comment in its thread, the question, or nowhere. */
function target(m: MessageView): string | null {
  const page = m.question_id !== null ? `/question/${m.question_id}` : m.feed_id !== null ? `/feed/${m.feed_id}` : null;
  if (page === null) return null;
  return m.comment_id !== null && m.kind !== "removed" ? `${page}?comment=${m.comment_id}` : page;
}

/** `/messages`: replies, mentions, likes, points and announcements, newest first. */
export function MessagesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("web.messages.title"));
  const user = useSignedInPage();
  const to = useLocalePath();
  const navigate = useNavigate();
  const messages = useMessages();
  if (!user) return <p className="empty">{t("web.messages.signIn")}</p>;
  if (messages.isPending) return <Spinner />;
  if (messages.isError) return <p className="empty">{messageOf(messages.error)}</p>;
  const list = messages.data.pages.flatMap((p) => p.list);
  const open = (m: MessageView) => {
    if (!m.read) void markRead({ ids: [m.id] }).catch(() => {});
    const path = target(m);
    if (path) void navigate(to(path));
  };
  return (
    <section className="page messages">
      <div className="page-head">
        <h1>{t("web.messages.title")}</h1>
        {/* What the reader hears about, beside what they heard. */}
        <Link className="button ghost small" to={to("/alerts")}>{t("web.alerts.title")}</Link>
        {list.some((m) => !m.read) && (
          <button type="button" className="button ghost small" onClick={() => void markRead({ all: true }).catch(() => {})}>
            {t("web.messages.readAll")}
          </button>
        )}
      </div>
      {list.length === 0 ? (
        <p className="empty">{t("web.messages.empty")}</p>
      ) : (
        <ul className="message-list">
          {list.map((m) => (
            <li key={m.id} className={`card message${m.read ? "" : " unread"}`} data-testid="message">
              <button type="button" className="message-open" onClick={() => open(m)}>
                <strong>{headline(m, t)}</strong>
                {m.kind !== "points" && m.body && (
                  <span className="message-body">{takenDown(m) ? t("web.messages.reason", { reason: m.body }) : m.body}</span>
                )}
                <time dateTime={new Date(m.at * 1000).toISOString()}>{timeAgo(m.at, t)}</time>
              </button>
            </li>
          ))}
        </ul>
      )}
      {messages.hasNextPage && (
        <button type="button" className="button ghost wide" onClick={() => void messages.fetchNextPage()}>
          {t("web.comments.more")}
        </button>
      )}
    </section>
  );
}
