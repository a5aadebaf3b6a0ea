import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";

import { call } from "../../../lib/api";
import type { Leaderboard } from "../../../lib/api-types";
import { userAtom } from "../../../lib/session";

export type Period = "daily" | "all";

/** The reader's own rank is in the answer, so the key carries who asks. */
export const leaderboardKeys = { board: (period: Period, userId?: number) => ["leaderboard", period, userId ?? 0] };

export const getLeaderboard = (period: Period) => call<Leaderboard>("/point/leaderboard", { period });

export const leaderboardQueryOptions = (period: Period, userId?: number) =>
  queryOptions({ queryKey: leaderboardKeys.board(period, userId), queryFn: () => getLeaderboard(period) });

export function useLeaderboard(period: Period) {
  return useQuery(leaderboardQueryOptions(period, useAtomValue(userAtom)?.id));
}
