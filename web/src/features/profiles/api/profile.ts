import { useQuery } from "@tanstack/react-query";

import { call, queryClient } from "../../../lib/api";
import type { ProfileView } from "../../../lib/api-types";
import { store } from "../../../lib/store";
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
export const updateProfile = (change: { nickname?: string; bio?: string }) =>
  call<ProfileView>("/user/profile/update", change, { silent: true }).then((profile) => {
    queryClient.setQueryData(profileKey(profile.id), profile);
    const user = store.get(userAtom);
    if (user) updateUser({ ...user, nickname: profile.nickname });
    // Threads show the new name.
    void queryClient.invalidateQueries({ queryKey: ["comments"] });
    return profile;
  });
