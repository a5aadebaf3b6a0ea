// Sign-In with Ethereum through the browser wallet (EIP-1193): the server writes the message,
// the wallet signs it (personal_sign), the server checks the signature and the nonce.
import { confirm } from "../../components/ui";
import { ApiError } from "../../lib/api";
import { i18next } from "../../lib/i18n";
import type { SessionUser } from "../../lib/session";
import { getSignMessage, loginWithWallet } from "./api/login-wallet";

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The wallet's answer when a connection request is already waiting for the user. */
const REQUEST_PENDING = -32002;

export class WalletError extends Error {
  constructor(readonly code: "NO_PlUGIN" | "NO_ALLOW", key: string) {
    super(key);
  }
}

export async function signInWithWallet(): Promise<SessionUser> {
  const provider = (window as unknown as { ethereum?: Eip1193 }).ethereum;
  if (!provider) throw new WalletError("NO_PlUGIN", "web.wallet.noPlugin");
  await confirm(i18next.t("web.wallet.confirm"));
  let accounts = (await provider.request({ method: "eth_accounts" })) as string[];
  if (accounts.length === 0) {
    try {
      accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
    } catch (e) {
      if ((e as { code?: number }).code === REQUEST_PENDING) throw new WalletError("NO_ALLOW", "web.wallet.noAllow");
      throw new Error("cancelled", { cause: e });
    }
  }
  const address = accounts[0];
  if (!address) throw new WalletError("NO_ALLOW", "web.wallet.noAllow");
  const { msg } = await getSignMessage(address);
  const sig = (await provider.request({ method: "personal_sign", params: [msg, address] })) as string;
  try {
    return await loginWithWallet(address, sig, msg);
  } catch (e) {
    if (e instanceof ApiError) throw new Error("cancelled", { cause: e }); // already toasted
    throw e;
  }
}
