import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { TokenView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export const tokenKeys = { details: () => ["token"], detail: (symbol: string, locale: string) => ["token", symbol, locale] };

/** Silent: the page says when there is none. */
export const getToken = (symbol: string) => call<TokenView>("/token/detail", { symbol }, { silent: true });

export const tokenQueryOptions = (symbol: string, locale: string) =>
  queryOptions({ queryKey: tokenKeys.detail(symbol, locale), queryFn: () => getToken(symbol) });

export function useToken(symbol: string) {
  return useQuery(tokenQueryOptions(symbol, useTranslation().i18n.language));
}
