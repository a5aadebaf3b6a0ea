import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { KolView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export const kolKeys = { details: () => ["kol"], detail: (id: number, locale: string) => ["kol", id, locale] };

/** Silent: the page says when there is none. */
export const getKol = (id: number) => call<KolView>("/kol/detail", { id }, { silent: true });

export const kolQueryOptions = (id: number, locale: string) =>
  queryOptions({ queryKey: kolKeys.detail(id, locale), queryFn: () => getKol(id) });

export function useKol(id: number) {
  return useQuery(kolQueryOptions(id, useTranslation().i18n.language));
}
