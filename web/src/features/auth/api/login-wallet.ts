import { call } from "../../../lib/api";
import type { SessionUser } from "../../../lib/session";

/** The Sign-In with Ethereum message the server wrote for this address (nonce inside). */
export const getSignMessage = (address: string) => call<{ msg: string }>("/user/sig/msg", { address });

export const loginWithWallet = (address: string, sig: string, msg: string) =>
  call<SessionUser>("/user/login/wallet", { address, sig, msg });
