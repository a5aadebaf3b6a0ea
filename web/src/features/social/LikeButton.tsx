import { useState } from "react";

import { useMemberAction } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { type LikeKind, setLike } from "./api/like";

/** Like a feed item or a comment: the count for everyone; a visitor who presses it is asked to
 * sign in. */
/** `author`: who wrote the thing; nobody likes their own (the server refuses), but may take back
 * a like made before that rule. */
export function LikeButton({ kind, id, liked, count, author, small = false }: { kind: LikeKind; id: number; liked: boolean; count: number; author?: number; small?: boolean }) {
  const { t } = useTranslation();
  const { user, busy, run } = useMemberAction();
  const [state, setState] = useState({ liked: user ? liked : false, count });
  const press = () => run(() => setLike(kind, id, !state.liked).then(setState));
  return (
    <button
      type="button"
      className={small ? "link-button" : "button ghost"}
      aria-pressed={state.liked}
      aria-label={small ? t("web.social.likeCount", { count: state.count }) : undefined}
      disabled={busy || (user !== null && user.id === author && !state.liked)}
      onClick={press}
    >
      {state.liked ? "♥" : "♡"} {!small && t("web.social.like")} <span data-testid="like-count">{formatNumber(state.count)}</span>
    </button>
  );
}
