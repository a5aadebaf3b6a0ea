import { useAtomValue, useSetAtom } from "jotai";
import { useState } from "react";

import { loginOpenAtom } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";
import { setFavorite } from "./api/favorite";

/** Keep a feed item for later (the Favorites page); a visitor is asked to sign in. */
export function FavoriteButton({ feedId, favorited }: { feedId: number; favorited: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginOpenAtom);
  const [kept, setKept] = useState(user ? favorited : false);
  const [busy, setBusy] = useState(false);
  const press = () => {
    if (!user) {
      openLogin(true);
      return;
    }
    setBusy(true);
    setFavorite(feedId, !kept).then(
      (answer) => {
        setKept(answer.favorited);
        setBusy(false);
        toast("success", t(answer.favorited ? "web.social.saved" : "web.social.unsaved"));
      },
      () => setBusy(false),
    );
  };
  return (
    <button type="button" className="button ghost" aria-pressed={kept} disabled={busy} onClick={press}>
      {kept ? "★" : "☆"} {t(kept ? "web.social.savedButton" : "web.social.save")}
    </button>
  );
}
