import type { TFunction } from "i18next";

import { timeAgo as coreTimeAgo } from "./core";

/** "3h ago" in the locale's own words, by client-core's rule (the server's first paint uses it too). */
export function timeAgo(seconds: number, t: TFunction): string {
  const ago = coreTimeAgo(seconds, Math.floor(Date.now() / 1000));
  return t(ago.key, { n: ago.n });
}
