import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import type { TagView } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";
import { tagKeys } from "./keys";

export const getFollowedTags = () => call<{ list: TagView[] }>("/tag/follow/list");

export const followedTagsQueryOptions = (userId?: number) =>
  queryOptions({ queryKey: tagKeys.followed(userId), queryFn: getFollowedTags, enabled: userId !== undefined });

export function useFollowedTags() {
  return useQuery(followedTagsQueryOptions(useAtomValue(userAtom)?.id));
}
