import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { ApiError } from "../../../lib/errors";
import { queryClient } from "../../../lib/query";
import { firstPaintData } from "../../../lib/first-paint";
import type { FeedDetail } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { userAtom } from "../../../lib/session";
import { store } from "../../../lib/store";
import { feedKeys } from "./keys";
import { keptItem, markOffline } from "../../offline";

/** Silent: the page itself says when an item is not there. Unreachable server: the copy kept
 *  when the reader last opened it, if any. */
export const getFeed = (id: number) =>
  call<FeedDetail>("/feed/detail", { id }, { silent: true }).catch((error: unknown) => {
    const kept = error instanceof ApiError ? null : keptItem(id);
    if (!kept) throw error;
    markOffline();
    return kept;
  });

export const feedQueryOptions = (id: number, locale: string) =>
  queryOptions({ queryKey: feedKeys.detail(id, locale), queryFn: () => getFeed(id), staleTime: 60_000 });

export function useFeed(id: number) {
  return useQuery(feedQueryOptions(id, useTranslation().i18n.language));
}

/**
 * A shared feed page's answer that the server wrote into the HTML (and painted as markup): put in
 * the query cache so the page renders at once. A visitor's answer (translations on), so a
 * signed-in reader asks anyway.
 */
export function seedFirstFeed(locale: string): void {
  const detail = store.get(userAtom) ? null : firstPaintData<FeedDetail>("first-feed", locale);
  if (detail) queryClient.setQueryData(feedQueryOptions(detail.id, locale).queryKey, detail);
}
