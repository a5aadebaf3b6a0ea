// The reader's recent searches, kept in this browser only (never sent anywhere).

const KEY = "bb.recentSearches";
export const RECENT_MAX = 8;

/** `q` first, then the earlier ones without it (compared without case), at most `RECENT_MAX`. */
export function withRecent(list: string[], q: string): string[] {
  const query = q.trim();
  if (query === "") return list;
  const same = query.toLocaleLowerCase();
  return [query, ...list.filter((old) => old.toLocaleLowerCase() !== same)].slice(0, RECENT_MAX);
}

/** What this browser kept; anything unreadable counts as nothing. */
export function readRecent(): string[] {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(kept) ? kept.filter((q): q is string => typeof q === "string").slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

export function rememberSearch(q: string): string[] {
  const list = withRecent(readRecent(), q);
  localStorage.setItem(KEY, JSON.stringify(list));
  return list;
}

export function forgetSearches(): void {
  localStorage.removeItem(KEY);
}
