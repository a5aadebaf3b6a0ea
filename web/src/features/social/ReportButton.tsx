import { useState } from "react";

import { toast } from "../../lib/toast";
import { useMemberAction } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { report, type ReportKind } from "./api/report";

const REASONS = ["spam", "abuse", "misinformation", "other"] as const;

/** "Report" and, once pressed, the reasons to choose from; a visitor is asked to sign in. */
export function ReportButton({ kind, id }: { kind: ReportKind; id: number }) {
  const { t } = useTranslation();
  const { busy, run, signedIn } = useMemberAction();
  const [open, setOpen] = useState(false);
  const send = (reason: string) =>
    run(() =>
      report(kind, id, reason).then(
        () => {
          setOpen(false);
          toast("success", t("web.comments.reported"));
        },
        () => setOpen(false),
      ),
    );
  return (
    <>
      <button type="button" className="link-button" aria-expanded={open} onClick={() => signedIn() && setOpen(!open)}>
        {t("web.comments.report")}
      </button>
      {open && (
        <div className="report-reasons" role="group" aria-label={t("web.comments.reportWhy")}>
          {REASONS.map((reason) => (
            <button key={reason} type="button" className="button ghost small" disabled={busy} onClick={() => send(reason)}>
              {t(`web.comments.reasons.${reason}`)}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
