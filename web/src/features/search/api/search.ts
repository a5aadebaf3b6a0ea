import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";

import { call, cursorPaging } from "../../../lib/api";
import type { Hit, Page } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export type SearchKind = "all" | "feed" | "tag" | "token" | "kol";

export const searchKeys = { results: (q: string, kind: SearchKind, locale: string) => ["search", q, kind, locale] };

/** Silent: the page shows the server's reason (too short, too long) in place. */
export const search = (q: string, kind: SearchKind, cursor: string | null) =>
  call<Page<Hit>>("/search", { q, kind, cursor }, { silent: true });

export const searchQueryOptions = (q: string, kind: SearchKind, locale: string) =>
  infiniteQueryOptions({
    queryKey: searchKeys.results(q, kind, locale),
    queryFn: ({ pageParam }) => search(q, kind, pageParam),
    ...cursorPaging,
    enabled: q.trim() !== "",
  });

export function useSearch(q: string, kind: SearchKind) {
  return useInfiniteQuery(searchQueryOptions(q, kind, useTranslation().i18n.language));
}
