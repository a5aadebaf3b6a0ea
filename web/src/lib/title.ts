// The tab's title follows the page and the language, as the server writes it into a page's head
// (`content/head.rs`): "{page} - Blockbrief", or "Blockbrief - {slogan}" for pages without one.
import { useEffect, useLayoutEffect } from "react";

import { useTranslation } from "./i18n";

/** The site's own title, set on every navigation before any page names itself. */
export function useDefaultTitle(pathname: string): void {
  const { t, i18n } = useTranslation();
  useLayoutEffect(() => {
    document.title = `${t("head.name")} - ${t("head.slogan")}`;
  }, [pathname, t, i18n.language]);
}

/** A page's own title (once it knows it). Passive effects run after the shell's layout effect. */
export function useDocumentTitle(title: string | undefined): void {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    if (title) document.title = `${title} - ${t("head.name")}`;
  }, [title, t, i18n.language]);
}
