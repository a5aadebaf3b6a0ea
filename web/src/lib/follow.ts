// Following a token or a topic: the same three calls for each (`/{kind}/follow/status|add|del`
// with `{kind}_id`), so one hook serves both pages.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "./api";
import { userAtom } from "./session";

export type FollowKind = "token" | "topic";

export const followKeys = {
  status: (kind: FollowKind, id: number, userId?: number) => ["follow", kind, id, userId ?? 0],
};

const body = (kind: FollowKind, id: number) => ({ [`${kind}_id`]: id });

export const getFollowStatus = (kind: FollowKind, id: number) =>
  call<{ following: boolean }>(`/${kind}/follow/status`, body(kind, id));

export const setFollow = (kind: FollowKind, id: number, follow: boolean) =>
  call(`/${kind}/follow/${follow ? "add" : "del"}`, body(kind, id));

/** Whether the reader follows it, and a toggle; `changed` are the queries the change moves (the
 * page's follower count). */
export function useFollow(kind: FollowKind, id: number, changed: unknown[]) {
  const userId = useAtomValue(userAtom)?.id;
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: followKeys.status(kind, id, userId),
    queryFn: () => getFollowStatus(kind, id),
    enabled: userId !== undefined,
  });
  const toggle = useMutation({
    mutationFn: (follow: boolean) => setFollow(kind, id, follow),
    onSuccess: () => {
      for (const queryKey of [followKeys.status(kind, id, userId), changed]) void queryClient.invalidateQueries({ queryKey });
    },
  });
  return { following: status.data?.following ?? false, toggle };
}
