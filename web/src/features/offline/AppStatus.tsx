import { useAtomValue } from "jotai";
import { useState } from "react";

import { useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link } from "../../lib/router";
import { keptItems, offlineAtom } from "./shelf";
import { updateWaitingAtom } from "./worker";

/** Above the page: that the app is offline (with the items kept to read), or that a new version
 *  is ready to load. */
export function AppStatus() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const offline = useAtomValue(offlineAtom);
  const reload = useAtomValue(updateWaitingAtom);
  const [showKept, setShowKept] = useState(false);
  if (offline) {
    const kept = showKept ? keptItems() : [];
    return (
      <div className="app-status offline" role="status">
        <span>{t("web.offline.notice")}</span>
        <button type="button" className="button small ghost" aria-expanded={showKept} onClick={() => setShowKept(!showKept)}>
          {t("web.offline.kept")}
        </button>
        {showKept && (
          <ul className="kept-items">
            {kept.length === 0 && <li>{t("web.offline.none")}</li>}
            {kept.map((item) => (
              <li key={item.id}>
                <Link to={to(`/feed/${item.id}`)} onClick={() => setShowKept(false)}>{item.title}</Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  if (!reload) return null;
  return (
    <div className="app-status" role="status">
      <span>{t("web.offline.updateReady")}</span>
      <button type="button" className="button small" onClick={reload}>{t("web.offline.reload")}</button>
    </div>
  );
}
