import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import { userAtom } from "../../../lib/session";
import { accountKeys } from "./keys";

export const getBalance = () => call<{ balance: number }>("/point/balance");

export const balanceQueryOptions = (userId?: number) =>
  queryOptions({ queryKey: accountKeys.balance(userId), queryFn: getBalance, enabled: userId !== undefined });

export function useBalance() {
  return useQuery(balanceQueryOptions(useAtomValue(userAtom)?.id));
}
