import { useQueryClient } from "@tanstack/react-query";

import { runOAuth } from "../../auth";
import { accountKeys } from "./keys";

/** Binds X (Twitter) in a popup; the bound accounts and the tasks that ask for it change. */
export function useBindTwitter(): () => void {
  const queryClient = useQueryClient();
  return () =>
    void runOAuth("twitter", "/user/account/bind/twitter/oauth").then(() => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.accounts() });
      void queryClient.invalidateQueries({ queryKey: accountKeys.tasks() });
    }, () => {});
}
