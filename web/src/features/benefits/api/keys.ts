/** The benefits' query keys: every use and invalidation goes through these. */
export const benefitKeys = {
  list: (locale: string) => ["benefits", locale],
  detail: (id: number, locale: string) => ["benefit", id, locale],
};
