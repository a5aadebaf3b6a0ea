import { C } from "../../lib/core";
import { useTranslation } from "../../lib/i18n";
import type { FeedFilter, FeedSort } from "./api/get-feeds";

/** A list's order (New, Hot, Rising) and the only-important switch. */
export function FeedControls({ filter, onChange }: { filter: FeedFilter; onChange: (filter: FeedFilter) => void }) {
  const { t } = useTranslation();
  return (
    <div className="feed-controls">
      <div className="segmented" role="group" aria-label={t("web.feed.sort.label")}>
        {(C.feedSorts as FeedSort[]).map((sort) => (
          <button key={sort} type="button" aria-pressed={filter.sort === sort} onClick={() => onChange({ ...filter, sort })}>
            {t(`web.feed.sort.${sort}`)}
          </button>
        ))}
      </div>
      <label className="switch">
        <input type="checkbox" checked={filter.onlyImportant} onChange={(e) => onChange({ ...filter, onlyImportant: e.target.checked })} />
        <span>{t("web.feed.onlyImportant")}</span>
      </label>
    </div>
  );
}
