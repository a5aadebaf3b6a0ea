// The API client: builds X-TOKEN, X-GTOKEN and X-BPARAM, refuses paths client-core does not
// know, unwraps the envelope with client-core, logs out on 401 and toasts translated errors
// (`errors`); what it fetched is kept by TanStack Query (`query`).
import { C, checkEndpoint, unwrapResponse } from "./core";
import { deviceParam } from "./device";
import { ApiError, messageOf } from "./errors";
import { queryClient } from "./query";
import { clearSession, currentToken, storeGuestToken, storedGuestToken } from "./session";
import { toast } from "./toast";

let guestToken: Promise<string> | null = null;

/** The guest token: fetched once, then cached. */
function ensureGuestToken(): Promise<string> {
  const stored = storedGuestToken();
  if (stored) return Promise.resolve(stored);
  guestToken ??= fetch("/api/user/gtoken", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    .then((r) => r.json())
    .then((body: { data: { token: string } }) => {
      storeGuestToken(body.data.token);
      return body.data.token;
    })
    .finally(() => {
      guestToken = null;
    });
  return guestToken;
}

let lastLogout = 0;
let afterLogout: () => void = () => {};

/** Called by the shell with its navigation. */
export function onLogout(go: () => void): void {
  afterLogout = go;
}

/**
 * Clears the cache, resets the user, goes home, then tells the server (unless it already knows,
 * as after signing out everywhere); at most once per 5 s.
 */
export function logout(tellServer = true): void {
  const now = Date.now();
  if (now - lastLogout < C.logoutThrottleMs) return;
  lastLogout = now;
  const token = currentToken();
  queryClient.clear();
  clearSession();
  afterLogout();
  if (token && tellServer) {
    void fetch("/api/user/logout", { method: "POST", headers: { "content-type": "application/json", "X-TOKEN": token }, body: "{}" }).catch(() => {});
  }
}

export interface CallOptions {
  /** No error toast (the caller shows the error itself). */
  silent?: boolean;
}

export async function call<T>(path: string, body: unknown = {}, options: CallOptions = {}): Promise<T> {
  const token = currentToken();
  const refused = checkEndpoint(path, token !== null);
  if (refused) throw new ApiError(refused.code, refused.message, 0);
  const headers: Record<string, string> = { "content-type": "application/json", "X-BPARAM": deviceParam() };
  if (token) headers["X-TOKEN"] = token;
  else {
    // Reading needs no guest token: the first calls of a visit do not wait for one.
    const guest = storedGuestToken();
    if (guest) headers["X-GTOKEN"] = guest;
    else void ensureGuestToken().catch(() => {});
  }
  const response = await fetch(`/api${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const json: unknown = await response.json().catch(() => null);
  const result = unwrapResponse(response.status, response.statusText, json);
  if (result.ok) return result.data as T;
  if (result.logout || response.status === 401) logout();
  const error = new ApiError(result.error.code, result.error.message, response.status, result.error.data);
  if (!options.silent && response.status !== 401) toast("error", messageOf(error));
  throw error;
}

/** A multipart upload through the same headers and envelope rules. */
export async function upload<T>(path: string, form: FormData): Promise<T> {
  const token = currentToken();
  const headers: Record<string, string> = { "X-BPARAM": deviceParam() };
  if (token) headers["X-TOKEN"] = token;
  else headers["X-GTOKEN"] = await ensureGuestToken();
  const response = await fetch(`/api${path}`, { method: "POST", headers, body: form });
  const json: unknown = await response.json().catch(() => null);
  const result = unwrapResponse(response.status, response.statusText, json);
  if (result.ok) return result.data as T;
  throw new ApiError(result.error.code, result.error.message, response.status, result.error.data);
}

/** One image through the server's upload pipeline (`path`: the feedback form has its own);
 * the answer is the image's public address. */
export const uploadImage = (file: File, path = "/img/upload") => {
  const body = new FormData();
  body.append("img_file", file);
  return upload<{ absolute: string }>(path, body).then((uploaded) => uploaded.absolute);
};
