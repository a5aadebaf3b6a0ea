import { useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { Sentiment, VoteState } from "../../../lib/api-types";

export type VoteKind = "bullish" | "bearish" | "important" | "lol" | "toxic";

export const setVote = (feed_id: number, kind: VoteKind, on: boolean) => call<VoteState>("/vote/set", { feed_id, kind, on });

/** How readers voted on a token's news in the last day. */
export const useSentiment = (symbol: string) =>
  useQuery({
    queryKey: ["sentiment", symbol],
    queryFn: () => call<Sentiment>("/token/sentiment", { symbol, hours: 24 }),
    staleTime: 60_000,
  });
