import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import { cursorPaging, queryClient } from "../../../lib/query";
import type { MessageView, Page } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { userAtom } from "../../../lib/session";
import { liveUnreadAtom, liveUpAtom } from "../../stream";

export const messageKeys = {
  all: ["messages"] as const,
  unread: (userId?: number) => ["messages", "unread", userId] as const,
  list: (userId: number | undefined, locale: string) => ["messages", "list", userId, locale] as const,
};

/** How often the header asks for the unread count while the live stream is down. */
const UNREAD_EVERY_MS = 60_000;

/** The unread count: from the live stream while it is open, else asked every minute. */
export function useUnread(): number {
  const userId = useAtomValue(userAtom)?.id;
  const up = useAtomValue(liveUpAtom);
  const live = useAtomValue(liveUnreadAtom);
  const polled = useQuery({
    queryKey: messageKeys.unread(userId),
    queryFn: () => call<{ count: number }>("/message/unread", {}, { silent: true }),
    enabled: userId !== undefined && !(up && live !== null),
    refetchInterval: UNREAD_EVERY_MS,
    refetchOnWindowFocus: true,
    staleTime: UNREAD_EVERY_MS,
  });
  return (up && live !== null ? live : polled.data?.count) ?? 0;
}

export function useMessages() {
  const userId = useAtomValue(userAtom)?.id;
  const locale = useTranslation().i18n.language;
  return useInfiniteQuery({
    queryKey: messageKeys.list(userId, locale),
    queryFn: ({ pageParam }) => call<Page<MessageView>>("/message/list", { cursor: pageParam }),
    enabled: userId !== undefined,
    ...cursorPaging,
  });
}

export const markRead = (which: { ids: number[] } | { all: true }) =>
  call<{ count: number }>("/message/read", which).then((answer) => {
    void queryClient.invalidateQueries({ queryKey: messageKeys.all });
    return answer;
  });
