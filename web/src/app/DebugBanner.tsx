import { useState } from "react";
import { useTranslation } from "../lib/i18n";
import { ThemeToggle } from "../components/ThemeToggle";
import { siteMeta } from "../lib/device";

/** "Test build": only on a site configured as one (`TEST_BUILD`), until closed for the visit. */
export function DebugBanner() {
  const { t, i18n } = useTranslation();
  const [closed, setClosed] = useState(() => sessionStorage.getItem("debug-banner") === "closed");
  if (siteMeta("test-build") !== "true" || closed) return null;
  return (
    <div className="debug-banner">
      <span>{t("web.debug.banner", { host: location.host, locale: i18n.language })}</span>
      <ThemeToggle />
      <button
        type="button"
        className="icon-button"
        aria-label={t("web.common.close")}
        onClick={() => {
          sessionStorage.setItem("debug-banner", "closed");
          setClosed(true);
        }}
      >
        ×
      </button>
    </div>
  );
}
