import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { TagView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { tagKeys } from "./keys";

/** Silent: the page says when there is no such tag. */
export const getTag = (code: string) => call<TagView>("/tag/detail", { code }, { silent: true });

export const tagQueryOptions = (code: string, locale: string) =>
  queryOptions({ queryKey: tagKeys.detail(code, locale), queryFn: () => getTag(code) });

export function useTag(code: string) {
  return useQuery(tagQueryOptions(code, useTranslation().i18n.language));
}
