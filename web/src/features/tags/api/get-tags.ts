import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { TagView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { tagKeys } from "./keys";

const LIMIT = 50;

export const getTags = (q: string) => call<{ list: TagView[] }>("/tag/list", { q, limit: LIMIT });

export const tagsQueryOptions = (q: string, locale: string) =>
  queryOptions({ queryKey: tagKeys.list(q, locale), queryFn: () => getTags(q) });

export function useTags(q: string) {
  return useQuery(tagsQueryOptions(q, useTranslation().i18n.language));
}
