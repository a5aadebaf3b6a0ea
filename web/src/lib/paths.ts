import { useTranslation } from "./i18n";

import { localePath } from "./core";

export function useLocalePath(): (path: string) => string {
  const { i18n } = useTranslation();
  return (path) => localePath(i18n.language, path);
}
