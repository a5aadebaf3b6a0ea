import { useInfiniteQuery, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { cursorPaging, queryClient } from "../../../lib/query";
import type { AuthoredAnswer, Page, ProfileView } from "../../../lib/api-types";
import { store } from "../../../lib/store";
import { feedKeys } from "../../feed";
import { updateUser, userAtom } from "../../../lib/session";

export const profileKey = (userId: number) => ["profile", userId] as const;

/** Silent: the page says when there is no such reader. */
export function useProfile(userId: number) {
  return useQuery({
    queryKey: profileKey(userId),
    queryFn: () => call<ProfileView>("/user/profile", { user_id: userId }, { silent: true }),
    enabled: Number.isSafeInteger(userId) && userId > 0,
  });
}

/** Silent: the form shows why a name cannot be had. */
export const updateProfile = (change: { nickname?: string; bio?: string; avatar?: string }) =>
  call<ProfileView>("/user/profile/update", change, { silent: true }).then((profile) => {
    queryClient.setQueryData(profileKey(profile.id), profile);
    const user = store.get(userAtom);
    if (user) updateUser({ ...user, nickname: profile.nickname, avatar: profile.avatar });
    // Threads show the new name.
    void queryClient.invalidateQueries({ queryKey: ["comments"] });
    return profile;
  });

export function useUserAnswers(userId: number) {
  return useInfiniteQuery({
    queryKey: [...profileKey(userId), "answers"],
    queryFn: ({ pageParam }) => call<Page<AuthoredAnswer>>("/user/answers", { user_id: userId, cursor: pageParam }),
    ...cursorPaging,
  });
}

/** Whether the signed-in reader follows this person (asked only when signed in). */
export function useFollowing(userId: number, signedIn: boolean) {
  return useQuery({
    queryKey: ["following", "user", userId],
    queryFn: () => call<{ following: boolean }>("/user/follow/status", { user_id: userId }).then((s) => s.following),
    enabled: signedIn,
  });
}

export const setFollowing = (userId: number, following: boolean) =>
  call<{ following: boolean }>(following ? "/user/follow/add" : "/user/follow/del", { user_id: userId }).then((s) => {
    queryClient.setQueryData(["following", "user", userId], s.following);
    void queryClient.invalidateQueries({ queryKey: profileKey(userId) });
    // The Following tab brings their posts, or stops.
    void queryClient.invalidateQueries({ queryKey: feedKeys.lists() });
    return s.following;
  });
