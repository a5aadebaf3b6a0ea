import { atom } from "jotai";
import { registerSW } from "virtual:pwa-register";

import { store } from "../../lib/store";

/** Set when a new version of the app is installed and waiting: calling it reloads into it. */
export const updateWaitingAtom = atom<(() => void) | null>(null);

/** Registers the service worker (`src/sw/sw.ts`) once the page has loaded, so it never competes
 *  with the first paint. */
export function startServiceWorker(): void {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return;
  const update = registerSW({
    onNeedRefresh: () => store.set(updateWaitingAtom, () => () => void update(true)),
  });
}
