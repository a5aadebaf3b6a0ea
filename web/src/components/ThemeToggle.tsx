import { useAtomValue } from "jotai";

import { useTranslation } from "../lib/i18n";
import { setTheme, themeAtom } from "../lib/theme";

export function ThemeToggle() {
  const theme = useAtomValue(themeAtom);
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={t("web.theme.toggle")}
      aria-pressed={theme === "dark"}
      onClick={() => setTheme(theme === "dark" ? "light" : "dark")}
    >
      {theme === "dark" ? "☀" : "☾"}
    </button>
  );
}
