// OAuth 2 / OpenID Connect in a popup: the server starts the authorization (state, PKCE, nonce),
// the provider sends the popup back to our `/oauth/by/web` page, which posts the result to this
// window; the server then finishes it.
import type { SessionUser } from "../../lib/session";
import { completeOAuth, startOAuth } from "./api/oauth";

export type OAuthProvider = "google" | "line" | "twitter";

export interface OAuthCallback {
  type: "OAUTH_CALLBACK";
  state: string;
  code?: string | null;
  error?: string | null;
}

const POPUP_WIDTH = 400;
const POPUP_HEIGHT = 500;
const POLL_MS = 500;

export class OAuthCancelled extends Error {}

function openPopup(url: string): Window {
  const left = Math.max(0, window.screenX + (window.outerWidth - POPUP_WIDTH) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - POPUP_HEIGHT) / 2);
  const popup = window.open(url, "bb-oauth", `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
  if (!popup) throw new OAuthCancelled("popup blocked");
  return popup;
}

/** Waits for the popup's callback: only from our own origin, from that popup, of the right type,
 * with the state this authorization was given. A closed popup is a cancellation. */
function awaitCallback(popup: Window, state: string): Promise<OAuthCallback | null> {
  return new Promise((resolve) => {
    const finish = (result: OAuthCallback | null) => {
      removeEventListener("message", onMessage);
      clearInterval(poll);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Partial<OAuthCallback> | null;
      if (event.origin !== location.origin || event.source !== popup) return;
      if (data?.type !== "OAUTH_CALLBACK" || data.state !== state) return;
      finish(data as OAuthCallback);
    };
    addEventListener("message", onMessage);
    const poll = setInterval(() => {
      if (popup.closed) finish(null);
    }, POLL_MS);
  });
}

/** Signs in with a provider, or (with `bindPath`) binds it to the signed-in user. */
export async function runOAuth<T = SessionUser>(provider: OAuthProvider, bindPath?: string): Promise<T> {
  const start = bindPath ?? `/user/login/oauth/${provider}`;
  const { auth_url, state } = await startOAuth(start);
  const popup = openPopup(auth_url);
  const callback = await awaitCallback(popup, state);
  if (!callback) {
    // Closing X's popup is its denial (the server answers USER_DENIED); elsewhere it is a cancel.
    if (provider !== "twitter") throw new OAuthCancelled("closed");
    return completeOAuth<T>(start, { state, error: "access_denied" });
  }
  popup.close();
  return completeOAuth<T>(start, { state, code: callback.code ?? null, error: callback.error ?? null });
}
