import { useAtomValue, useSetAtom } from "jotai";
import { useState } from "react";

import { loginOpenAtom } from "../../lib/dialogs";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { userAtom } from "../../lib/session";
import { type LikeKind, setLike } from "./api/like";

/** Like a feed item or a comment: the count for everyone; a visitor who presses it is asked to
 * sign in. */
export function LikeButton({ kind, id, liked, count, small = false }: { kind: LikeKind; id: number; liked: boolean; count: number; small?: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  const [state, setState] = useState({ liked: user ? liked : false, count });
  const [busy, setBusy] = useState(false);
  const press = () => {
    if (!user) {
      openLogin(true);
      return;
    }
    setBusy(true);
    // Rate-limit and other errors are toasted by the API client; the button keeps its state.
    setLike(kind, id, !state.liked).then(
      (next) => {
        setState(next);
        setBusy(false);
      },
      () => setBusy(false),
    );
  };
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
