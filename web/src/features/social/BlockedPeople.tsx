import { useTranslation } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { unblock, useBlocked } from "./api/blocks";

/** The people the reader blocked, each with a way back. Nothing when there are none. */
export function BlockedPeople() {
  const { t } = useTranslation();
  const blocked = useBlocked();
  const list = blocked.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <>
      <h2>{t("web.social.blockedTitle")}</h2>
      <ul className="ledger">
        {list.map(({ user }) => (
          <li key={user.id}>
            <span>{user.nickname}</span>
            <button
              type="button"
              className="button small ghost"
              onClick={() => void unblock(user.id).then(() => toast("success", t("web.social.unblocked", { name: user.nickname })))}
            >
              {t("web.social.unblock")}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
