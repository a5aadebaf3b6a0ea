import { useTranslation } from "./i18n";

import { C } from "./core";

/** A path in the reader's locale: `/explore` → `/zh-Hant/explore` (English keeps no prefix). */
export function localePath(locale: string, path: string): string {
  return locale === C.defaultLocale ? path : `/${locale}${path === "/" ? "" : path}`;
}

export function useLocalePath(): (path: string) => string {
  const { i18n } = useTranslation();
  return (path) => localePath(i18n.language, path);
}
