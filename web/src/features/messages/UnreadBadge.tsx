import { useTranslation } from "../../lib/i18n";
import { Link } from "../../lib/router";
import { useLocalePath } from "../../lib/paths";
import { useUnread } from "./api/messages";

/** The header's way to the messages, with how many are unread. */
export function UnreadBadge() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const unread = useUnread();
  const label = unread > 0 ? t("web.messages.unread", { count: unread }) : t("web.messages.title");
  return (
    <Link to={to("/messages")} className="icon-button badge-host" aria-label={label} title={label}>
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
        <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
        <path d="M10 20a2 2 0 0 0 4 0" />
      </svg>
      {unread > 0 && (
        <span className="unread-badge" data-testid="unread-badge">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
