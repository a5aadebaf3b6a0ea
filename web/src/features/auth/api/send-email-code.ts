import { call } from "../../../lib/api";

export const sendEmailCode = (email: string, captchaToken: string | null) =>
  call("/otp/email", { email, purpose: "login", captcha_token: captchaToken });
