import { call } from "../../../lib/api";
import type { AccountView } from "../../../lib/api-types";
import type { SessionUser } from "../../../lib/session";

/** The Sign-In with Ethereum message the server wrote for this address (nonce inside). */
export const getSignMessage = (address: string) => call<{ msg: string }>("/user/sig/msg", { address });

export const loginWithWallet = (address: string, sig: string, msg: string) =>
  call<SessionUser>("/user/login/wallet", { address, sig, msg });

/** The message that binds this address to the signed-in reader. */
export const getBindMessage = (address: string) => call<{ msg: string }>("/user/account/bind/wallet/sigmsg", { address });

export const bindSignedWallet = (address: string, sig: string, msg: string) =>
  call<AccountView>("/user/account/bind/wallet", { address, sig, msg });
