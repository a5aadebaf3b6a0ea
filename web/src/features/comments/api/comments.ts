import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import { cursorPaging, queryClient } from "../../../lib/query";
import type { CommentVersion, CommentView, Page } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";
import { feedKeys } from "../../feed";

export type CommentSort = "new" | "top";

/** What a thread is under: a feed item (news or a post), a question or an answer. */
export interface Subject {
  kind: CommentView["subject_kind"];
  id: number;
}

/** The subject of a comment. */
export const subjectOf = (c: CommentView): Subject => ({ kind: c.subject_kind, id: c.subject_id });

/** The request's field naming the subject: `{feed_id}`, `{question_id}` or `{answer_id}`. */
const on = (subject: Subject) => ({ [`${subject.kind}_id`]: subject.id });

export const commentKeys = {
  thread: (subject: Subject) => ["comments", subject.kind, subject.id] as const,
  sorted: (subject: Subject, sort: CommentSort, userId?: number) => ["comments", subject.kind, subject.id, sort, userId] as const,
};

/** A subject's top-level comments, a page at a time, each with its first replies. */
export function useComments(subject: Subject, sort: CommentSort) {
  const userId = useAtomValue(userAtom)?.id;
  return useInfiniteQuery({
    queryKey: commentKeys.sorted(subject, sort, userId),
    queryFn: ({ pageParam }) => call<Page<CommentView>>("/comment/list", { ...on(subject), sort, cursor: pageParam }),
    ...cursorPaging,
  });
}

/** The replies after the last one shown. */
export const getReplies = (id: number, cursor: string | null) =>
  call<Page<CommentView>>("/comment/replies", { id, cursor });

export const getHistory = (id: number) => call<{ list: CommentVersion[] }>("/comment/history", { id });

/** The thread asks again: someone else changed it (the live stream said so). */
export const threadChanged = (subject: Subject) => void queryClient.invalidateQueries({ queryKey: commentKeys.thread(subject) });

/** Whether comment `id` is in a thread of `subject` on screen (as a comment or a reply). */
export const isShown = (subject: Subject, id: number) =>
  queryClient
    .getQueriesData<InfiniteData<Page<CommentView>>>({ queryKey: commentKeys.thread(subject) })
    .some(([, data]) => data?.pages.some((p) => p.list.some((c) => c.id === id || c.replies.some((r) => r.id === id))));

/** The thread, and a feed item's comment count, ask again after any change to the thread. */
const refresh = <T,>(subject: Subject) => (answer: T) => {
  void queryClient.invalidateQueries({ queryKey: commentKeys.thread(subject) });
  if (subject.kind === "feed") void queryClient.invalidateQueries({ queryKey: feedKeys.item(subject.id) });
  return answer;
};

/** Silent: the form shows the error (a limit says when to try again). */
export const addComment = (subject: Subject, content: string, parentId: number | null) =>
  call<CommentView>("/comment/add", { ...on(subject), parent_id: parentId, content }, { silent: true }).then(refresh(subject));

export const editComment = (subject: Subject, id: number, content: string) =>
  call<CommentView>("/comment/edit", { id, content }, { silent: true }).then(refresh(subject));

export const deleteComment = (subject: Subject, id: number) => call("/comment/del", { id }).then(refresh(subject));

export const blockUser = (subject: Subject, userId: number, blocked: boolean) =>
  call("/user/block", { user_id: userId, blocked }).then(refresh(subject));
