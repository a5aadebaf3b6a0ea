import { useState } from "react";

import { useMemberAction } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { setFavorite } from "./api/favorite";

/** Keep a feed item for later (the Favorites page); a visitor is asked to sign in. */
export function FavoriteButton({ feedId, favorited }: { feedId: number; favorited: boolean }) {
  const { t } = useTranslation();
  const { user, busy, run } = useMemberAction();
  const [kept, setKept] = useState(user ? favorited : false);
  const press = () =>
    run(() =>
      setFavorite(feedId, !kept).then((answer) => {
        setKept(answer.favorited);
        toast("success", t(answer.favorited ? "web.social.saved" : "web.social.unsaved"));
      }),
    );
  return (
    <button type="button" className="button ghost" aria-pressed={kept} disabled={busy} onClick={press}>
      {kept ? "★" : "☆"} {t(kept ? "web.social.savedButton" : "web.social.save")}
    </button>
  );
}
