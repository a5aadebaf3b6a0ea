import { useAtomValue, useSetAtom } from "jotai";
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "../lib/i18n";
import { Link, NavLink, Outlet, useLocation, useNavigate, useNavigationPending } from "../lib/router";

import { ThemeToggle } from "../components/ThemeToggle";
import { downloadOpenAtom, feedbackOpenAtom, inviteOpenAtom, loginOpenAtom } from "../lib/dialogs";
import { C, type Locale, localePath, splitLocalePath } from "../lib/core";
import { onLogout } from "../lib/api";
import { LANGUAGE_NAMES, applyLocale } from "../lib/i18n";
import { useLocalePath } from "../lib/paths";
import { userAtom } from "../lib/session";
import { telegramInApp, unsupportedClient } from "../lib/device";
import { useTelegramStart } from "../features/bots";
import { UnreadBadge } from "../features/messages/UnreadBadge";
import { LiveStream } from "../features/stream";
import { AppStatus } from "../features/offline";
import { useDefaultTitle } from "../lib/title";
import { useMediaQuery } from "../lib/media";
import { DebugBanner } from "./DebugBanner";
import { Footer } from "./Footer";
import { Toaster } from "./Toaster";

const LoginModal = lazy(() => import("../features/auth/LoginModal"));
const InvitationModal = lazy(() => import("../features/auth/InvitationModal"));
const FeedbackModal = lazy(() => import("../features/feedback/FeedbackModal"));
const DownloadModal = lazy(() => import("../features/download/DownloadModal"));
const SidePanels = lazy(() => import("../features/panels/SidePanels"));

/** Wide enough for the side column beside the page (the same width as `.columns` in the CSS). */
const WIDE_SCREEN = "(min-width: 1200px)";


export function Shell() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useAtomValue(userAtom);
  const setLoginOpen = useSetAtom(loginOpenAtom);
  const loginOpen = useAtomValue(loginOpenAtom);
  const inviteOpen = useAtomValue(inviteOpenAtom);
  const feedbackOpen = useAtomValue(feedbackOpenAtom);
  const setFeedbackOpen = useSetAtom(feedbackOpenAtom);
  const downloadOpen = useAtomValue(downloadOpenAtom);
  const wide = useMediaQuery(WIDE_SCREEN);
  const to = useLocalePath();
  useDefaultTitle(location.pathname);

  useEffect(() => onLogout(() => void navigate(localePath(i18n.language, "/"))), [navigate, i18n.language]);
  // Sign-in cannot finish inside some in-app browsers: those readers get the app instead,
  // but in Telegram's own browser Sign in with Telegram works when the site has the bot (asked
  // once the login opens there, then known for the session).
  const inTelegram = telegramInApp();
  const telegramSignIn = useTelegramStart(loginOpen && inTelegram);
  const telegramWorks = inTelegram && (telegramSignIn.isPending || telegramSignIn.data);
  useEffect(() => {
    if (loginOpen && unsupportedClient() && !telegramWorks) {
      setLoginOpen(false);
      void navigate(localePath(i18n.language, "/download"));
    }
  }, [loginOpen, setLoginOpen, navigate, i18n.language, telegramWorks]);
  useEffect(() => {
    const locale = splitLocalePath(location.pathname).locale ?? null;
    if (locale && locale !== i18n.language) {
      applyLocale(locale);
      void i18n.changeLanguage(locale);
    }
  }, [location.pathname, i18n]);

  const switchLocale = (locale: Locale) => {
    const rest = splitLocalePath(location.pathname).path;
    applyLocale(locale);
    void i18n.changeLanguage(locale);
    void navigate(localePath(locale, rest) + location.search);
  };

  return (
    <div className="app">
      <LoadingBar />
      <DebugBanner />
      <AppStatus />
      <header className="topbar">
        <Link to={to("/")} className="brand">
          <span className="brand-mark" aria-hidden="true">B</span>
          <span className="brand-name">Blockbrief</span>
        </Link>
        <nav className="topnav" aria-label={t("web.nav.main")}>
          <NavLink to={to("/")} end>{t("web.nav.home")}</NavLink>
          <NavLink to={to("/explore")}>{t("web.nav.explore")}</NavLink>
          <NavLink to={to("/markets")}>{t("web.nav.markets")}</NavLink>
          <NavLink to={to("/questions")}>{t("web.nav.questions")}</NavLink>
          <NavLink to={to("/write")}>{t("web.nav.write")}</NavLink>
          <NavLink to={to("/search")}>{t("web.nav.search")}</NavLink>
        </nav>
        <div className="topbar-actions">
          <select
            className="locale-select"
            aria-label={t("web.account.language")}
            value={i18n.language}
            onChange={(e) => switchLocale(e.target.value as Locale)}
          >
            {C.locales.map((l) => (
              <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>
            ))}
          </select>
          <Link to={to("/search")} className="icon-button header-search" aria-label={t("web.nav.search")} title={t("web.nav.search")}>
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <circle cx="11" cy="11" r="7" />
              <path d="M20 20l-4-4" />
            </svg>
          </Link>
          <ThemeToggle />
          {/* In the header, not the footer: below an endless feed the footer moves away as
              each page arrives, so a link there cannot be relied on. */}
          <button
            type="button"
            className="icon-button"
            aria-label={t("web.feedback.open")}
            title={t("web.feedback.open")}
            onClick={() => setFeedbackOpen(true)}
          >
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
              <path d="M4 5h16v11H9l-5 4z" />
            </svg>
          </button>
          {user && <UnreadBadge />}
          {user ? (
            <Link to={to("/account")} className="avatar" aria-label={t("web.nav.me")}>
              {user.nickname.slice(0, 1).toUpperCase()}
            </Link>
          ) : (
            <button type="button" className="button small" onClick={() => setLoginOpen(true)}>
              {t("web.nav.login")}
            </button>
          )}
        </div>
      </header>
      <div className="columns">
        <main className="content">
          <LiveStream />
          <Outlet />
        </main>
        {wide && (
          <Suspense fallback={null}>
            <SidePanels />
          </Suspense>
        )}
      </div>
      <Footer />
      {/* Every main section one tap away on a phone; search sits in the header there. */}
      <nav className="bottomnav" aria-label={t("web.nav.main")}>
        <NavLink to={to("/")} end>{t("web.nav.home")}</NavLink>
        <NavLink to={to("/explore")}>{t("web.nav.explore")}</NavLink>
        <NavLink to={to("/questions")}>{t("web.nav.questions")}</NavLink>
        <NavLink to={to("/write")}>{t("web.nav.write")}</NavLink>
        <NavLink to={to("/markets")}>{t("web.nav.markets")}</NavLink>
        <NavLink to={to("/account")}>{t("web.nav.me")}</NavLink>
      </nav>
      <Toaster />
      <Suspense fallback={null}>
        {loginOpen && <LoginModal />}
        {inviteOpen && <InvitationModal />}
        {feedbackOpen && <FeedbackModal />}
        {downloadOpen && <DownloadModal />}
      </Suspense>
    </div>
  );
}

/** Green, 1 px, while a route loads. */
function LoadingBar() {
  const pending = useNavigationPending();
  return <div className={pending ? "loading-bar active" : "loading-bar"} aria-hidden="true" />;
}
