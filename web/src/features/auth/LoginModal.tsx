import { useSetAtom } from "jotai";
import { useCallback } from "react";
import { useTranslation } from "../../lib/i18n";
import { inviteOpenAtom, loginOpenAtom } from "../../lib/dialogs";
import { Dialog } from "../../components/ui";
import { type SessionUser, signIn } from "../../lib/session";
import { toast } from "../../lib/toast";
import { EmailSignIn } from "./EmailSignIn";
import { OtherSignIns } from "./OtherSignIns";

/** Sign-in: email with a one-time code; below it the other methods this site offers (the server
 * says which, in the captcha answer the dialog asks for anyway), by their device rules. */
export default function LoginModal() {
  const { t } = useTranslation();
  const setOpen = useSetAtom(loginOpenAtom);
  const openInvite = useSetAtom(inviteOpenAtom);
  const finish = useCallback(
    (user: SessionUser) => {
      signIn(user);
      toast("success", t("web.login.success"));
      setOpen(false);
      if (user.prompt_for_code) openInvite(true);
    },
    [t, setOpen, openInvite],
  );
  return (
    <Dialog open title={t("web.login.title")} onClose={() => setOpen(false)}>
      <div role="tablist" aria-label={t("web.login.methods")} className="login-tabs">
        <button type="button" role="tab" aria-selected="true" className="tab">{t("web.login.emailTab")}</button>
        {/* The phone tab exists but is hidden until SMS sign-in opens to everyone. */}
        <button type="button" role="tab" aria-selected="false" className="tab" hidden>{t("web.login.phoneTab")}</button>
      </div>
      <EmailSignIn onSignedIn={finish} />
      <OtherSignIns onSignedIn={finish} />
    </Dialog>
  );
}
