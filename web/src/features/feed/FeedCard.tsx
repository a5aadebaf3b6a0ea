import { useTranslation } from "react-i18next";
import { Link } from "../../app/router";

import { useLocalePath } from "../../lib/paths";
import { track } from "../../lib/track";
import type { FeedItem } from "./api";

export function timeAgo(seconds: number, locale: string): string {
  const diff = seconds - Date.now() / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto", style: "short" });
  const abs = Math.abs(diff);
  if (abs < 3600) return format.format(Math.round(diff / 60), "minute");
  if (abs < 86400) return format.format(Math.round(diff / 3600), "hour");
  return format.format(Math.round(diff / 86400), "day");
}

export function FeedCard({ item }: { item: FeedItem }) {
  const { t, i18n } = useTranslation();
  const to = useLocalePath();
  return (
    <article className={`card feed-card ${item.kind}${item.important ? " important" : ""}`}>
      <div className="card-meta">
        {item.important && <span className="badge important">{t("web.feed.important")}</span>}
        <span className="kind">{item.author?.name ?? item.source_name}</span>
        <time dateTime={new Date(item.published_at * 1000).toISOString()}>{timeAgo(item.published_at, i18n.language)}</time>
      </div>
      <h3 className="card-title">
        <Link to={to(`/feed/${item.id}`)} onClick={() => track("click", "feed_card", { id: String(item.id) })}>
          {item.title}
        </Link>
      </h3>
      {item.kind !== "flash" || item.summary.length < 240 ? <p className="card-summary">{item.summary}</p> : null}
      <div className="card-tags">
        {item.tags.slice(0, 3).map((tag) => (
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
