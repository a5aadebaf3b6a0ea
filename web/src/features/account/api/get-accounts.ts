import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import type { AccountView } from "../../../lib/api-types";
import type { TwitterStatus } from "../../../lib/core";
import { userAtom } from "../../../lib/session";
import { accountKeys } from "./keys";

export const getAccounts = () => call<{ list: AccountView[] }>("/user/account/list");

export const accountsQueryOptions = (userId?: number) =>
  queryOptions({ queryKey: accountKeys.accounts(userId), queryFn: getAccounts, enabled: userId !== undefined });

/** The sign-in methods bound to the signed-in user. */
export function useAccounts() {
  return useQuery(accountsQueryOptions(useAtomValue(userAtom)?.id));
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
