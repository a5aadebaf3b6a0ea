import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import type { LinkedChat, TelegramLink, TelegramStart } from "../../../lib/api-types";
import type { SessionUser } from "../../../lib/session";
import { userAtom } from "../../../lib/session";
import { botKeys } from "./keys";

/** A single-use link that opens the bot and links the chat on its `/start`. */
export const makeTelegramLink = () => call<TelegramLink>("/bot/telegram/link");

export const unlinkChat = (id: number) => call<null>("/bot/chat/unlink", { id });

/** The chats linked to the signed-in account; while a link waits, looked at every few seconds. */
export function useLinkedChats(waiting: boolean) {
  const userId = useAtomValue(userAtom)?.id;
  return useQuery(
    queryOptions({
      queryKey: botKeys.chats(userId),
      queryFn: () => call<{ list: LinkedChat[] }>("/bot/chat/list"),
      enabled: userId !== undefined,
      refetchInterval: waiting ? 3000 : false,
    }),
  );
}

/** The bot's username when Sign in with Telegram is set up on this site, else null; asked only
 * once something needs it (`enabled`), not on every page load. */
export function useTelegramStart(enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: botKeys.telegramStart(),
      queryFn: () =>
        call<TelegramStart>("/user/login/telegram/start", {}, { silent: true }).catch(() => null),
      staleTime: Infinity,
      enabled,
    }),
  );
}

/** The Login Widget's fields as Telegram gives them, or a Mini App's `initData`. */
export const loginWithTelegram = (data: Record<string, unknown>) =>
  call<SessionUser>("/user/login/telegram", data);
