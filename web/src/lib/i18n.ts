// i18next with the `common` namespace from `locales/` (the server reads the same files). Each
// language is its own chunk, fetched on demand and retried (5 times, from 350 ms, doubling).
import i18next, { type BackendModule, type ReadCallback } from "i18next";
import { useMemo, useSyncExternalStore } from "react";

import { C, type Locale, type Message, pickLocale, usesChineseType } from "./core";
import { getCookie, setCookie } from "./cookies";

const loaders = import.meta.glob<{ default: Record<string, unknown> }>("@locales/*/common.json");

export async function withRetries<T>(load: () => Promise<T>, tries = 5, firstDelayMs = 350): Promise<T> {
  let delay = firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await load();
    } catch (e) {
      if (attempt >= tries) throw e;
      await new Promise((r) => setTimeout(r, delay));
      delay *= 2;
    }
  }
}

const backend: BackendModule = {
  type: "backend",
  init() {},
  read(language: string, _ns: string, callback: ReadCallback) {
    const load = Object.entries(loaders).find(([path]) => path.endsWith(`/${language}/common.json`))?.[1];
    if (!load) {
      callback(new Error(`no messages for ${language}`), false);
      return;
    }
    withRetries(load).then(
      (m) => callback(null, m.default as Record<string, string>),
      (e: Error) => callback(e, false),
    );
  },
};

/** The locale of this visit, by client-core's rule (the server's page head uses the same). */
/** Each language in its own words (the language menu, "Languages I read"). */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文", vi: "Tiếng Việt", ko: "한국어" };

export function detectLocale(pathname: string): Locale {
  return pickLocale({ path: pathname, cookie: getCookie(C.localeCookie), device: navigator.language });
}

/** A rule's message in the reader's language (its English text where a locale lacks it). */
export function say(message: Message): string {
  return i18next.t(message.key, { defaultValue: message.message });
}

export function applyLocale(locale: Locale): void {
  setCookie(C.localeCookie, locale);
  document.documentElement.lang = locale;
  document.documentElement.dataset.cjk = String(usesChineseType(locale));
}

export async function initI18n(locale: Locale): Promise<void> {
  applyLocale(locale);
  await i18next
    .use(backend)
    .init({
      lng: locale,
      fallbackLng: C.defaultLocale,
      supportedLngs: C.locales,
      ns: ["common"],
      defaultNS: "common",
      interpolation: { escapeValue: false },
      returnNull: false,
    });
}

export { i18next };

function onLanguageChange(notify: () => void): () => void {
  i18next.on("languageChanged", notify);
  return () => i18next.off("languageChanged", notify);
}

/** `t` in the current language; the component renders again when the language changes. */
export function useTranslation() {
  const language = useSyncExternalStore(onLanguageChange, () => i18next.language);
  return useMemo(() => ({ t: i18next.getFixedT(language), i18n: i18next }), [language]);
}

/** One formatter per language and style: building one is far dearer than using it, and lists
 *  call this per row. `style` names `options` (one name, one set of options). */
const numberFormats = new Map<string, Intl.NumberFormat>();

export function numberFormat(locale: string, style = "plain", options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${style}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A number as the reader's language writes it (`Intl`): 12,345 · 12.345 · 12 345. */
export function formatNumber(n: number): string {
  return numberFormat(i18next.language).format(n);
}
