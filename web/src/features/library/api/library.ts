import { useInfiniteQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import { cursorPaging, queryClient } from "../../../lib/query";
import type { KeptItem, Page } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { userAtom } from "../../../lib/session";

export type Shelf = "favorites" | "history";

const LIST_PATHS: Record<Shelf, string> = { favorites: "/favorite/list", history: "/history/list" };

/** Favorites (newest saved first) or history (newest read first), a page at a time. */
export function useShelf(shelf: Shelf) {
  const userId = useAtomValue(userAtom)?.id;
  const locale = useTranslation().i18n.language;
  return useInfiniteQuery({
    queryKey: [shelf, userId, locale],
    queryFn: ({ pageParam }) => call<Page<KeptItem>>(LIST_PATHS[shelf], { cursor: pageParam }),
    enabled: userId !== undefined,
    ...cursorPaging,
  });
}

const refresh = () => void queryClient.invalidateQueries({ queryKey: ["history"] });

export const forgetRead = (feedId: number) => call("/history/del", { feed_id: feedId }).then(refresh);
export const clearHistory = () => call("/history/clear", {}).then(refresh);
