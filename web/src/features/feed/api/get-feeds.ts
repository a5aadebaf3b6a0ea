import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { cursorPaging, queryClient } from "../../../lib/query";
import { firstPaintData } from "../../../lib/first-paint";
import type { FeedView, Page } from "../../../lib/api-types";
import type { FeedTab, Locale } from "../../../lib/core";
import { useTranslation } from "../../../lib/i18n";
import { userAtom } from "../../../lib/session";
import { store } from "../../../lib/store";
import { feedKeys } from "./keys";

export type FeedScope =
  /** `langs`: a signed-in reader's "Languages I read". */
  | { tab: FeedTab; langs?: Locale[] }
  | { tag_id: number }
  | { token_id: number }
  | { channel: string }
  | { topic_id: number }
  | { kol_id: number }
  /** A reader's own posts (`/user/posts`). */
  | { user_id: number };

/** `new` (newest first), `hot` or `rising` (client-core's `FEED_SORTS`). */
export type FeedSort = "new" | "hot" | "rising";

/** What of a scope a list keeps, and in which order. */
export type FeedFilter = { onlyImportant: boolean; sort: FeedSort };

export const NEWEST: FeedFilter = { onlyImportant: false, sort: "new" };

const PAGE_SIZE = 20;

export const getFeeds = (scope: FeedScope, filter: FeedFilter, cursor: string | null) =>
  "user_id" in scope
    ? call<Page<FeedView>>("/user/posts", { ...scope, cursor, limit: PAGE_SIZE })
    : call<Page<FeedView>>("/feed/list", { ...scope, only_important: filter.onlyImportant, sort: filter.sort, cursor, limit: PAGE_SIZE });

export const feedsQueryOptions = (scope: FeedScope, filter: FeedFilter, locale: string) =>
  infiniteQueryOptions({
    queryKey: feedKeys.list(scope, filter, locale),
    queryFn: ({ pageParam }) => getFeeds(scope, filter, pageParam),
    ...cursorPaging,
  });

export function useFeeds(scope: FeedScope, filter: FeedFilter = NEWEST, enabled = true) {
  const { i18n } = useTranslation();
  return useInfiniteQuery({ ...feedsQueryOptions(scope, filter, i18n.language), enabled });
}

/**
 * The home feed's first page that the server wrote into the HTML (and painted as markup): put in
 * the query cache so the home page renders at once instead of asking again. It is the page a
 * visitor gets (translations on), so a signed-in reader, whose setting may differ, asks anyway.
 */
export function seedFirstPage(locale: string): void {
  const page = store.get(userAtom) ? null : firstPaintData<Page<FeedView>>("first-page", locale);
  if (!page) return;
  const { queryKey } = feedsQueryOptions({ tab: "for_you" }, NEWEST, locale);
  queryClient.setQueryData(queryKey, { pages: [page], pageParams: [null] });
}
