import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { TopicView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export const topicKeys = { details: () => ["topic"], detail: (id: number, locale: string) => ["topic", id, locale] };

/** Silent: the page says when there is none. */
export const getTopic = (id: number) => call<TopicView>("/topic/detail", { id }, { silent: true });

export const topicQueryOptions = (id: number, locale: string) =>
  queryOptions({ queryKey: topicKeys.detail(id, locale), queryFn: () => getTopic(id) });

export function useTopic(id: number) {
  return useQuery(topicQueryOptions(id, useTranslation().i18n.language));
}
