import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { queryClient } from "../../../lib/query";
import type { Explore } from "../../../lib/api-types";
import { firstPaintData } from "../../../lib/first-paint";
import { useTranslation } from "../../../lib/i18n";

export const exploreKeys = { explore: (locale: string) => ["explore", locale] };

export const getExplore = () => call<Explore>("/explore");

export const exploreQueryOptions = (locale: string) =>
  queryOptions({ queryKey: exploreKeys.explore(locale), queryFn: getExplore });

export function useExplore() {
  return useQuery(exploreQueryOptions(useTranslation().i18n.language));
}

/** The Explore page's answer that the server painted the page from: the page starts from it. The
 * catalogue is the same for every reader of a language, signed in or not. */
export function seedFirstExplore(locale: string): void {
  const explore = firstPaintData<Explore>("first-explore", locale);
  if (explore) queryClient.setQueryData(exploreQueryOptions(locale).queryKey, explore);
}
