import { call } from "../../../lib/api";
import { type SessionUser, updateUser } from "../../../lib/session";

export const updateSettings = (settings: { auto_translate: boolean }) =>
  call<SessionUser>("/user/settings", settings).then(updateUser);
