import { call } from "../../../lib/api";

/** Whether this browser can show notifications sent while the page is closed. */
export const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** The service worker that shows notifications (`src/sw/sw.ts`, registered by the app at load). */
const worker = () => navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready);

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export type PushState = "unsupported" | "denied" | "off" | "on";

/** Whether this browser gets notifications now. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const registration = await navigator.serviceWorker.getRegistration("/sw.js");
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && Notification.permission === "granted" ? "on" : "off";
}

/** Asks the browser's permission (only now, on the reader's press), subscribes it to our
 * server's key and tells the server. */
export async function allowNotifications(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const { data } = (await fetch("/api/push/key").then((r) => r.json())) as { data: { key: string } };
  const key = data.key;
  const registration = await worker();
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
  await call("/push/subscribe", subscription.toJSON());
  return "on";
}

export async function stopNotifications(): Promise<PushState> {
  const registration = await navigator.serviceWorker.getRegistration("/sw.js");
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    await call("/push/unsubscribe", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  return "off";
}

export const sendTest = () => call<{ sent: number }>("/push/test", {});
