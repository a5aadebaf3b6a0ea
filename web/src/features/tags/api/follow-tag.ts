import { useMutation, useQueryClient } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { accountKeys } from "../../account";
import { tagKeys } from "./keys";

export const followTag = (tagId: number, follow: boolean) =>
  call(follow ? "/tag/follow/add" : "/tag/follow/del", { tag_id: tagId });

/** Following changes the followed list and the task that asks for it. */
export function useFollowTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tagId, follow }: { tagId: number; follow: boolean }) => followTag(tagId, follow),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: tagKeys.followed() });
      // The tag's follower count changes too.
      void queryClient.invalidateQueries({ queryKey: tagKeys.details() });
      void queryClient.invalidateQueries({ queryKey: accountKeys.tasks() });
    },
  });
}
