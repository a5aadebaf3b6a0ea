import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import type { LedgerItem } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";
import { accountKeys } from "./keys";

export const getLedger = () => call<{ list: LedgerItem[] }>("/point/ledger", {});

export const ledgerQueryOptions = (userId?: number) =>
  queryOptions({ queryKey: accountKeys.ledger(userId), queryFn: getLedger, enabled: userId !== undefined });

export function useLedger() {
  return useQuery(ledgerQueryOptions(useAtomValue(userAtom)?.id));
}
