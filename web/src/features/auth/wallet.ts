// Sign-In with Ethereum through the browser wallet (EIP-1193): the server writes the message,
// the wallet signs it (personal_sign), the server checks the signature and the nonce. The same
// signature binds a wallet to the signed-in reader.
import { confirm } from "../../components/ui";
import { ApiError, messageOf } from "../../lib/errors";
import type { AccountView } from "../../lib/api-types";
import { i18next } from "../../lib/i18n";
import type { SessionUser } from "../../lib/session";
import { toast } from "../../lib/toast";
import { bindSignedWallet, getBindMessage, getSignMessage, loginWithWallet } from "./api/login-wallet";

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

interface Signed {
  address: string;
  sig: string;
  msg: string;
}

/** The wallet's signature of the message the server wrote for its address, after the reader
 * agreed to `question`. */
async function walletSignature(question: string, message: (address: string) => Promise<{ msg: string }>): Promise<Signed> {
  const provider = (window as unknown as { ethereum?: Eip1193 }).ethereum;
  if (!provider) throw new WalletError("NO_PlUGIN", "web.wallet.noPlugin");
  await confirm(question);
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
  const { msg } = await message(address);
  const sig = (await provider.request({ method: "personal_sign", params: [msg, address] })) as string;
  return { address, sig, msg };
}

/** `send` with the signature; the server's refusal is already toasted, so it reads as cancelled. */
async function submit<T>(signed: Signed, send: (s: Signed) => Promise<T>): Promise<T> {
  try {
    return await send(signed);
  } catch (e) {
    if (e instanceof ApiError) throw new Error("cancelled", { cause: e });
    throw e;
  }
}

export async function signInWithWallet(): Promise<SessionUser> {
  const signed = await walletSignature(i18next.t("web.wallet.confirm"), getSignMessage);
  return submit(signed, ({ address, sig, msg }) => loginWithWallet(address, sig, msg));
}

/** Binds the browser wallet to the signed-in reader as another way to sign in. */
export async function bindWallet(): Promise<AccountView> {
  const signed = await walletSignature(i18next.t("web.wallet.confirmBind"), getBindMessage);
  return submit(signed, ({ address, sig, msg }) => bindSignedWallet(address, sig, msg));
}

/** Says why the wallet did not sign, unless the reader cancelled or the server already said. */
export function toastWalletError(e: unknown) {
  if (e instanceof Error && e.message !== "cancelled") toast("error", i18next.t(e.message, { defaultValue: messageOf(e) }));
}
