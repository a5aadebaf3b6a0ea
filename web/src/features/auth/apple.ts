// Sign in with Apple on the web: Apple's JS in popup mode. The server gives the Services ID, the
// Return URL, the script's address and a nonce (`/user/login/apple/start`); Apple signs the nonce
// into an identity token, which the server verifies (`/user/login/apple`).
import { call } from "../../lib/api";
import type { AppleStart } from "../../lib/api-types";
import { loadScript } from "../../lib/script";
import type { SessionUser } from "../../lib/session";
import { OAuthCancelled } from "./oauth";

/** What Apple's `signIn()` resolves with in popup mode. */
interface AppleAnswer {
  authorization: { id_token: string; code: string; state?: string };
  /** Only on the first sign-in to our app. */
  user?: { email?: string; name?: { firstName?: string; lastName?: string } };
}

interface AppleAuth {
  init(config: { clientId: string; scope: string; redirectURI: string; state: string; nonce: string; usePopup: boolean }): void;
  signIn(): Promise<AppleAnswer>;
}

declare global {
  interface Window {
    AppleID?: { auth: AppleAuth };
  }
}

export async function signInWithApple(): Promise<SessionUser> {
  const start = await call<AppleStart>("/user/login/apple/start", {});
  await loadScript(start.script_url);
  const auth = window.AppleID?.auth;
  if (!auth) throw new Error("Apple's sign-in did not load");
  auth.init({ clientId: start.client_id, scope: "name email", redirectURI: start.redirect_uri, state: start.nonce, nonce: start.nonce, usePopup: true });
  let answer: AppleAnswer;
  try {
    answer = await auth.signIn();
  } catch {
    // Apple rejects with `{ error: "popup_closed_by_user" }` (or a blocked popup): a cancel.
    throw new OAuthCancelled("closed");
  }
  if (answer.authorization.state !== start.nonce) throw new OAuthCancelled("another sign-in's answer");
  const name = [answer.user?.name?.firstName, answer.user?.name?.lastName].filter(Boolean).join(" ");
  return call<SessionUser>("/user/login/apple", { identity_token: answer.authorization.id_token, full_name: name || null });
}
