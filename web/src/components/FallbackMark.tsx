import { useTranslation } from "../lib/i18n";

/** Says which language a text is in when it is not the reader's (the catalogue falls back to
 * English where a text has no translation). */
export function FallbackMark({ lang }: { lang: string }) {
  const { t, i18n } = useTranslation();
  if (lang === i18n.language) return null;
  return (
    <span className="badge fallback" lang={i18n.language}>
      {t(`web.languageNames.${lang}`, { defaultValue: lang })}
    </span>
  );
}
