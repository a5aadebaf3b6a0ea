import { call } from "../../../lib/api";
import type { SessionUser } from "../../../lib/session";

export const loginWithEmail = (email: string, otp: string) => call<SessionUser>("/user/login/email", { email, otp });
