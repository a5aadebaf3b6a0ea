// The reCAPTCHA step before a code is sent, when the server asks for one (`/service/captcha`).
// v2 renders Google's checkbox; v3 runs invisibly when the code is asked for.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n";

import type { CaptchaUse } from "../../lib/api-types";
import { toast } from "../../lib/toast";

interface Grecaptcha {
  render(el: HTMLElement, options: { sitekey: string; callback: (token: string) => void; "expired-callback": () => void }): number;
  execute(siteKey: string, options: { action: string }): Promise<string>;
  reset(): void;
}

const SCRIPT = "https://www.google.com/recaptcha/api.js";
/** How often readiness is checked, and how long it may take. */
const READY_POLL_MS = 300;
const READY_TIMEOUT_MS = 10_000;

function grecaptcha(): Grecaptcha | undefined {
  return (window as unknown as { grecaptcha?: Grecaptcha }).grecaptcha;
}

/** Loads Google's script once; `onError` runs when it fails to load. */
function loadScript(src: string, onError: () => void): void {
  if (document.querySelector(`script[data-recaptcha]`)) return;
  const script = document.createElement("script");
  script.src = src;
  script.async = true;
  script.dataset.recaptcha = "true";
  script.onerror = onError;
  document.head.append(script);
}

type Status = "loading" | "ready" | "timeout" | "failed";

/** v2: the checkbox; reports its token (null when it expires). v3: nothing to show; `execute`
 * is called by `captchaToken`. Shows "Loading Google reCAPTCHA ..." until ready and
 * "Network Error 0" when it is not ready in 10 s. */
export function Recaptcha({ use, onToken }: { use: CaptchaUse; onToken: (token: string | null) => void }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>("loading");
  useEffect(() => {
    const v3 = use.use === "reCAPTCHA.v3";
    loadScript(v3 ? `${SCRIPT}?render=${encodeURIComponent(use.site_key)}` : `${SCRIPT}?render=explicit`, () => {
      setStatus("failed");
      toast("error", t("web.captcha.loadFailed"));
    });
    const started = Date.now();
    const poll = setInterval(() => {
      const api = grecaptcha();
      const ready = v3 ? typeof api?.execute === "function" : typeof api?.render === "function";
      if (ready) {
        clearInterval(poll);
        setStatus("ready");
        if (!v3 && box.current && api) {
          api.render(box.current, { sitekey: use.site_key, callback: onToken, "expired-callback": () => onToken(null) });
        }
      } else if (Date.now() - started > READY_TIMEOUT_MS) {
        clearInterval(poll);
        setStatus((s) => (s === "failed" ? s : "timeout"));
      }
    }, READY_POLL_MS);
    return () => clearInterval(poll);
  }, [use, onToken, t]);
  return (
    <div className="captcha" aria-live="polite">
      {status === "loading" && <p>{t("web.captcha.loading")}</p>}
      {status === "timeout" && <p className="field-error">{t("web.captcha.networkError")}</p>}
      <div ref={box} />
    </div>
  );
}

/** A v3 token for sending a code (v3 has no checkbox). */
/** A v3 answer for `action`: `otpemail` to send a code, `otplogin` to sign in with one (the
 * server asks for it only while many wrong codes are being tried). */
export async function v3Token(siteKey: string, action: "otpemail" | "otplogin"): Promise<string | null> {
  const api = grecaptcha();
  if (!api) return null;
  return api.execute(siteKey, { action });
}

/** After a v2 token was used: the checkbox must be ticked again. */
export function resetCaptcha(): void {
  grecaptcha()?.reset?.();
}
