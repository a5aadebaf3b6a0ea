import { useAtomValue } from "jotai";

import { Dialog } from "../../components/ui";
import { localePath } from "../../lib/core";
import { useTranslation } from "../../lib/i18n";
import { userAtom } from "../../lib/session";
import { toast } from "../../lib/toast";

/** The reader's invitation code and link (`?ic=` fills the code in for whoever opens it). */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const user = useAtomValue(userAtom);
  if (!user) return null;
  const link = `${location.origin}${localePath(i18n.language, "/")}?ic=${encodeURIComponent(user.invitation_code)}`;
  const copy = (text: string) =>
    void navigator.clipboard.writeText(text).then(
      () => toast("success", t("web.tasks.copied")),
      () => toast("error", text),
    );
  return (
    <Dialog open title={t("web.tasks.inviteTitle")} onClose={onClose}>
      <div className="invite">
        <span>{t("web.tasks.inviteCode")}</span>
        <div className="copy-row">
          <code data-testid="invite-code">{user.invitation_code}</code>
          <button type="button" className="button small" onClick={() => copy(user.invitation_code)}>{t("web.tasks.copy")}</button>
        </div>
        <span>{t("web.tasks.inviteLink")}</span>
        <div className="copy-row">
          <input readOnly value={link} aria-label={t("web.tasks.inviteLink")} onFocus={(e) => e.target.select()} />
          <button type="button" className="button small" onClick={() => copy(link)}>{t("web.tasks.copy")}</button>
        </div>
      </div>
    </Dialog>
  );
}
