import { call } from "../../../lib/api";
import type { SessionUser } from "../../../lib/session";

/** `captchaToken`: an answer the server needs only while many wrong codes are being tried. */
export const loginWithEmail = (email: string, otp: string, captchaToken: string | null) =>
  call<SessionUser>("/user/login/email", { email, otp, captcha_token: captchaToken });
