import { useEffect, useState } from "react";

import { confirm, Spinner } from "../../components/ui";
import type { AlertView } from "../../lib/api-types";
import type { AlertRule } from "../../lib/core";
import { useSignedInPage } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { useSearchParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { toast } from "../../lib/toast";
import { addAlert, deleteAlert, updateAlert, useAlerts } from "./api/alerts";
import { allowNotifications, type PushState, pushState, sendTest, stopNotifications } from "./api/push";
import { AlertEditor } from "./AlertEditor";
import { priceSummary } from "./PriceFields";

/** What "Alert me" on a page starts a new alert from: `?token=BTC`, `?price=BTC`, `?tag=defi`,
 * `?channel=markets`, `?kol=7`, `?keyword=…`. */
function seedFrom(params: URLSearchParams): Partial<AlertRule> | null {
  const [token, price, tag, channel, kol, keyword] = ["token", "price", "tag", "channel", "kol", "keyword"].map((k) => params.get(k));
  if (token) return { tokens: [token] };
  if (price) return { price: { symbol: price, above: null, below: null, move_pct: null, window_minutes: null } };
  if (tag) return { tags: [tag] };
  if (channel) return { channels: [channel] };
  if (kol && /^\d+$/.test(kol)) return { kols: [Number(kol)] };
  if (keyword) return { keywords: [keyword] };
  return null;
}

/** `/alerts`: the reader's alerts, an editor for a new or changed one, and this browser's
 * notifications. */
export function AlertsPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("web.alerts.title"));
  const user = useSignedInPage();
  const alerts = useAlerts();
  const [params] = useSearchParams();
  const seed = seedFrom(params);
  const [editing, setEditing] = useState<AlertView | "new" | null>(seed ? "new" : null);
  if (!user) return <p className="empty">{t("web.alerts.signIn")}</p>;
  const list = alerts.data ?? [];
  return (
    <section className="page alerts">
      <div className="page-head">
        <h1>{t("web.alerts.title")}</h1>
        {editing === null && (
          <button type="button" className="button" onClick={() => setEditing("new")}>
            {t("web.alerts.new")}
          </button>
        )}
      </div>
      <Notifications />
      {editing !== null && (
        <AlertEditor
          key={editing === "new" ? "new" : editing.id}
          editing={editing === "new" ? undefined : editing}
          seed={seed ?? undefined}
          onSaved={(input) => (editing === "new" ? addAlert(input) : updateAlert(editing.id, input)).then(() => setEditing(null))}
          onCancel={() => setEditing(null)}
        />
      )}
      {alerts.isPending ? (
        <Spinner />
      ) : list.length === 0 ? (
        <p className="empty">{t("web.alerts.empty")}</p>
      ) : (
        <ul className="alert-list">
          {list.map((a) => (
            <li key={a.id} className="card" data-testid="alert">
              <strong>{a.name}</strong>
              <span className="muted">
                {[...a.rule.keywords, ...a.rule.tokens.map((s) => `$${s}`), ...a.rule.tags.map((s) => `#${s}`)].join(" · ")}
                {a.rule.only_important && ` · ${t("web.alerts.onlyImportant")}`}
                {a.rule.price && <span data-testid="alert-price">{priceSummary(a.rule.price, i18n.language)}</span>}
              </span>
              <span className="muted">
                {a.deliver.map((d) => t(`web.alerts.deliver.${d}`)).join(", ")} · {t(`web.alerts.mode.${a.mode}`)}
              </span>
              <div className="comment-actions">
                <button type="button" className="link-button" onClick={() => setEditing(a)}>
                  {t("web.alerts.edit")}
                </button>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => void confirm(t("web.alerts.confirmDelete", { name: a.name })).then(() => deleteAlert(a.id), () => {})}
                >
                  {t("web.alerts.delete")}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** This browser's notifications: asked for only when the reader presses "Allow", with how to
 * unblock them when the browser was told no. */
function Notifications() {
  const { t } = useTranslation();
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void pushState().then(setState, () => setState("unsupported"));
  }, []);
  const run = (action: () => Promise<PushState>) => {
    setBusy(true);
    action().then(
      (next) => {
        setState(next);
        setBusy(false);
      },
      () => setBusy(false),
    );
  };
  if (state === null) return null;
  return (
    <div className="card notifications" role="region" aria-label={t("web.alerts.notifications")}>
      {state === "unsupported" && <p>{t("web.alerts.unsupported")}</p>}
      {state === "denied" && <p role="alert">{t("web.alerts.denied")}</p>}
      {state === "off" && (
        <>
          <p>{t("web.alerts.offText")}</p>
          <button type="button" className="button" disabled={busy} onClick={() => run(allowNotifications)}>
            {t("web.alerts.allow")}
          </button>
        </>
      )}
      {state === "on" && (
        <>
          <p>{t("web.alerts.onText")}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button ghost"
              disabled={busy}
              onClick={() => void sendTest().then((r) => toast("success", t("web.alerts.tested", { count: r.sent })))}
            >
              {t("web.alerts.test")}
            </button>
            <button type="button" className="button ghost" disabled={busy} onClick={() => run(stopNotifications)}>
              {t("web.alerts.stop")}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
