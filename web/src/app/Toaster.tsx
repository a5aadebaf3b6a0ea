import { useAtomValue } from "jotai";
import { createPortal } from "react-dom";
import { openDialogsAtom } from "../lib/dialogs";
import { toastsAtom } from "../lib/toast";

/** The toasts of `lib/toast`, announced politely to screen readers. */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const icon = { success: "✓", error: "!", info: "i" } as const;
  const list = (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.kind}`}>
          <span className="toast-icon" aria-hidden="true">{icon[t.kind]}</span>
          {t.text}
        </div>
      ))}
    </div>
  );
  // An open modal dialog is drawn above the whole page (the top layer), so while one is open the
  // toasts are drawn inside the topmost one: a wrong code or a refused image is seen on a phone.
  const host = useAtomValue(openDialogsAtom).at(-1);
  return host ? createPortal(list, host) : list;
}
