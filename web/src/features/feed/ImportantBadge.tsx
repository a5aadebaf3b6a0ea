import type { FeedView } from "../../lib/api-types";
import { useTranslation } from "../../lib/i18n";

/** "Important", or why its story made it so ("Breaking · 4 sources in 9 min"); the server's
 * first paint writes the same markup (`content::first_paint`). */
export function ImportantBadge({ item }: { item: Pick<FeedView, "important" | "important_reason"> }) {
  const { t } = useTranslation();
  if (!item.important) return null;
  const reason = item.important_reason;
  return (
    <span className="badge important">
      {reason ? t("web.feed.breaking", { sources: reason.sources, minutes: reason.minutes }) : t("web.feed.important")}
    </span>
  );
}
