import { useQueryClient } from "@tanstack/react-query";

import { bindWallet, runOAuth, toastWalletError } from "../../auth";
import { accountKeys } from "./keys";

/** Binds another way to sign in: X (Twitter) in a popup, or the browser's wallet by a signed
 * message. The bound accounts and the tasks that ask for it change. */
export function useBindMethod(): (method: "twitter" | "wallet") => void {
  const queryClient = useQueryClient();
  const bound = () => {
    void queryClient.invalidateQueries({ queryKey: accountKeys.accounts() });
    void queryClient.invalidateQueries({ queryKey: accountKeys.tasks() });
  };
  return (method) => {
    if (method === "twitter") void runOAuth("twitter", "/user/account/bind/twitter/oauth").then(bound, () => {});
    else void bindWallet().then(bound, toastWalletError);
  };
}
