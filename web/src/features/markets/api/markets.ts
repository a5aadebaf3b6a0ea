import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { History, MarketToken, Overview } from "../../../lib/api-types";

export const marketKeys = {
  overview: () => ["market", "overview"],
  history: (symbol: string, days: number) => ["market", "history", symbol, days],
  exchanges: (locale: string) => ["market", "exchanges", locale],
  followed: () => ["market", "followed"],
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

/** The signed-in reader's followed tokens with prices (none asked for a visitor). */
export const useFollowedTokens = (signedIn: boolean) =>
  useQuery({
    queryKey: marketKeys.followed(),
    queryFn: () => call<{ list: MarketToken[] }>("/market/followed", {}),
    // Asked again on each visit: the reader may have followed a token since.
    enabled: signedIn,
  });

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
