import { useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import { queryClient } from "../../../lib/query";
import type { PostHistory } from "../../../lib/api-types";
import { feedKeys } from "../../feed";

export const postKeys = {
  history: (id: number) => ["post", "history", id] as const,
};

export interface PostDraft {
  title: string;
  content: string;
  tags: number[];
  tokens: number[];
  images: string[];
}

/** A published or changed post shows everywhere the feeds do, and on its own page. */
const refresh = <T extends { id: number }>(answer: T) => {
  void queryClient.invalidateQueries({ queryKey: feedKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: feedKeys.item(answer.id) });
  void queryClient.invalidateQueries({ queryKey: postKeys.history(answer.id) });
  return answer;
};

/** Silent: the editor shows the refusal. */
export const createPost = (draft: PostDraft) => call<{ id: number }>("/post/create", draft, { silent: true }).then(refresh);
export const editPost = (id: number, draft: PostDraft) =>
  call<{ id: number }>("/post/edit", { id, ...draft }, { silent: true }).then(refresh);
export const deletePost = (id: number) => call<{ id: number }>("/post/del", { id }).then(refresh);

/** The post's HTML by the server's own rendering and cleaning. */
export const previewPost = (content: string) => call<{ html: string }>("/post/preview", { content }, { silent: true });

/** A post's versions, newest first, and the tags and tokens it names: the editor starts from
 * these. */
export function usePostHistory(id: number | null) {
  return useQuery({
    queryKey: postKeys.history(id ?? 0),
    queryFn: () => call<PostHistory>("/post/history", { id }, { silent: true }),
    enabled: id !== null,
  });
}
