import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call, cursorPaging, queryClient } from "../../../lib/api";
import type { MessageView, Page } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { userAtom } from "../../../lib/session";

export const messageKeys = {
  all: ["messages"] as const,
  unread: (userId?: number) => ["messages", "unread", userId] as const,
  list: (userId: number | undefined, locale: string) => ["messages", "list", userId, locale] as const,
};

/** How often the header asks for the unread count (and when the window regains focus). */
const UNREAD_EVERY_MS = 60_000;

export function useUnread() {
  const userId = useAtomValue(userAtom)?.id;
  return useQuery({
    queryKey: messageKeys.unread(userId),
    queryFn: () => call<{ count: number }>("/message/unread", {}, { silent: true }),
    enabled: userId !== undefined,
    refetchInterval: UNREAD_EVERY_MS,
    refetchOnWindowFocus: true,
    staleTime: UNREAD_EVERY_MS,
  });
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
