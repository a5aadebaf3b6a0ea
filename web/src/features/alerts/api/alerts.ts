import { useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import { queryClient } from "../../../lib/query";
import type { AlertView, Sample } from "../../../lib/api-types";
import type { AlertRule } from "../../../lib/core";
import { userAtom } from "../../../lib/session";

export type AlertInput = Pick<AlertView, "name" | "rule" | "deliver" | "mode" | "quiet"> & {
  /** The reader's time zone (quiet hours and the daily email keep to it). */
  time_zone?: string;
};

const alertKeys = {
  list: (userId?: number) => ["alerts", userId] as const,
  sample: ["alerts", "sample"] as const,
};

export function useAlerts() {
  const userId = useAtomValue(userAtom)?.id;
  return useQuery({
    queryKey: alertKeys.list(userId),
    queryFn: () => call<{ list: AlertView[] }>("/alert/list", {}).then((r) => r.list),
    enabled: userId !== undefined,
  });
}

/** The last week's items as rules see them, fetched once: the editor counts over it as the
 * reader types, with no request per keystroke. */
export function useSample(enabled: boolean) {
  return useQuery({
    queryKey: alertKeys.sample,
    queryFn: () => call<Sample>("/alert/sample", {}),
    enabled,
    staleTime: 60_000,
  });
}

const refresh = () => void queryClient.invalidateQueries({ queryKey: ["alerts"] });

export const addAlert = (alert: AlertInput) => call<{ id: number }>("/alert/add", alert).then(refresh);
export const updateAlert = (id: number, alert: AlertInput) => call("/alert/update", { id, ...alert }).then(refresh);
export const deleteAlert = (id: number) => call("/alert/del", { id }).then(refresh);

/** An empty rule, for a new alert; `seed` names what it starts from ("Alert me" on a page). */
export function newRule(seed: Partial<AlertRule> = {}): AlertRule {
  return { keywords: [], tokens: [], tags: [], channels: [], kols: [], topics: [], only_important: false, langs: [], price: null, ...seed };
}
