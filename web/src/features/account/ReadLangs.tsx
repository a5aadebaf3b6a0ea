import { useRef, useState } from "react";

import { C, type Locale } from "../../lib/core";
import { checkReadLangs } from "../../lib/core-more";
import { LANGUAGE_NAMES, say, useTranslation } from "../../lib/i18n";
import { toast } from "../../lib/toast";
import { updateSettings } from "./api/update-settings";

/** "Languages I read": the home feed and linked bots keep to news in, or translated into, these.
 *  A change shows at once; changes are saved one after another, so the last one is what the
 *  server keeps, and the boxes show the account as saved once they are (undone if refused).
 *  A status line says "Saving…" until the last change is kept, then "Saved". */
export function ReadLangs(props: { langs: Locale[] }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Locale[] | null>(null);
  const [saved, setSaved] = useState(false);
  const saving = useRef(Promise.resolve());
  const latest = useRef<Locale[] | null>(null);
  const chosen = pending ?? props.langs;
  const toggle = (lang: Locale, on: boolean) => {
    const next = C.locales.filter((l) => (l === lang ? on : chosen.includes(l)));
    const broken = checkReadLangs(next);
    if (broken) {
      toast("error", say(broken));
      return;
    }
    setPending(next);
    setSaved(false);
    latest.current = next;
    // Only the last change's outcome is shown: earlier ones are already overtaken.
    const settled = (kept: boolean) => () => {
      if (latest.current !== next) return;
      setPending(null);
      setSaved(kept);
    };
    saving.current = saving.current
      .then(() => updateSettings({ read_langs: next }))
      .then(settled(true), settled(false));
  };
  return (
    <fieldset className="setting read-langs">
      <legend>{t("web.account.readLangs")}</legend>
      <p className="muted">{t("web.account.readLangsHint")}</p>
      <div className="read-langs-list">
        {C.locales.map((lang) => (
          <label key={lang}>
            <input type="checkbox" checked={chosen.includes(lang)} onChange={(e) => toggle(lang, e.target.checked)} />
            <span lang={lang}>{LANGUAGE_NAMES[lang]}</span>
          </label>
        ))}
      </div>
      <p className="muted" role="status">
        {pending ? t("web.account.readLangsSaving") : saved ? t("web.account.readLangsSaved") : ""}
      </p>
    </fieldset>
  );
}
