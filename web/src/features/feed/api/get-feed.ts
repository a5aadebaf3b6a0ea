import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { FeedDetail } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { feedKeys } from "./keys";

/** Silent: the page itself says when an item is not there. */
export const getFeed = (id: number) => call<FeedDetail>("/feed/detail", { id }, { silent: true });

export const feedQueryOptions = (id: number, locale: string) =>
  queryOptions({ queryKey: feedKeys.detail(id, locale), queryFn: () => getFeed(id), staleTime: 60_000 });

export function useFeed(id: number) {
  return useQuery(feedQueryOptions(id, useTranslation().i18n.language));
}
