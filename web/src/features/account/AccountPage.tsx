import { useAtomValue } from "jotai";
import { useEffect } from "react";
import { formatNumber, useTranslation } from "../../lib/i18n";

import { useLocalePath } from "../../lib/paths";
import { Link, useLocation } from "../../lib/router";
import { Spinner } from "../../components/ui";
import { logout } from "../../lib/api";
import { useSignedInPage } from "../../lib/dialogs";
import { setTheme, themeAtom } from "../../lib/theme";
import { toast } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/title";
import { useBindMethod } from "./api/bind-method";
import { useAccounts, useTwitterStatus } from "./api/get-accounts";
import { useBalance } from "./api/get-balance";
import { useLedger } from "./api/get-ledger";
import { logoutEverywhere } from "./api/logout-everywhere";
import { updateSettings } from "./api/update-settings";
import { ReadLangs } from "./ReadLangs";
import { TaskPanel } from "./TaskPanel";
import { ExchangeList } from "../markets";
import { useOffers } from "../auth";
import { TelegramConnect } from "../bots";
import { BlockedPeople } from "../social";
import { ProfileEditor } from "../profiles";

export function AccountPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("web.account.title"));
  // On a phone the "Me" tab is the sign-in page for visitors.
  const user = useSignedInPage();
  const theme = useAtomValue(themeAtom);
  const balance = useBalance();
  const ledger = useLedger();
  const accounts = useAccounts();
  const twitter = useTwitterStatus();
  const bind = useBindMethod();
  const offers = useOffers();
  const to = useLocalePath();
  const { hash } = useLocation();
  // A task that asks to connect a sign-in method lands here (`#sign-in-methods`).
  useEffect(() => {
    if (!hash || !user) return;
    const target = document.getElementById(hash.slice(1));
    target?.scrollIntoView({ block: "start" });
    target?.focus({ preventScroll: true });
  }, [hash, user, accounts.isSuccess]);
  if (!user) return <TaskPanel />;
  return (
    <section className="page account">
      <div className="card profile">
        <span className="avatar large" aria-hidden="true">{user.nickname.slice(0, 1).toUpperCase()}</span>
        <div>
          <h1>{user.nickname}</h1>
          <p>{t("web.account.invitation")}: <code>{user.invitation_code}</code></p>
        </div>
        <div className="points">
          <span>{t("web.account.points")}</span>
          <strong data-testid="balance">{balance.data ? formatNumber(balance.data.balance) : "…"}</strong>
          <Link to={to("/leaderboard")}>{t("web.leaderboard.open")}</Link>
        </div>
      </div>
      <nav className="card account-links" aria-label={t("web.library.title")}>
        <Link to={to("/messages")}>{t("web.messages.title")}</Link>
        <Link to={to("/alerts")}>{t("web.alerts.title")}</Link>
        <Link to={to("/favorites")}>{t("web.library.favorites")}</Link>
        <Link to={to("/history")}>{t("web.library.history")}</Link>
        <Link to={to("/questions")}>{t("web.nav.questions")}</Link>
      </nav>
      <TaskPanel />
      <ExchangeList />
      <h2>{t("web.account.ledger")}</h2>
      {ledger.isPending ? (
        <Spinner />
      ) : (
        <ul className="ledger">
          {ledger.data?.list.length === 0 && <li className="empty">{t("web.account.noLedger")}</li>}
          {ledger.data?.list.map((l) => (
            <li key={l.id}>
              <span>{t(`tasks.${l.reason}`, { defaultValue: l.reason })}</span>
              <time>{new Date(l.created_at * 1000).toLocaleDateString(i18n.language)}</time>
              <strong>+{formatNumber(l.amount)}</strong>
            </li>
          ))}
        </ul>
      )}
      <h2 id="sign-in-methods" tabIndex={-1}>{t("web.account.accounts")}</h2>
      <ul className="ledger">
        {accounts.data?.list.map((a) => (
          <li key={a.id}>
            <span>{t(`web.account.kinds.${a.type}`, { defaultValue: a.type })}</span>
            <span>{a.name}</span>
          </li>
        ))}
        {/* Only the methods this site offers: a button that answers "not available" leads nowhere. */}
        {offers("twitter") && (
          <li data-testid="twitter-status" data-status={twitter ?? ""}>
            <span>{t("web.login.twitter")}</span>
            <span>{twitter && t(`web.account.twitter.${twitter}`)}</span>
            {twitter === "UNBOUND" && (
              <button type="button" className="button small" onClick={() => bind("twitter")}>{t("web.account.twitter.bind")}</button>
            )}
          </li>
        )}
        {accounts.isSuccess && !accounts.data.list.some((a) => a.type === "wallet") && (
          <li>
            <span>{t("web.account.kinds.wallet")}</span>
            <button type="button" className="button small" onClick={() => bind("wallet")}>{t("web.account.connectWallet")}</button>
          </li>
        )}
      </ul>
      <ProfileEditor />
      {offers("telegram") && <TelegramConnect />}
      <BlockedPeople />
      <h2>{t("web.account.settings")}</h2>
      <div className="card settings">
        <div className="setting">
          <span id="theme-setting">{t("web.account.theme")}</span>
          {/* The choices in words, the chosen one pressed: not a toggle whose label must say both. */}
          <div className="segmented" role="group" aria-labelledby="theme-setting">
            {(["light", "dark"] as const).map((choice) => (
              <button key={choice} type="button" aria-pressed={theme === choice} onClick={() => setTheme(choice)}>
                {t(`web.account.themes.${choice}`)}
              </button>
            ))}
          </div>
        </div>
        <label className="setting">
          <span>{t("web.account.autoTranslate")}</span>
          <input
            type="checkbox"
            checked={user.auto_translate}
            onChange={(e) =>
              void updateSettings({ auto_translate: e.target.checked })
            }
          />
        </label>
        <ReadLangs langs={user.read_langs} />
        <button type="button" className="button ghost" onClick={() => logout()}>{t("web.account.logout")}</button>
        <button
          type="button"
          className="button ghost"
          onClick={() =>
            void logoutEverywhere().then(
              (n) => toast("success", t("web.account.loggedOutEverywhere", { count: n })),
              () => {},
            )
          }
        >
          {t("web.account.logoutEverywhere")}
        </button>
      </div>
    </section>
  );
}
