import { call } from "../../../lib/api";

/** `start` is the method's path (`/user/login/google/oauth`, `/user/account/bind/twitter/oauth`). */
export const startOAuth = (start: string) => call<{ auth_url: string; state: string }>(start);

export const completeOAuth = <T>(start: string, result: { state: string; code?: string | null; error: string | null }) =>
  call<T>(`${start}/complete`, result);
