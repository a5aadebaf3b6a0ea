import { useInfiniteQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call, cursorPaging, queryClient } from "../../../lib/api";
import type { CommentVersion, CommentView, Page } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";
import { feedKeys } from "../../feed";

export type CommentSort = "new" | "top";

export const commentKeys = {
  thread: (feedId: number) => ["comments", feedId] as const,
  sorted: (feedId: number, sort: CommentSort, userId?: number) => ["comments", feedId, sort, userId] as const,
};

/** A feed item's top-level comments, a page at a time, each with its first replies. */
export function useComments(feedId: number, sort: CommentSort) {
  const userId = useAtomValue(userAtom)?.id;
  return useInfiniteQuery({
    queryKey: commentKeys.sorted(feedId, sort, userId),
    queryFn: ({ pageParam }) => call<Page<CommentView>>("/comment/list", { feed_id: feedId, sort, cursor: pageParam }),
    ...cursorPaging,
  });
}

/** The replies after the last one shown. */
export const getReplies = (id: number, cursor: string | null) =>
  call<Page<CommentView>>("/comment/replies", { id, cursor });

export const getHistory = (id: number) => call<{ list: CommentVersion[] }>("/comment/history", { id });

/** The thread, and the item's comment count, ask again after any change to the thread. */
const refresh = <T,>(feedId: number) => (answer: T) => {
  void queryClient.invalidateQueries({ queryKey: commentKeys.thread(feedId) });
  void queryClient.invalidateQueries({ queryKey: feedKeys.item(feedId) });
  return answer;
};

/** Silent: the form shows the error (a limit says when to try again). */
export const addComment = (feedId: number, content: string, parentId: number | null) =>
  call<CommentView>("/comment/add", { feed_id: feedId, parent_id: parentId, content }, { silent: true }).then(refresh(feedId));

export const editComment = (feedId: number, id: number, content: string) =>
  call<CommentView>("/comment/edit", { id, content }, { silent: true }).then(refresh(feedId));

export const deleteComment = (feedId: number, id: number) => call("/comment/del", { id }).then(refresh(feedId));

export const reportComment = (id: number, reason: string) => call("/report/add", { kind: "comment", id, reason });

export const blockUser = (feedId: number, userId: number, blocked: boolean) =>
  call("/user/block", { user_id: userId, blocked }).then(refresh(feedId));
