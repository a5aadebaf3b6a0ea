import { atom } from "jotai";

import { initialTheme, type Theme } from "./core";
import { store } from "./store";

/** First load: client-core's precedence (query, session, saved choice, user agent). */
function firstTheme(): Theme {
  return initialTheme({
    query: new URLSearchParams(location.search).get("theme"),
    session: sessionStorage.getItem("theme"),
    local: localStorage.getItem("theme"),
    userAgent: navigator.userAgent,
  });
}

export const themeAtom = atom<Theme>(firstTheme());

/** The theme on the page, and on the browser's bars around it (an installed app's title bar). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  const page = getComputedStyle(document.documentElement).getPropertyValue("--bg").trim();
  if (page) document.querySelector('meta[name="theme-color"]')?.setAttribute("content", page);
}

/** The toggle: stores the choice. */
export function setTheme(theme: Theme): void {
  localStorage.setItem("theme", theme);
  sessionStorage.setItem("theme", theme);
  store.set(themeAtom, theme);
  applyTheme(theme);
}
