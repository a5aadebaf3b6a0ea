/** The tags' query keys: every use and invalidation goes through these. */
export const tagKeys = {
  list: (q: string, locale: string) => ["tags", q, locale],
  details: () => ["tag"],
  detail: (code: string, locale: string) => ["tag", code, locale],
  followed: (userId?: number) => (userId === undefined ? ["followed-tags"] : ["followed-tags", userId]),
};
