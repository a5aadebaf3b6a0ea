import { useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../lib/api";
import type { TwitterStatus } from "../../lib/core";
import { userAtom } from "../../lib/session";

export type { AccountView as Account } from "../../lib/api-types";
import type { AccountView } from "../../lib/api-types";

/** The account area's query keys: every use and invalidation goes through these. */
export const accountKeys = {
  accounts: (userId?: number) => (userId === undefined ? ["accounts"] : ["accounts", userId]),
  balance: (userId?: number) => (userId === undefined ? ["balance"] : ["balance", userId]),
  ledger: (userId?: number) => (userId === undefined ? ["ledger"] : ["ledger", userId]),
  tasks: (...scope: (string | boolean)[]) => ["tasks", ...scope],
};

export function useAccounts() {
  const user = useAtomValue(userAtom);
  return useQuery({
    queryKey: accountKeys.accounts(user?.id),
    queryFn: () => call<{ list: AccountView[] }>("/user/account/list"),
    enabled: !!user,
  });
}

/** Whether X (Twitter) is bound, as the task buttons and the account page show it. */
export function useTwitterStatus(): TwitterStatus | null {
  const user = useAtomValue(userAtom);
  const accounts = useAccounts();
  if (!user) return null;
  if (accounts.isPending) return "LOADING";
  if (accounts.isError) return "QUERY_ERROR";
  return accounts.data.list.some((a) => a.type === "twitter") ? "BOUND" : "UNBOUND";
}
