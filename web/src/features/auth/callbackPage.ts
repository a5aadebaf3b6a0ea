// `/oauth/by/web`: where providers send the sign-in popup back. It posts the result to the window
// that opened it, addressed to exactly one origin (`to`, checked by client-core against our own
// origin after URL parsing; never `*`), then closes. No React: it runs before the app would load.
import { safeRedirectOrigin } from "../../lib/core-more";

export function runCallbackPage(): void {
  const params = new URLSearchParams(location.search);
  const to = params.get("to") ?? location.origin;
  const origin = safeRedirectOrigin(to, [location.origin]);
  const message = document.createElement("p");
  message.style.cssText = "font-family: sans-serif; padding: 24px; text-align: center";
  document.body.append(message);
  if (!origin || !window.opener) {
    message.textContent = origin ? "This window can be closed." : "Refused: the return address is not ours.";
    return;
  }
  (window.opener as Window).postMessage(
    { type: "OAUTH_CALLBACK", state: params.get("state") ?? "", code: params.get("code"), error: params.get("error") },
    origin,
  );
  message.textContent = "Signed in. This window closes itself.";
  window.close();
}
