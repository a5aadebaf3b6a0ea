import type { TFunction } from "i18next";
import { useTranslation } from "../../lib/i18n";

/** "Translated from Korean": the original language named in the reader's (the code for one we
 * have no name for); the server's first paint says it the same way. */
export function translatedFrom(lang: string, t: TFunction): string {
  return t("web.feed.translated", { lang: t(`web.languageNames.${lang}`, { defaultValue: lang }) });
}

/** "Translated from Korean · Show original" under a translated text. The original came with the
 * answer, so the toggle asks nothing; without one (an editor's translation) there is no toggle. */
export function TranslationNote(props: { lang: string; hasOriginal: boolean; showing: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <p className="translated">
      {translatedFrom(props.lang, t)}
      {props.hasOriginal && (
        <>
          {" · "}
          <button type="button" className="link-button" aria-pressed={props.showing} onClick={props.onToggle}>
            {t(props.showing ? "web.feed.showTranslation" : "web.feed.showOriginal")}
          </button>
        </>
      )}
    </p>
  );
}
