import type { InfiniteData } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n";

import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import { queryClient } from "../../lib/query";
import type { FeedView, Page } from "../../lib/api-types";
import { type LiveWant, useLive } from "../stream";
import { type FeedFilter, feedsQueryOptions, type FeedScope, NEWEST, useFeeds } from "./api/get-feeds";
import { FeedCard } from "./FeedCard";

/** An endlessly scrolling list of one scope's feeds. With `live`, items that arrive meanwhile
 * wait under an "N new" pill: the list does not move under the reader until they ask (a hot or
 * rising list is not newest first: it waits for a reload). */
export function FeedList({ scope, filter = NEWEST, empty, live }: { scope: FeedScope; filter?: FeedFilter; empty?: string; live?: LiveWant }) {
  const { t, i18n } = useTranslation();
  const feeds = useFeeds(scope, filter);
  const onlyImportant = filter.onlyImportant;
  const sentinel = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const [waiting, setWaiting] = useState<FeedView[]>([]);
  const { queryKey } = feedsQueryOptions(scope, filter, i18n.language);
  useLive(filter.sort === "new" ? (live ?? null) : null, (event, data) => {
    if (event === "reset") {
      setWaiting([]);
      void feeds.refetch();
      return;
    }
    if (event === "removed") {
      // Taken down: it leaves the list, and the pill, at once.
      const { feed_id } = data as { feed_id: number };
      setWaiting((w) => w.filter((i) => i.id !== feed_id));
      queryClient.setQueryData<InfiniteData<Page<FeedView>>>(queryKey, (old) =>
        old ? { ...old, pages: old.pages.map((p) => ({ ...p, list: p.list.filter((i) => i.id !== feed_id) })) } : old,
      );
      return;
    }
    if (event !== "item") return;
    const item = data as FeedView;
    if (onlyImportant && !item.important) return;
    const shown = feeds.data?.pages.some((p) => p.list.some((i) => i.id === item.id));
    if (!shown) setWaiting((w) => [item, ...w.filter((i) => i.id !== item.id)]);
  });
  const showWaiting = () => {
    queryClient.setQueryData<InfiniteData<Page<FeedView>>>(queryKey, (old) => {
      if (!old?.pages.length) return old;
      const [first, ...rest] = old.pages;
      const ids = new Set(waiting.map((i) => i.id));
      return { ...old, pages: [{ ...first, list: [...waiting, ...first.list.filter((i) => !ids.has(i.id))] }, ...rest] };
    });
    setWaiting([]);
    top.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
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
    <div className="feed-list" ref={top}>
      {waiting.length > 0 && (
        <button type="button" className="new-pill" onClick={showWaiting}>
          {t("web.feed.newItems", { count: waiting.length })}
        </button>
      )}
      {items.map((item) => (
        <FeedCard key={item.id} item={item} />
      ))}
      <div ref={sentinel} />
      {isFetchingNextPage ? <Spinner /> : !hasNextPage && <p className="end">{t("web.feed.end")}</p>}
    </div>
  );
}
