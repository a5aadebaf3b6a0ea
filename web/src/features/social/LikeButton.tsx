import { useState } from "react";

import { useMemberAction } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { type LikeKind, setLike } from "./api/like";

/** Like a feed item or a comment: the count for everyone; a visitor who presses it is asked to
 * sign in. */
export function LikeButton({ kind, id, liked, count, small = false }: { kind: LikeKind; id: number; liked: boolean; count: number; small?: boolean }) {
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
      disabled={busy}
      onClick={press}
    >
      {state.liked ? "♥" : "♡"} {!small && t("web.social.like")} <span data-testid="like-count">{formatNumber(state.count)}</span>
    </button>
  );
}
