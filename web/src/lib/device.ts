import { deviceHeader } from "./core";

/** iOS or Android: some sign-in methods and the download action differ there. */
export function mobileOs(ua = navigator.userAgent): "ios" | "android" | null {
  if (/iPhone|iPad|iPod/i.test(ua)) return "ios";
  if (/Android/i.test(ua)) return "android";
  return null;
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
