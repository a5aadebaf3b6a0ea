import { infiniteQueryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { cursorPaging } from "../../../lib/query";
import type { Hit, Page, TagView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export type SearchKind = "all" | "feed" | "tag" | "token" | "kol";
/** Relevance (catalogue entries, then title matches, then the rest), or news by time or score. */
export type SearchSort = "relevance" | "new" | "hot" | "rising";

export const searchKeys = {
  results: (q: string, kind: SearchKind, sort: SearchSort, locale: string) => ["search", q, kind, sort, locale],
};

/** Silent: the page shows the server's reason (too short, too long) in place. */
export const search = (q: string, kind: SearchKind, sort: SearchSort, cursor: string | null) =>
  call<Page<Hit>>("/search", { q, kind, sort, cursor }, { silent: true });

export const searchQueryOptions = (q: string, kind: SearchKind, sort: SearchSort, locale: string) =>
  infiniteQueryOptions({
    queryKey: searchKeys.results(q, kind, sort, locale),
    queryFn: ({ pageParam }) => search(q, kind, sort, pageParam),
    ...cursorPaging,
    enabled: q.trim() !== "",
  });

export function useSearch(q: string, kind: SearchKind, sort: SearchSort) {
  return useInfiniteQuery(searchQueryOptions(q, kind, sort, useTranslation().i18n.language));
}

/** The tags on the most items of the last day: what the empty search page suggests. */
export function useTrendingTags(enabled: boolean) {
  const locale = useTranslation().i18n.language;
  return useQuery({
    queryKey: ["search", "trending-tags", locale],
    queryFn: () => call<{ list: TagView[] }>("/tag/list", { trending: true, limit: 10 }),
    staleTime: 5 * 60_000,
    enabled,
  });
}
