// Blockbrief's service worker: shows alerts pushed while no page is open, and opens the item
// when one is pressed (focusing a tab that shows it already).
self.addEventListener("push", (event) => {
  let notice;
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { title: event.data ? event.data.text() : "Blockbrief" };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || "Blockbrief", {
      body: notice.body || "",
      icon: "/icon-192.png",
      tag: notice.feed_id ? `feed-${notice.feed_id}` : undefined,
      data: { url: notice.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin);
  // Only our own pages open from a notification.
  const target = url.origin === self.location.origin ? url.href : self.location.origin;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      const open = tabs.find((tab) => tab.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
