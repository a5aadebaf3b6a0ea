import { atom } from "jotai";

import { store } from "../../lib/store";

/** Set when a new version of the app is installed and waiting: calling it reloads into it. */
export const updateWaitingAtom = atom<(() => void) | null>(null);

/** Registers the service worker (`src/sw/sw.ts`) once the page has loaded, so it never competes
 *  with the first paint; its registration code (Workbox's) is fetched only then. */
export function startServiceWorker(): void {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return;
  const register = () =>
    void import("virtual:pwa-register").then(({ registerSW }) => {
      const update = registerSW({
        immediate: true,
        onNeedRefresh: () => store.set(updateWaitingAtom, () => () => void update(true)),
      });
    });
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
