import { type ReactNode, useState } from "react";

import { useTranslation } from "../../lib/i18n";
import type { FeedScope } from "./api/get-feeds";
import { FeedList } from "./FeedList";

/** One subject's news (a tag, token, topic or KOL): its header, the only-important filter and
 * the endless list. */
export function FeedTimeline({ scope, live, children }: { scope: FeedScope; /** Its stream subject (`tag:btc`). */ live: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [onlyImportant, setOnlyImportant] = useState(false);
  return (
    <section className="page subject">
      <header className="card subject-head">{children}</header>
      <label className="switch">
        <input type="checkbox" checked={onlyImportant} onChange={(e) => setOnlyImportant(e.target.checked)} />
        <span>{t("web.feed.onlyImportant")}</span>
      </label>
      <FeedList key={String(onlyImportant)} scope={scope} onlyImportant={onlyImportant} live={{ subject: live }} />
    </section>
  );
}
