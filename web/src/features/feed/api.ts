import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n";

import { call, queryClient } from "../../lib/api";
import { userAtom } from "../../lib/session";
import { store } from "../../lib/store";
import type { FeedTab } from "../../lib/core";

import type { FeedDetail, FeedView, Page } from "../../lib/api-types";

export type FeedScope =
  | { tab: FeedTab }
  | { tag_id: number }
  | { channel: string }
  | { topic_id: number }
  | { kol_id: number };

const feedsKey = (scope: FeedScope, onlyImportant: boolean, locale: string) => ["feeds", scope, onlyImportant, locale];

/**
 * The home feed's first page that the server wrote into the HTML (and painted as markup): put in
 * the query cache so the home page renders at once instead of asking again. It is the page a
 * visitor gets (translations on), so a signed-in reader, whose setting may differ, asks anyway.
 */
export function seedFirstPage(locale: string): void {
  const node = document.getElementById("first-page");
  if (!node || node.dataset.locale !== locale || store.get(userAtom)) return;
  try {
    const page = (JSON.parse(node.textContent ?? "") as { data: Page<FeedView> }).data;
    queryClient.setQueryData(feedsKey({ tab: "for_you" }, false, locale), { pages: [page], pageParams: [null] });
  } catch {
    // Unreadable: the home page asks for it.
  }
}

export function useFeeds(scope: FeedScope, onlyImportant = false, enabled = true) {
  const { i18n } = useTranslation();
  return useInfiniteQuery({
    queryKey: feedsKey(scope, onlyImportant, i18n.language),
    queryFn: ({ pageParam }) =>
      call<Page<FeedView>>("/feed/list", { ...scope, only_important: onlyImportant, cursor: pageParam, limit: 20 }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
  });
}

export function useFeed(id: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ["feed", id, i18n.language],
    queryFn: () => call<FeedDetail>("/feed/detail", { id }, { silent: true }),
    staleTime: 60_000,
  });
}
