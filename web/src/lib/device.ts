import { deviceHeader } from "./core";

/** iOS or Android: some sign-in methods and the download action differ there. */
export function mobileOs(ua = navigator.userAgent): "ios" | "android" | null {
  if (/iPhone|iPad|iPod/i.test(ua)) return "ios";
  if (/Android/i.test(ua)) return "android";
  return null;
}

/** In-app browsers (WeChat, Facebook, Instagram, Telegram) block the sign-in popups and wallets:
 * their readers are sent to the app instead. */
export function unsupportedClient(ua = navigator.userAgent): boolean {
  return /MicroMessenger|FBAN|FBAV|Instagram|Telegram/i.test(ua);
}

/** Telegram's in-app browser, where Sign in with Telegram is the method that works. */
export function telegramInApp(ua = navigator.userAgent): boolean {
  return /Telegram/i.test(ua) || typeof (window as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy !== "undefined";
}

/** The `X-BPARAM` header, built by client-core. */
export function deviceParam(): string {
  return deviceHeader({
    os: mobileOs() ?? "web",
    language: document.documentElement.lang || navigator.language,
    timezoneOffsetMinutes: new Date().getTimezoneOffset(),
    userAgent: navigator.userAgent,
  });
}

/** A site setting the server writes into every page (`blockbrief:<name>`), or "". */
export const siteMeta = (name: string): string => document.querySelector<HTMLMetaElement>(`meta[name="blockbrief:${name}"]`)?.content ?? "";

/** The app's store pages as the server's configuration has them (`APP_STORE_URL`,
 * `PLAY_STORE_URL`), "" for a store the app is not in. */
export const appStoreUrl = (): string => siteMeta("app-store");
export const playStoreUrl = (): string => siteMeta("play-store");

/** Whether the app is in any store: the download actions show only then. */
export const appPublished = (): boolean => appStoreUrl() !== "" || playStoreUrl() !== "";

/** The store for this phone, or null on a computer or where the app is not in that store. */
export function storeLink(): string | null {
  const os = mobileOs();
  return (os === "ios" ? appStoreUrl() : os === "android" ? playStoreUrl() : "") || null;
}
