import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";

import { Spinner } from "../../app/ui";
import { ApiError, messageOf } from "../../lib/api";
import { mapLink } from "../../lib/core";
import { useLocalePath } from "../../lib/paths";
import { toast } from "../../lib/toast";
import { track } from "../../lib/track";
import { useFeed } from "./api";
import { FeedCard, timeAgo } from "./FeedCard";
import { NotFoundPage } from "../pages/NotFoundPage";

export function FeedPage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation();
  const to = useLocalePath();
  const feed = useFeed(Number(id));
  useEffect(() => track("view", "feed", { id: String(id) }), [id]);
  if (feed.isPending) return <Spinner />;
  if (feed.isError) {
    if (feed.error instanceof ApiError && feed.error.code === 4040) return <NotFoundPage />;
    return <p className="empty">{messageOf(feed.error)}</p>;
  }
  const item = feed.data;
  const share = async () => {
    const url = location.href;
    if (navigator.share) await navigator.share({ title: item.title, url }).catch(() => {});
    else {
      await navigator.clipboard?.writeText(url);
      toast("success", t("web.feed.copied"));
    }
  };
  return (
    <article className="page feed-page">
      <div className="card-meta">
        {item.important && <span className="badge important">{t("web.feed.important")}</span>}
        <span>{item.author?.name ?? item.source_name}</span>
        <time>{timeAgo(item.published_at, i18n.language)}</time>
        <span>{t("web.feed.views", { n: item.views })}</span>
      </div>
      <h1>{item.title}</h1>
      {item.translated && <p className="translated">{t("web.feed.translated", { lang: item.lang })}</p>}
      <div
        className="article-body"
        onClick={(e) => {
          // Links in content go through client-core's mapping; external ones open a new window.
          const anchor = (e.target as HTMLElement).closest("a");
          if (!anchor) return;
          e.preventDefault();
          const target = mapLink(anchor.getAttribute("href") ?? "");
          if (target.kind === "internal") location.assign(to(target.path));
          else if (target.kind === "external") window.open(target.url, "_blank", "noopener,noreferrer");
        }}
        // Sanitized by the server (ammonia) when it was stored.
        dangerouslySetInnerHTML={{ __html: item.content }}
      />
      <div className="card-tags">
        {item.tags.map((tag) => (
          <Link key={tag.id} className="chip" to={to(`/recommendTag?q=${encodeURIComponent(tag.code)}`)}>#{tag.name}</Link>
        ))}
        {item.tokens.map((token) => (
          <span key={token.id} className="chip token">${token.symbol}</span>
        ))}
      </div>
      <div className="feed-actions">
        <a className="button ghost" href={item.source_url} target="_blank" rel="noopener noreferrer">{t("web.feed.source")}</a>
        <button type="button" className="button" onClick={() => void share()}>{t("web.feed.share")}</button>
      </div>
      {item.related.length > 0 && (
        <section className="related">
          <h2>{t("web.feed.related")}</h2>
          {item.related.map((r) => (
            <FeedCard key={r.id} item={r} />
          ))}
        </section>
      )}
    </article>
  );
}
