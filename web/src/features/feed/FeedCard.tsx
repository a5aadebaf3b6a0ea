import type { TFunction } from "i18next";
import { useTranslation } from "../../lib/i18n";
import { Link } from "../../lib/router";

import { useLocalePath } from "../../lib/paths";
import { track } from "../../lib/track";
import type { FeedView } from "../../lib/api-types";
import { cardLayout } from "../../lib/core";

/**
 * "3h ago" from the locale's own words. Not `Intl.RelativeTimeFormat`: its first use loads the
 * ICU data, a long task of about 100 ms on a slow phone, right when the first page renders.
 */
export function timeAgo(seconds: number, t: TFunction): string {
  const minutes = Math.floor((Date.now() / 1000 - seconds) / 60);
  if (minutes < 1) return t("web.time.now");
  if (minutes < 60) return t("web.time.minutes", { n: minutes });
  if (minutes < 60 * 24) return t("web.time.hours", { n: Math.floor(minutes / 60) });
  return t("web.time.days", { n: Math.floor(minutes / (60 * 24)) });
}

export function FeedCard({ item }: { item: FeedView }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const layout = cardLayout(item.kind, item.summary, item.tags.length);
  return (
    <article className={`card feed-card ${item.kind}${item.important ? " important" : ""}`}>
      <div className="card-meta">
        {item.important && <span className="badge important">{t("web.feed.important")}</span>}
        <span className="kind">{item.author?.name ?? item.source_name}</span>
        <time dateTime={new Date(item.published_at * 1000).toISOString()}>{timeAgo(item.published_at, t)}</time>
      </div>
      <h3 className="card-title">
        <Link to={to(`/feed/${item.id}`)} onClick={() => track("click", "feed_card", { id: String(item.id) })}>
          {item.title}
        </Link>
      </h3>
      {layout.showsSummary ? <p className="card-summary">{item.summary}</p> : null}
      <div className="card-tags">
        {item.tags.slice(0, layout.tagCount).map((tag) => (
          <Link key={tag.id} className="chip" to={to(`/recommendTag?q=${encodeURIComponent(tag.code)}`)}>
            #{tag.name}
          </Link>
        ))}
        {item.translated && (
          <span className="translated">{t("web.feed.translated", { lang: item.lang })}</span>
        )}
      </div>
    </article>
  );
}
