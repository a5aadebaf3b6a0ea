import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { Explore } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export const exploreKeys = { explore: (locale: string) => ["explore", locale] };

export const getExplore = () => call<Explore>("/explore");

export const exploreQueryOptions = (locale: string) =>
  queryOptions({ queryKey: exploreKeys.explore(locale), queryFn: getExplore });

export function useExplore() {
  return useQuery(exploreQueryOptions(useTranslation().i18n.language));
}
