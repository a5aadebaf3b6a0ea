import { useSetAtom } from "jotai";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n";

import { inviteOpenAtom } from "../../lib/dialogs";
import { Dialog } from "../../components/ui";
import { bindInvitation } from "./api/bind-invitation";

/** After a first sign-in: the code of whoever brought the user (pre-filled from `?ic=`). */
export default function InvitationModal() {
  const { t } = useTranslation();
  const setOpen = useSetAtom(inviteOpenAtom);
  const [code, setCode] = useState(() => sessionStorage.getItem("ic") ?? "");
  const close = () => setOpen(false);
  return (
    <Dialog open title={t("web.invite.title")} onClose={close}>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          // A binding failure closes the dialog without a word: the code is optional.
          void bindInvitation(code.trim()).finally(close);
        }}
      >
        <label>
          <span>{t("web.invite.code")}</span>
          <input value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" />
        </label>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={close}>{t("web.invite.skip")}</button>
          <button type="submit" className="button" disabled={code.trim() === ""}>{t("web.invite.confirm")}</button>
        </div>
      </form>
    </Dialog>
  );
}
