/// <reference lib="webworker" />
// Blockbrief's service worker (built by vite-plugin-pwa, which writes the built files' list into
// `__WB_MANIFEST`): it keeps the app for offline visits, shows alerts pushed while no page
// is open and opens the item when one is pressed. Items read offline come from the app's own
// shelf of the last opened items (`lib/offline.ts`), which the shell renders.
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

declare const self: ServiceWorkerGlobalScope;

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Pages come from the server (it paints their news); offline, from the shell, which shows the
// items kept on the shelf and says it is offline.
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (offline) {
        return (await matchPrecache("/index.html")) ?? Promise.reject(offline);
      }
    },
    { denylist: [/^\/api\//, /^\/rss\b/, /^\/uploads\//] },
  ),
);

// The page's "Reload" on a waiting version (workbox-window's `messageSkipWaiting`).
self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});
// The page that installed the worker is served by it at once (offline too), not after a reload.
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

interface Notice {
  title?: string;
  body?: string;
  url?: string;
  feed_id?: number;
}

self.addEventListener("push", (event) => {
  let notice: Notice;
  try {
    notice = event.data ? (event.data.json() as Notice) : {};
  } catch {
    notice = { title: event.data ? event.data.text() : "Blockbrief" };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || "Blockbrief", {
      body: notice.body || "",
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      tag: notice.feed_id ? `feed-${notice.feed_id}` : undefined,
      data: { url: notice.url || "/" },
    }),
  );
});

/** Opens `url` (only our own pages): in the tab that shows it, else in a tab of ours, else in a
 *  new window. */
async function openItem(url: string): Promise<void> {
  const target = new URL(url, self.location.origin);
  const href = target.origin === self.location.origin ? target.href : self.location.origin;
  const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const showing = tabs.find((tab) => tab.url === href);
  if (showing) {
    await showing.focus();
    return;
  }
  const ours = tabs.find((tab) => new URL(tab.url).origin === self.location.origin);
  const opened = ours ? await ours.navigate(href) : null;
  if (opened) await opened.focus().catch(() => undefined);
  else await self.clients.openWindow(href);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openItem((event.notification.data as { url?: string } | null)?.url ?? "/"));
});
