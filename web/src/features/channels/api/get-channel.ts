import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { ChannelView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";

export const channelKeys = { detail: (code: string, locale: string) => ["channel", code, locale] };

/** Silent: the page says when there is no such channel. */
export const getChannel = (code: string) => call<ChannelView>("/channel/detail", { code }, { silent: true });

export const channelQueryOptions = (code: string, locale: string) =>
  queryOptions({ queryKey: channelKeys.detail(code, locale), queryFn: () => getChannel(code) });

export function useChannel(code: string) {
  return useQuery(channelQueryOptions(code, useTranslation().i18n.language));
}
