import { atom } from "jotai";

import type { FeedDetail } from "../../lib/api-types";
import { store } from "../../lib/store";

/** How many opened items stay readable offline. */
export const SHELF_SIZE = 50;
const INDEX = "offline-items";

/** Whether the app cannot reach the server: the browser says so, or a read just failed. */
export const offlineAtom = atom(typeof navigator !== "undefined" && !navigator.onLine);

/** Marks the app offline until the browser is online again. */
export function markOffline(): void {
  store.set(offlineAtom, true);
}

if (typeof window !== "undefined") {
  window.addEventListener("online", () => store.set(offlineAtom, false));
  window.addEventListener("offline", markOffline);
}

function keptIds(): number[] {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(INDEX) ?? "[]");
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === "number") : [];
  } catch {
    return [];
  }
}

/** Keeps an item the reader opened, newest first; the oldest beyond `SHELF_SIZE` go. */
export function keepForOffline(item: FeedDetail): void {
  try {
    const ids = [item.id, ...keptIds().filter((id) => id !== item.id)];
    for (const gone of ids.splice(SHELF_SIZE)) localStorage.removeItem(`${INDEX}:${gone}`);
    localStorage.setItem(`${INDEX}:${item.id}`, JSON.stringify(item));
    localStorage.setItem(INDEX, JSON.stringify(ids));
  } catch {
    // Storage full or refused: the offline copy is a convenience, the page works without it.
  }
}

/** The kept copy of item `id`, if there is one. */
export function keptItem(id: number): FeedDetail | null {
  try {
    const raw = localStorage.getItem(`${INDEX}:${id}`);
    return raw ? (JSON.parse(raw) as FeedDetail) : null;
  } catch {
    return null;
  }
}

/** The kept items, newest first. */
export function keptItems(): FeedDetail[] {
  return keptIds().flatMap((id) => keptItem(id) ?? []);
}
