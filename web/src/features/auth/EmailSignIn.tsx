import { useCallback, useEffect, useState } from "react";
import { say, useTranslation } from "../../lib/i18n";
import { messageOf } from "../../lib/errors";
import { C, type Message } from "../../lib/core";
import { canLoginWithEmail, canSendEmailCode, emailError, sanitizeCode } from "../../lib/core-more";
import type { SessionUser } from "../../lib/session";
import { toast } from "../../lib/toast";
import { useCaptchaUse } from "./api/get-captcha-use";
import { loginWithEmail } from "./api/login-email";
import { sendEmailCode } from "./api/send-email-code";
import { Recaptcha, resetCaptcha, v3Token } from "./Recaptcha";

/** Sign-in with a one-time code sent by email, behind the captcha the server asks for. */
export function EmailSignIn({ onSignedIn }: { onSignedIn: (user: SessionUser) => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [shownError, setShownError] = useState<Message | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [sending, setSending] = useState(false);
  const [loggingIn, setLoggingIn] = useState(false);
  const captcha = useCaptchaUse().data;
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const onCaptchaToken = useCallback((token: string | null) => setCaptchaToken(token), []);
  const checkboxMissing = captcha?.use === "reCAPTCHA.v2" && !captchaToken;

  // The email's error shows once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setShownError(emailError(email)), C.emailErrorDebounceMs);
    return () => clearTimeout(timer);
  }, [email]);
  useEffect(() => {
    if (countdown <= 0) return;
    const timer = setTimeout(() => setCountdown((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown]);

  // v3 answers invisibly for each action; a v2 checkbox answer serves one request.
  const captchaAnswer = async (action: "otpemail" | "otplogin") =>
    captcha?.use === "reCAPTCHA.v3" ? v3Token(captcha.site_key, action) : captchaToken;
  const captchaUsed = () => {
    if (captcha?.use === "reCAPTCHA.v2" && captchaToken) {
      setCaptchaToken(null);
      resetCaptcha();
    }
  };
  const sendCode = async () => {
    setSending(true);
    try {
      await sendEmailCode(email.trim(), await captchaAnswer("otpemail"));
      setCountdown(C.otpResendSeconds);
      toast("info", t("web.login.codeSent", { email: email.trim() }));
    } catch {
      // The error toast is shown; the button stays available.
    } finally {
      setSending(false);
      captchaUsed();
    }
  };
  const login = async () => {
    setLoggingIn(true);
    try {
      onSignedIn(await loginWithEmail(email.trim(), code, await captchaAnswer("otplogin")));
    } catch (e) {
      // Beside the field the reader is looking at. A captcha refusal means the checkbox is wanted (v2).
      setCodeError(messageOf(e));
    } finally {
      setLoggingIn(false);
      captchaUsed();
    }
  };

  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        if (canLoginWithEmail(email, code)) void login();
      }}
    >
      <label>
        <span>{t("web.login.email")}</span>
        <input
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          aria-invalid={shownError ? true : undefined}
          aria-describedby="email-error"
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <p id="email-error" className="field-error" role="alert">{shownError ? say(shownError) : ""}</p>
      <div className="code-row">
        <label>
          <span>{t("web.login.code")}</span>
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            aria-invalid={codeError ? true : undefined}
            aria-describedby="code-error"
            onChange={(e) => {
              setCode(sanitizeCode(e.target.value));
              setCodeError(null);
            }}
          />
        </label>
        {countdown > 0 ? (
          <span className="countdown" aria-live="polite">{countdown}S</span>
        ) : (
          <button
            type="button"
            className="button ghost"
            disabled={!canSendEmailCode(email) || sending || checkboxMissing}
            onClick={() => void sendCode()}
          >
            {t("web.login.sendCode")}
          </button>
        )}
      </div>
      <p id="code-error" className="field-error" role="alert">{codeError ?? ""}</p>
      {captcha && captcha.use !== "none" && <Recaptcha use={captcha} onToken={onCaptchaToken} />}
      <button type="submit" className="button wide" disabled={!canLoginWithEmail(email, code) || loggingIn}>
        {t("web.login.login")}
      </button>
    </form>
  );
}
