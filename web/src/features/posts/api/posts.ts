import { useQuery } from "@tanstack/react-query";

import { call, queryClient } from "../../../lib/api";
import type { FeedDetail, PostVersion } from "../../../lib/api-types";

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

/** A published or changed post shows everywhere the feeds do. */
const refresh = <T,>(answer: T) => {
  void queryClient.invalidateQueries({ queryKey: ["feeds"] });
  void queryClient.invalidateQueries({ queryKey: ["feed"] });
  void queryClient.invalidateQueries({ queryKey: ["post"] });
  return answer;
};

/** Silent: the editor shows the refusal. */
export const createPost = (draft: PostDraft) => call<{ id: number }>("/post/create", draft, { silent: true }).then(refresh);
export const editPost = (id: number, draft: PostDraft) =>
  call<{ id: number }>("/post/edit", { id, ...draft }, { silent: true }).then(refresh);
export const deletePost = (id: number) => call<{ id: number }>("/post/del", { id }).then(refresh);

/** The post's HTML by the server's own rendering and cleaning. */
export const previewPost = (content: string) => call<{ html: string }>("/post/preview", { content }, { silent: true });

/** A post's versions, newest first (the editor starts from the first). */
export function usePostHistory(id: number | null) {
  return useQuery({
    queryKey: postKeys.history(id ?? 0),
    queryFn: () => call<{ list: PostVersion[] }>("/post/history", { id }, { silent: true }).then((h) => h.list),
    enabled: id !== null,
  });
}

/** The post as readers see it, for its tags and tokens when editing. */
export function usePostItem(id: number | null) {
  return useQuery({
    queryKey: ["post", "item", id ?? 0],
    queryFn: () => call<FeedDetail>("/feed/detail", { id }, { silent: true }),
    enabled: id !== null,
  });
}
