import { useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import { queryClient } from "../../../lib/query";
import type { BlockedUser, Page } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";

const blockedKey = (userId?: number) => ["blocked", userId] as const;

export function useBlocked() {
  const userId = useAtomValue(userAtom)?.id;
  return useQuery({
    queryKey: blockedKey(userId),
    queryFn: () => call<Page<BlockedUser>>("/user/block/list", { limit: 50 }),
    enabled: userId !== undefined,
  });
}

export const unblock = (userId: number) =>
  call("/user/block", { user_id: userId, blocked: false }).then(() => {
    void queryClient.invalidateQueries({ queryKey: ["blocked"] });
    // Their comments show again.
    void queryClient.invalidateQueries({ queryKey: ["comments"] });
  });
