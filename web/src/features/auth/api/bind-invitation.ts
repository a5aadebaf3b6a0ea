import { call } from "../../../lib/api";

/** Silent: the code is optional, so a failure is not worth a word. */
export const bindInvitation = (code: string) => call("/user/invitation/bind", { invitation_code: code }, { silent: true });
