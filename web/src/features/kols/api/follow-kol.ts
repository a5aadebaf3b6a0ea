import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import type { KolView } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";
import { kolKeys } from "./get-kol";

export const followedKolsKey = (userId?: number) => (userId === undefined ? ["followed-kols"] : ["followed-kols", userId]);

export const getFollowedKols = () => call<{ list: KolView[] }>("/user/follow/list");

export const followedKolsQueryOptions = (userId?: number) =>
  queryOptions({ queryKey: followedKolsKey(userId), queryFn: getFollowedKols, enabled: userId !== undefined });

export function useFollowedKols() {
  return useQuery(followedKolsQueryOptions(useAtomValue(userAtom)?.id));
}

export const followKol = (kolId: number, follow: boolean) =>
  call(follow ? "/user/follow/add" : "/user/follow/del", { kol_id: kolId });

/** Following changes the followed list and the KOL's follower count. */
export function useFollowKol() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kolId, follow }: { kolId: number; follow: boolean }) => followKol(kolId, follow),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: followedKolsKey() });
      void queryClient.invalidateQueries({ queryKey: kolKeys.details() });
    },
  });
}
