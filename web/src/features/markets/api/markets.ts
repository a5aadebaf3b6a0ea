import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { History, Overview } from "../../../lib/api-types";

export const marketKeys = {
  overview: () => ["market", "overview"],
  history: (symbol: string, days: number) => ["market", "history", symbol, days],
  exchanges: (locale: string) => ["market", "exchanges", locale],
  presales: (status: string, locale: string) => ["market", "presales", status, locale],
};

/** Prices move once a minute: asked again after that. */
const PRICE_LIFE_MS = 60_000;

export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: marketKeys.overview(),
    queryFn: () => call<Overview>("/market/overview", {}),
    staleTime: PRICE_LIFE_MS,
    refetchInterval: PRICE_LIFE_MS,
  });

export const useOverview = () => useQuery(overviewQueryOptions());

/** A token's chart; while the server fetches one it has not kept, asked again shortly. */
export function useHistory(symbol: string, days: number) {
  return useQuery({
    queryKey: marketKeys.history(symbol, days),
    queryFn: () => call<History>("/market/history", { symbol, days }),
    staleTime: PRICE_LIFE_MS,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data && query.state.data.as_of === null ? 2_000 : false),
  });
}
