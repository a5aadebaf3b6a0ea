import { useSetAtom } from "jotai";
import { useTranslation } from "../lib/i18n";
import { downloadOpenAtom } from "../lib/dialogs";
import { type Locale, usesChineseType } from "../lib/core";
import { useLocalePath } from "../lib/paths";
import { appPublished, storeLink } from "../lib/device";

const TELEGRAM: Record<Locale, string> = {
  en: "https://t.me/blockbrief_en",
  "zh-Hans": "https://t.me/blockbrief_cn",
  "zh-Hant": "https://t.me/blockbrief_tw",
  vi: "https://t.me/blockbrief_vn",
  ko: "https://t.me/blockbrief_kr",
};

/** The site's links, the guides and, once the app is published, its download. */
export function Footer() {
  const { t, i18n } = useTranslation();
  const openDownload = useSetAtom(downloadOpenAtom);
  const to = useLocalePath();
  const locale = i18n.language as Locale;
  return (
    <footer className="footer">
      <div className="footer-links">
        <a href={TELEGRAM[locale] ?? TELEGRAM.en} target="_blank" rel="noopener noreferrer">{t("web.footer.telegram")}</a>
        <a href="https://x.com/blockbrief" target="_blank" rel="noopener noreferrer">{t("web.footer.twitter")}</a>
        <a href="https://t.me/blockbrief_bot" target="_blank" rel="noopener noreferrer">{t("web.footer.bot")}</a>
        {/* The guides by their stable names: the server sends these to the guide's page. */}
        <a href={to("/guides/telegram")}>{t("web.footer.telegramGuide")}</a>
        {usesChineseType(locale) && <a href={to("/guides/line")}>{t("web.footer.lineGuide")}</a>}
        {appPublished() && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              // On a phone the download action goes straight to its store.
              const store = storeLink();
              if (store) location.assign(store);
              else openDownload(true);
            }}
          >
            {t("web.footer.download")}
          </button>
        )}
      </div>
      <p className="footer-note">© 2026 Blockbrief</p>
    </footer>
  );
}
