import { call } from "../../../lib/api";
import type { SessionUser } from "../../../lib/session";

/** `captchaToken`: an answer the server needs only while many wrong codes are being tried. */
export const loginWithEmail = (email: string, otp: string, captchaToken: string | null) =>
  // Silent: the dialog shows the server's reason (a wrong or expired code) beside the code field.
  call<SessionUser>("/user/login/email", { email, otp, captcha_token: captchaToken }, { silent: true });
