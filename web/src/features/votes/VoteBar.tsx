import { useState } from "react";

import { applyVote, C, type VoteCounts } from "../../lib/core";
import { useMemberAction } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { setVote, type VoteKind } from "./api/votes";

type Votes = { votes: VoteCounts; mine: string[] };

/** The votes after the reader's own changed from `before` to `mine`. */
function recount(before: Votes, mine: string[]): Votes {
  const votes = { ...before.votes };
  for (const kind of C.voteKinds as VoteKind[]) votes[kind] += Number(mine.includes(kind)) - Number(before.mine.includes(kind));
  return { votes, mine };
}

/** Readers' votes on an item with their counts (the server's first paint draws the same
 * buttons, `first_paint.rs`): pressed at once by the shared rule (bullish and
 * bearish exclude each other), then as the server says; a visitor is asked to sign in.
 * `onVoted` runs once the server has the vote: a page of the item read before then (the reader
 * opened it at once) is read again. */
export function VoteBar({ id, votes, mine, onVoted }: { id: number; votes: VoteCounts; mine?: string[]; onVoted?: () => void }) {
  const { t } = useTranslation();
  const { user, run } = useMemberAction();
  const [state, setState] = useState<Votes>({ votes, mine: user ? (mine ?? []) : [] });
  const press = (kind: VoteKind) =>
    run(() => {
      const before = state;
      const on = !before.mine.includes(kind);
      setState(recount(before, applyVote(before.mine, kind, on) ?? before.mine));
      return setVote(id, kind, on).then(
        (after) => {
          setState(after);
          onVoted?.();
        },
        (e: unknown) => {
          setState(before);
          throw e;
        },
      );
    });
  return (
    <div className="vote-bar" role="group" aria-label={t("web.votes.label")}>
      {(C.voteKinds as VoteKind[]).map((kind, at) => (
        <button key={kind} type="button" className="vote" data-kind={kind} aria-pressed={state.mine.includes(kind)} aria-label={t(`web.votes.${kind}`, { count: state.votes[kind] })} onClick={() => press(kind)}>
          {C.voteMarks[at]} {state.votes[kind]}
        </button>
      ))}
    </div>
  );
}
