import { useEffect, useRef } from "react";
import { useTranslation } from "../../lib/i18n";

import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/api";
import { type FeedScope, useFeeds } from "./api/get-feeds";
import { FeedCard } from "./FeedCard";

/** An endlessly scrolling list of one scope's feeds. */
export function FeedList({ scope, onlyImportant = false, empty }: { scope: FeedScope; onlyImportant?: boolean; empty?: string }) {
  const { t } = useTranslation();
  const feeds = useFeeds(scope, onlyImportant);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feeds;
  useEffect(() => {
    const node = sentinel.current;
    if (!node) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries[0]?.isIntersecting && hasNextPage && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "600px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (feeds.isPending) return <Spinner />;
  if (feeds.isError)
    return (
      <div className="empty">
        <p>{messageOf(feeds.error)}</p>
        <button type="button" className="button ghost" onClick={() => void feeds.refetch()}>{t("web.feed.retry")}</button>
      </div>
    );
  const items = feeds.data.pages.flatMap((p) => p.list);
  if (items.length === 0) return <p className="empty">{empty ?? t("web.feed.empty")}</p>;
  return (
    <div className="feed-list">
      {items.map((item) => (
        <FeedCard key={item.id} item={item} />
      ))}
      <div ref={sentinel} />
      {isFetchingNextPage ? <Spinner /> : !hasNextPage && <p className="end">{t("web.feed.end")}</p>}
    </div>
  );
}
