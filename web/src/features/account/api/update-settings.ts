import { call } from "../../../lib/api";
import type { Locale } from "../../../lib/core";
import { type SessionUser, updateUser } from "../../../lib/session";

/** Reading preferences: what is left out stays as it is. */
export const updateSettings = (settings: { auto_translate?: boolean; read_langs?: Locale[] }) =>
  call<SessionUser>("/user/settings", settings).then(updateUser);
