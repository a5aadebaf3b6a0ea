import { C, checkReadLangs, type Locale } from "../../lib/core";
import { LANGUAGE_NAMES, say, useTranslation } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { updateSettings } from "./api/update-settings";

/** "Languages I read": the home feed and linked bots keep to news in, or translated into, these. */
export function ReadLangs(props: { langs: Locale[] }) {
  const { t } = useTranslation();
  const toggle = (lang: Locale, on: boolean) => {
    const next = C.locales.filter((l) => (l === lang ? on : props.langs.includes(l)));
    const broken = checkReadLangs(next);
    if (broken) toast("error", say(broken));
    else void updateSettings({ read_langs: next });
  };
  return (
    <fieldset className="setting read-langs">
      <legend>{t("web.account.readLangs")}</legend>
      <p className="muted">{t("web.account.readLangsHint")}</p>
      <div className="read-langs-list">
        {C.locales.map((lang) => (
          <label key={lang} className="chip-check">
            <input type="checkbox" checked={props.langs.includes(lang)} onChange={(e) => toggle(lang, e.target.checked)} />
            <span lang={lang}>{LANGUAGE_NAMES[lang]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
