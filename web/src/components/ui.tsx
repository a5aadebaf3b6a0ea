// Small shared pieces: the dialog (focus kept inside, Escape closes), the spinner, confirm/alert.
import { type ReactNode, useEffect, useId, useRef } from "react";
import { createRoot } from "react-dom/client";
import { useTranslation } from "../lib/i18n";

import { openDialogsAtom } from "../lib/dialogs";
import { i18next } from "../lib/i18n";
import { store } from "../lib/store";

export function Dialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  sheet?: boolean;
  /** Drawn above the title (a sheet's drag handle). */
  top?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useTranslation();
  // Focus goes back to whatever opened the dialog (most dialogs close by unmounting, which the
  // browser's own restoration does not see). Taken before `showModal` moves focus inside.
  useEffect(() => {
    if (!props.open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [props.open]);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // A modal <dialog> makes the rest of the page inert (focus stays inside) and closes on Escape.
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
    if (!props.open) return;
    store.set(openDialogsAtom, (list) => [...list, dialog]);
    return () => store.set(openDialogsAtom, (list) => list.filter((d) => d !== dialog));
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className={props.sheet ? "dialog sheet" : "dialog"}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) props.onClose();
      }}
    >
      {props.open && (
        <div className="dialog-body">
          {props.top}
          <header className="dialog-head">
            <h2 id={titleId}>{props.title}</h2>
            <button type="button" className="icon-button" aria-label={t("web.common.close")} onClick={props.onClose}>
              ×
            </button>
          </header>
          {props.children}
        </div>
      )}
    </dialog>
  );
}

export function Spinner({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span>{text ?? t("web.common.loading")}</span>
    </div>
  );
}

/** A confirm (or, with `alert`, an OK-only) dialog as a promise: resolves on OK, rejects on cancel. */
export function confirm(message: string, alert = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    const done = (ok: boolean) => {
      root.unmount();
      host.remove();
      if (ok) resolve();
      else reject(new Error("cancelled"));
    };
    root.render(
      <Dialog open title={message} onClose={() => done(false)}>
        <div className="dialog-actions">
          {!alert && (
            <button type="button" className="button ghost" onClick={() => done(false)}>
              {i18next.t("web.common.cancel")}
            </button>
          )}
          <button type="button" className="button" autoFocus onClick={() => done(true)}>
            {i18next.t("web.common.ok")}
          </button>
        </div>
      </Dialog>,
    );
  });
}
