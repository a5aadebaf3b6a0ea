import type { FeedFilter, FeedScope } from "./get-feeds";

/** The feed area's query keys: every use and invalidation goes through these. */
export const feedKeys = {
  lists: () => ["feeds"],
  list: (scope: FeedScope, filter: FeedFilter, locale: string) => ["feeds", scope, filter, locale],
  /** One item in every language (a prefix of `detail`). */
  item: (id: number) => ["feed", id],
  detail: (id: number, locale: string) => ["feed", id, locale],
};
