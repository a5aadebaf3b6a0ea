import { useSetAtom } from "jotai";
import { useCallback, useEffect, useState } from "react";
import { say, useTranslation } from "../../lib/i18n";

import { inviteOpenAtom, loginOpenAtom } from "../../lib/dialogs";
import { Dialog } from "../../components/ui";
import { ApiError, messageOf } from "../../lib/api";
import { C, canLoginWithEmail, canSendEmailCode, emailError, type Message, sanitizeCode } from "../../lib/core";
import { mobileOs } from "../../lib/device";
import { type SessionUser, signIn } from "../../lib/session";
import { toast } from "../../lib/toast";
import { signInWithApple } from "./apple";
import { OAuthCancelled, runOAuth } from "./oauth";
import { useCaptchaUse, useOffers } from "./api/get-captcha-use";
import { loginWithEmail } from "./api/login-email";
import { sendEmailCode } from "./api/send-email-code";
import { Recaptcha, resetCaptcha, v3Token } from "./Recaptcha";
import { signInWithWallet, toastWalletError } from "./wallet";
import { loginWithTelegram, miniAppInitData, signInWithTelegramWidget, useTelegramStart } from "../bots";

/** Sign-in: email with a one-time code; below it the other methods this site offers (the server
 * says which, in the captcha answer the dialog asks for anyway), by their device rules. */
export default function LoginModal() {
  const { t, i18n } = useTranslation();
  const setOpen = useSetAtom(loginOpenAtom);
  const openInvite = useSetAtom(inviteOpenAtom);
  const [email, setEmail] = useState("");
  const [shownError, setShownError] = useState<Message | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [sending, setSending] = useState(false);
  const [loggingIn, setLoggingIn] = useState(false);
  const os = mobileOs();
  const captcha = useCaptchaUse().data;
  const offers = useOffers();
  const telegram = useTelegramStart(offers("telegram")).data;
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

  const close = () => setOpen(false);
  const finish = useCallback(
    (user: SessionUser) => {
      signIn(user);
      toast("success", t("web.login.success"));
      setOpen(false);
      if (user.prompt_for_code) openInvite(true);
    },
    [t, setOpen, openInvite],
  );
  // Opened as a Telegram Mini App: Telegram already vouches for the reader.
  useEffect(() => {
    const initData = miniAppInitData();
    if (telegram && initData) void loginWithTelegram({ init_data: initData }).then(finish, () => {});
  }, [telegram, finish]);
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
      finish(await loginWithEmail(email.trim(), code, await captchaAnswer("otplogin")));
    } catch (e) {
      // Beside the field the reader is looking at. A captcha refusal means the checkbox is wanted (v2).
      setCodeError(messageOf(e));
    } finally {
      setLoggingIn(false);
      captchaUsed();
    }
  };

  const providers = (os === "ios" ? (["line", "twitter"] as const) : (["google", "line", "twitter"] as const)).filter(offers);
  const wallet = os === null && offers("wallet");
  const others = Boolean(telegram) || wallet || providers.length > 0 || offers("apple");

  return (
    <Dialog open title={t("web.login.title")} onClose={close}>
      <div role="tablist" aria-label={t("web.login.methods")} className="login-tabs">
        <button type="button" role="tab" aria-selected="true" className="tab">{t("web.login.emailTab")}</button>
        {/* The phone tab exists but is hidden until SMS sign-in opens to everyone. */}
        <button type="button" role="tab" aria-selected="false" className="tab" hidden>{t("web.login.phoneTab")}</button>
      </div>
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
      {others && <p className="divider">{t("web.login.or")}</p>}
      <div className="other-logins">
        {telegram && (
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              void signInWithTelegramWidget(telegram.bot_id, i18n.language).then(finish, (e: unknown) => {
                if (e instanceof Error && e.message !== "cancelled") toast("error", t(e.message, { defaultValue: messageOf(e) }));
              })
            }
          >
            {t("web.login.telegram")}
          </button>
        )}
        {wallet && (
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              void signInWithWallet().then(finish, toastWalletError)
            }
          >
            {t("web.login.metamask")}
          </button>
        )}
        {providers.map((provider) => (
          <button
            key={provider}
            type="button"
            className="button ghost"
            onClick={() =>
              // Errors from the server are toasted by the API client; a closed popup is a cancel.
              void runOAuth(provider).then(finish, () => {})
            }
          >
            {t(`web.login.${provider}`)}
          </button>
        ))}
        {offers("apple") && (
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              // Errors from the server are toasted by the API client; a closed popup is a cancel.
              void signInWithApple().then(finish, (e: unknown) => {
                if (!(e instanceof OAuthCancelled) && !(e instanceof ApiError)) toast("error", t("web.login.appleUnreachable"));
              })
            }
          >
            {t("web.login.apple")}
          </button>
        )}
      </div>
    </Dialog>
  );
}
