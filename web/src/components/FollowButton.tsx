import { useAtomValue, useSetAtom } from "jotai";

import { loginOpenAtom } from "../lib/dialogs";
import { useTranslation } from "../lib/i18n";
import { userAtom } from "../lib/session";

/** Follow or unfollow; a visitor is asked to sign in first. */
export function FollowButton({ following, onToggle, busy = false }: { following: boolean; onToggle: (follow: boolean) => void; busy?: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  return (
    <button
      type="button"
      className={following ? "button small ghost" : "button small"}
      aria-pressed={following}
      disabled={busy}
      onClick={() => (user ? onToggle(!following) : openLogin(true))}
    >
      {following ? t("web.tag.following") : t("web.tag.follow")}
    </button>
  );
}
